/* ref/model.c — a model described as data on the certified path (docs/models.md): an
 * algebra family (the structure of the built-in system with that algebra, ref/algebra.h)
 * and Hamiltonians H_0..H_M as parsed expressions (core/expr.h), evaluated in Arb balls
 * with their exact derivatives by ref/model-tape.c (docs/models.md#certified-derivatives).
 *
 * The gradient in the algebra's pairing is xi_i = (dH/dmu_i) / w_i (w_i =
 * slpi_algebra_weight: 1 or 2, exact), for su(n) then its traceless part; the generator
 * in algebra coordinates is b = -xi for the matrix families (B = xi^* = -xi) and b = xi
 * for se(3) (dot pairing, the heavy top's convention), so dmu = sum ad*_{xi_k} mu o dS^k
 * exactly as for the built-in system of the same algebra. */
#include "slpi/errors.h"
#include "slpi/plan.h"
#include "core/slpi-flint.h"
#include "core/view-cert.h"
#include "core/view-system.h"
#include "core/plan.h"
#include "ref/algebra.h"
#include <stddef.h>
#include "ref/matrix.h"
#include "ref/model-tape.h"

#include <stdio.h>

/* b = the generator of H_k in algebra coordinates from the derivative vector g */
static void to_generator(const slpi_ref_system *s, arb_ptr b, arb_srcptr g, slong prec)
{
    const slpi_ref_tape *d = s->data;
    const slpi_algebra *alg = &d->m->alg;
    for (int i = 0; i < alg->dim; i++) {
        if (slpi_algebra_weight(alg, i) == 2)
            arb_mul_2exp_si(b + i, g + i, -1);
        else
            arb_set(b + i, g + i);
    }
    if (alg->kind == SLPI_ALGEBRA_SUN) slpi_ref_tape_traceless(b, b, alg->n, alg->dim, prec);
    if (alg->kind != SLPI_ALGEBRA_SE3) _arb_vec_neg(b, b, alg->dim);
}

/* b = the generator of H_k at mu (w != NULL: its derivative along w), packed */
static void md_gen_packed(const slpi_ref_system *s, int k, arb_ptr b, arb_srcptr mu, arb_srcptr w, slong prec)
{
    slpi_ref_tape *d = s->data;
    slpi_ref_tape_eval(d, k, NULL, mu, w, 1, prec);
    to_generator(s, b, w != NULL ? d->h : d->g, prec);
}

/* the su(n) and so(3)^k packings with the interface's signature */
static void sun_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    slpi_ref_sun_unpack(X, x, s->N, prec);
}

static void sun_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    slpi_ref_sun_pack(x, X, s->N, prec);
}

static void so3k_m_unpack(const slpi_ref_system *s, acb_mat_t X, arb_srcptr x, slong prec)
{
    slpi_ref_so3k_m_unpack(X, x, s->dim / 3, 3, prec); /* hat blocks */
}

static void so3k_m_pack(const slpi_ref_system *s, arb_ptr x, const acb_mat_t X, slong prec)
{
    slpi_ref_so3k_m_pack(x, X, s->dim / 3, 3, prec);
}

static void md_invariants(const slpi_ref_system *s, arb_ptr out, arb_srcptr x, slong prec)
{
    slpi_ref_tape *d = s->data;
    slpi_ref_tape_eval(d, 0, out + 0, x, NULL, 0, prec);
    switch (d->m->alg.kind) {
    case SLPI_ALGEBRA_SO3:
        arb_dot(out + 1, NULL, 0, x, 1, x, 1, 3, prec); /* |x|^2 */
        break;
    case SLPI_ALGEBRA_SE3:
        arb_dot(out + 1, NULL, 0, x + 3, 1, x + 3, 1, 3, prec); /* |gamma|^2 */
        arb_dot(out + 2, NULL, 0, x, 1, x + 3, 1, 3, prec);     /* pi . gamma */
        break;
    case SLPI_ALGEBRA_SON:
        slpi_ref_so_casimirs(s, out, x, prec);
        break;
    case SLPI_ALGEBRA_SUN:
        slpi_ref_su_casimirs(s, out, x, prec);
        break;
    case SLPI_ALGEBRA_SO3K:
        slpi_ref_so3k_casimirs(s, out, x, prec);
        break;
    }
}

