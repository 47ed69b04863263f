/* ref/vector-field.c — what the schemes share above a system table: the Stratonovich vector
 * field of the unified SDE (docs/conventions.md#sde), dmu = sum_k ad*_{xi_k(mu)} mu o dS^k,
 * evaluated for one step's increment vector Delta = (h, dW_1..dW_M) as
 * V(mu) = coad(sum_k Delta_k b_k(mu), mu) by bilinearity of coad, with its derivative; and
 * the check that a scheme acting on mu alone fits the system's state. */
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "core/slpi-flint.h"
#include "core/view-system.h"
#include "ref/vector-field.h"

/* out += c * v, c an exact double */
static void axpy_d(arb_ptr out, double c, arb_srcptr v, int n, slong prec)
{
    arb_t t;
    arb_init(t);
    for (int i = 0; i < n; i++) {
        arb_set_d(t, c);
        arb_mul(t, t, v + i, prec);
        arb_add(out + i, out + i, t, prec);
    }
    arb_clear(t);
}

void slpi_ref_gen_sum(const slpi_ref_system *s, arb_ptr b, const double *delta, arb_srcptr mu, slong prec)
{
    arb_ptr t = _arb_vec_init(s->gdim);
    _arb_vec_zero(b, s->gdim);
    for (int k = 0; k <= s->M; k++) {
        if (delta[k] == 0) continue;
        s->gen(s, k, t, mu, prec);
        axpy_d(b, delta[k], t, s->gdim, prec);
    }
    _arb_vec_clear(t, s->gdim);
}

void slpi_ref_dgen_sum(const slpi_ref_system *s, arb_ptr db, const double *delta, arb_srcptr mu, arb_srcptr w,
                       slong prec)
{
    arb_ptr t = _arb_vec_init(s->gdim);
    _arb_vec_zero(db, s->gdim);
    for (int k = 0; k <= s->M; k++) {
        if (delta[k] == 0) continue;
        s->dgen(s, k, t, mu, w, prec);
        axpy_d(db, delta[k], t, s->gdim, prec);
    }
    _arb_vec_clear(t, s->gdim);
}

void slpi_ref_vf(const slpi_ref_system *s, arb_ptr out, const double *delta, arb_srcptr mu, slong prec)
{
    arb_ptr b = _arb_vec_init(s->gdim);
    slpi_ref_gen_sum(s, b, delta, mu, prec);
    s->coad(s, out, b, mu, prec);
    _arb_vec_clear(b, s->gdim);
}

void slpi_ref_dvf(const slpi_ref_system *s, arb_ptr out, const double *delta, arb_srcptr mu, arb_srcptr w, slong prec)
{
    arb_ptr b = _arb_vec_init(s->gdim), t = _arb_vec_init(s->dim);
    slpi_ref_dgen_sum(s, b, delta, mu, w, prec);
    s->coad(s, out, b, mu, prec);
    slpi_ref_gen_sum(s, b, delta, mu, prec);
    s->coad(s, t, b, w, prec);
    _arb_vec_add(out, out, t, s->dim, prec);
    _arb_vec_clear(b, s->gdim);
    _arb_vec_clear(t, s->dim);
}

int slpi_ref_check_plain(const slpi_ref_system *s, const char *scheme, slpi_error *err)
{
    if (s->state_dim != s->dim)
        return slpi_error_set(err, SLPI_EINPUT,
                              "ref: scheme %s acts on the Lie-Poisson variable only; the "
                              "state of %s carries R (form svi): use scheme svi",
                              scheme, slpi_system_name(slpi_view_system(s->p)->system));
    return SLPI_OK;
}
