/* ref/vector-field.h — what the scheme files share of one step's vector field
 * (ref/vector-field.c). */
#ifndef SLPI_REF_VECTOR_FIELD_H
#define SLPI_REF_VECTOR_FIELD_H

typedef struct slpi_error slpi_error; /* slpi/errors.h */
#include "core/slpi-flint.h"
#include "ref/system.h"

/* Shared vector fields (ref/vector-field.c), delta = (Delta_0..Delta_M) exact binary64:
 *   gen_sum:  b = sum_k delta_k b_k(mu);          dgen_sum: db = sum_k delta_k Db_k(mu)[w];
 *   vf:       V = coad(gen_sum(mu), mu) = sum_k delta_k V_k(mu);
 *   dvf:      DV(mu)[w] = coad(dgen_sum(mu, w), mu) + coad(gen_sum(mu), w). */
void slpi_ref_gen_sum(const slpi_ref_system *s, arb_ptr b, const double *delta, arb_srcptr mu, slong prec);
void slpi_ref_dgen_sum(const slpi_ref_system *s, arb_ptr db, const double *delta, arb_srcptr mu, arb_srcptr w,
                       slong prec);
void slpi_ref_vf(const slpi_ref_system *s, arb_ptr out, const double *delta, arb_srcptr mu, slong prec);
void slpi_ref_dvf(const slpi_ref_system *s, arb_ptr out, const double *delta, arb_srcptr mu, arb_srcptr w, slong prec);
/* SLPI_EINPUT unless the state is mu alone (no R): schemes on the LP variable only. */
int slpi_ref_check_plain(const slpi_ref_system *s, const char *scheme, slpi_error *err);

#endif