/* Every evaluation from now on reads t = t0 + (n + half/2) h (docs/models.md#time), the
 * double path's formula (fast/model.c) in balls: (2n + half) h / 2 is exact at 128 bits (a
 * 64-bit integer times a double), and the sum encloses t0 + (n + c) h with t0 read from its
 * decimal text. */
static void md_at_time(const slpi_ref_system *s, long n, int half, double h, slong prec)
{
    slpi_ref_tape *d = s->data;
    arb_set_d(&d->time, h);
    arb_mul_si(&d->time, &d->time, 2 * n + half, 128); /* 53 + 64 bits: exact */
    arb_mul_2exp_si(&d->time, &d->time, -1);
    arb_add(&d->time, &d->time, &d->t0, prec > 64 ? 2 * prec : 128);
}

static int md_fault(const slpi_ref_system *s, char *why, size_t why_len)
{
    slpi_ref_tape *d = s->data;
    if (!d->faulted) return 0;
    snprintf(why, why_len, "%s", d->why);
    d->faulted = 0;
    return 1;
}

static void md_clear(slpi_ref_system *s)
{
    slpi_ref_tape *d = s->data;
    const slpi_plan *plan = d->plan;
    slpi_ref_tape_clear(d);
    flint_free(d);
    slpi_plan_unref(plan);
}

int slpi_ref_sys_model(slpi_ref_system *s, const slpi_problem *p, const slpi_plan *plan, slpi_error *err)
{
    /* constants: far below any step radius, as the built-in systems' parameters */
    const slong cprec = 2 * slpi_view_cert(p)->prec_max + 64;
    slpi_ref_tape *d = flint_calloc(1, sizeof *d);
    int rc = slpi_ref_tape_init(d, slpi_plan_model(plan), slpi_view_system(p)->model.t0_text, cprec, err);
    if (rc != SLPI_OK) {
        flint_free(d);
        return rc;
    }
    d->plan = slpi_plan_ref(plan);
    const slpi_algebra *alg = &d->m->alg;
    s->data = d;
    s->p = p;
    s->clear = md_clear;
    s->dim = s->state_dim = alg->dim;
    s->M = d->m->M;
    s->h0_quadratic = 0;
    s->fault = md_fault;
    s->invariants = md_invariants;
    if (d->m->reads_t) s->at_time = md_at_time;
    s->inv_name[0] = "H0";
    s->inv_delta_name[0] = "H0_rel_dev"; /* relative, as the double path's (fast/model.c) */
    s->inv_rel[0] = 1;
    switch (alg->kind) {
    case SLPI_ALGEBRA_SE3:
        s->N = 0;
        s->gdim = 6;
        s->coad = slpi_ref_se3_coad;
        s->lie = slpi_ref_se3_lie;
        s->orbit = slpi_ref_se3_orbit;
        s->dorbit = slpi_ref_se3_dorbit;
        slpi_ref_se3_casimir_names(s);
        break;
    case SLPI_ALGEBRA_SO3:
        s->N = 3;
        s->m_unpack = slpi_ref_so3_m_unpack;
        s->m_pack = slpi_ref_so3_m_pack;
        slpi_ref_so3_casimir_names(s);
        break;
    case SLPI_ALGEBRA_SON:
        s->N = alg->n;
        s->m_unpack = slpi_ref_so_m_unpack;
        s->m_pack = slpi_ref_so_m_pack;
        slpi_ref_so_casimir_names(s);
        break;
    case SLPI_ALGEBRA_SUN:
        s->N = alg->n;
        s->m_unpack = sun_m_unpack;
        s->m_pack = sun_m_pack;
        slpi_ref_su_casimir_names(s);
        break;
    case SLPI_ALGEBRA_SO3K:
        s->N = 3 * alg->n;
        s->m_unpack = so3k_m_unpack;
        s->m_pack = so3k_m_pack;
        slpi_ref_so3k_casimir_names(s);
        break;
    }
    s->gen_packed = md_gen_packed;
    if (s->N > 0) {
        slpi_ref_matrix_attach(s);
    }
    if (alg->kind == SLPI_ALGEBRA_SO3) { /* closed forms of the hat map */
        s->coad = slpi_ref_so3_coad;
        s->m_sandwich = slpi_ref_so3_m_sandwich;
    }
    s->gen = slpi_ref_packed_gen;
    s->dgen = slpi_ref_packed_dgen;
    return SLPI_OK;
}
