/* ref/euler-zeitlin-operator.c — the certified Euler–Zeitlin system's operator L^{-1} and
 * what it needs at a precision (docs/systems.md#euler-zeitlin, #zeitlin-family; ISO, §6.4,
 * eq. (40)): the tables of ref/zeitlin-basis.c, rebuilt when a step asks for more
 * precision than they were built at (the T_lm tables as balls at the first Arb transform,
 * those of the BLAS route at creation), with the noise amplitudes a_l; the solve
 * P = L^{-1}(X - Tr(X)/N I), L = Delta_N - kappa^2 (tridiagonal solves) or L given by its
 * multiplier lambda(l) (one analysis, one synthesis); the multiplier from its model tape;
 * the background F (rotation, background_modes) and G = L^{-1} F. The system over it
 * (generators, H0, invariants, constructor) is ref/euler-zeitlin.c; their shared data
 * ref/euler-zeitlin.h. */
#include "slpi/errors.h"
#include "core/slpi-flint.h"
#include "core/check.h"
#include "core/zeitlin-family.h"
#include "ref/euler-zeitlin.h"
#include "ref/model-tape.h"
#include "ref/mrmat.h"
#include "ref/vec.h"
#include "ref/zeitlin.h"

#include <stddef.h>
#include <stdlib.h>

/* The noise amplitudes a_l at precision prec. */
void slpi_ref_ez_amplitudes(slpi_ref_ez_data *d, slong prec)
{
    free(d->wq); /* the weights were of the amplitudes before */
    d->wq = NULL;
    for (int l = 1; l < d->z.N; l++) {
        arb_set_d(d->a + l, d->amp);
        arb_div_ui(d->a + l, d->a + l, (ulong)l * (ulong)(l + 1), prec);
    }
}

/* The tables at precision >= prec, rebuilt on demand. The rebuild cannot fail once the
 * first build (at creation) succeeded: the same N, a higher precision, and the basis's
 * only failure (q_n != 0, ref/zeitlin-basis.c) impossible (docs/conventions.md#defensive-checks).
 * Should it fail all the same, the tables of the lower precision stay: still enclosures,
 * only wider (never cleared tables, as the error was once swallowed here). */
const slpi_ref_zeitlin *slpi_ref_ez_tables(const slpi_ref_system *s, slong prec)
{
    slpi_ref_ez_data *d = s->data;
    if (prec > d->z.prec) {
        slpi_error err;
        slpi_ref_zeitlin z;
        if (!SLPI_NEVER(slpi_ref_zeitlin_init(&z, d->z.N, prec, &err) != SLPI_OK)) {
            slpi_ref_zeitlin_clear(&d->z);
            d->z = z;
            slpi_ref_ez_amplitudes(d, prec);
            slpi_ref_ez_family(s, prec);
        }
    }
    return &d->z;
}

/* The tables with the T_lm as balls (built at the first call), or NULL where they
 * cannot be (N > SLPI_ZEITLIN_ARB_NMAX: the Arb transforms' outputs are then
 * indeterminate, and the step UNABLE). */
const slpi_ref_zeitlin *slpi_ref_ez_harmonics(const slpi_ref_system *s, slong prec)
{
    slpi_ref_ez_data *d = s->data;
    slpi_error err;
    slpi_ref_ez_tables(s, prec);
    return slpi_ref_zeitlin_harmonics(&d->z, &err) == SLPI_OK ? &d->z : NULL;
}

/* The tables of the BLAS route, or NULL when this step's products take Arb's route or the
 * tables cannot be built. */
const slpi_ref_zeitlin_mr *slpi_ref_ez_tables_mr(const slpi_ref_system *s, slong prec)
{
    return slpi_ref_mrmat_route(s->p, s->N, prec) ? slpi_ref_ez_tables_dd(s) : NULL;
}

const slpi_ref_zeitlin_mr *slpi_ref_ez_tables_dd(const slpi_ref_system *s)
{
    slpi_ref_ez_data *d = s->data;
    if (d->mr_state == 0) d->mr_state = slpi_ref_zeitlin_mr_init(&d->mr, s->N) ? 1 : -1;
    return d->mr_state == 1 ? &d->mr : NULL;
}

/* The norms of the multiplier's map per diagonal (slpi_ref_zeitlin_weights_norm_mr, made at
 * the first call on the tables as doubles, built here where the step's route did not), or
 * NULL where they cannot be made: the solves then take the plain enclosures. */
const double *slpi_ref_ez_multiplier_norms(const slpi_ref_system *s)
{
    slpi_ref_ez_data *d = s->data;
    if (d->lrho == NULL && slpi_ref_ez_tables_dd(s) != NULL && d->ilam_m != NULL &&
        (d->lrho = malloc(sizeof(double) * 2 * (size_t)s->N)) != NULL &&
        !slpi_ref_zeitlin_weights_norm_mr(d->lrho, d->ilam_m, d->ilam_r, &d->mr)) {
        free(d->lrho);
        d->lrho = NULL;
    }
    return d->lrho;
}

/* P = L^{-1}(X - Tr(X)/N I): the tridiagonal solves of Delta_N - kappa^2 (a step's on the
 * BLAS route's doubles where the step takes it), or the multiplier's sum_alpha
 * omega_alpha(X) / lambda(l) Y_alpha: on the BLAS route's tables where this step takes
 * them (the weights 1/lambda(l) as midpoint-radius doubles), else an Arb analysis and
 * synthesis; indeterminate where neither can. */
void slpi_ref_ez_solve(const slpi_ref_system *s, acb_mat_t P, const acb_mat_t X, int step, slong prec)
{
    slpi_ref_ez_data *e = s->data;
    const slpi_ref_zeitlin_mr *mr;
    const slpi_ref_zeitlin *z;
    if (e->lam == NULL) {
        int route = step && slpi_ref_mrmat_route(s->p, s->N, prec);
        if (route) /* the factors as doubles, made at the first call after the tables or their shift changed */
            slpi_ref_zeitlin_factors_mr(&e->z);
        if (!route || !slpi_ref_zeitlin_poisson_mr(P, X, &e->z))
            slpi_ref_zeitlin_poisson(P, X, slpi_ref_ez_tables(s, prec), prec);
        return;
    }
    /* the norms are taken after the tables: rebuilding them at a higher precision renews
     * the multiplier's weights and frees the norms of the old ones */
    const double *rho;
    if (slpi_ref_ez_multiplier_norms(s) != NULL && (mr = slpi_ref_ez_tables_mr(s, prec)) != NULL &&
        (rho = slpi_ref_ez_multiplier_norms(s)) != NULL &&
        slpi_ref_zeitlin_weighted_mr(P, X, e->ilam_m, e->ilam_r, rho, mr))
        return;
    if ((z = slpi_ref_ez_harmonics(s, prec)) == NULL)
        acb_mat_indeterminate(P);
    else
        slpi_ref_zeitlin_divided(P, X, e->lam, slpi_ref_ez_multiplier_norms(s), z, prec);
}

/* X = sum_alpha c_alpha Y_alpha (all N^2 - 1 coefficients) with the certified T_lm basis:
 * the tables as balls, or where they cannot be built (N > SLPI_ZEITLIN_ARB_NMAX) the BLAS
 * route's; indeterminate where neither can. */
void slpi_ref_ez_synthesis_all(const slpi_ref_system *s, acb_mat_t X, arb_srcptr c, slong prec)
{
    const slpi_ref_zeitlin *z = slpi_ref_ez_harmonics(s, prec);
    const slpi_ref_zeitlin_mr *mr = z == NULL ? slpi_ref_ez_tables_mr(s, prec) : NULL;
    if (z != NULL)
        slpi_ref_zeitlin_synthesis(X, c, 0, z, prec);
    else if (mr == NULL || !slpi_ref_zeitlin_synthesis_mr(X, c, 0, mr, slpi_ref_ez_tables(s, prec), prec))
        acb_mat_indeterminate(X);
}

/* The shift kappa^2 and the background at the tables' precision: F = sum of the modes'
 * amp Y_alpha plus 2 Omega sqrt(4 pi/3) Y_(1,0), G = L^{-1} F. */
void slpi_ref_ez_family(const slpi_ref_system *s, slong prec)
{
    slpi_ref_ez_data *d = s->data;
    int N = d->z.N, n = N * N - 1;
    arb_t t, om2;
    arb_init(t);
    arb_init(om2);
    arb_set_d(t, d->kappa);
    arb_sqr(t, t, prec);
    slpi_ref_zeitlin_set_shift(&d->z, t, prec);
    if (d->lam != NULL) { /* the multiplier at this precision: cannot fail once it did not at creation */
        slpi_error err;
        (void)SLPI_NEVER(slpi_ref_ez_multiplier(d, s->p, d->z.N, prec, &err) !=
                         SLPI_OK); /* else the lower precision's balls stay */
    }
    if (d->has_F) {
        arb_ptr c = _arb_vec_init(n);
        arb_const_pi(t, prec); /* 2 Omega sqrt(4 pi / 3) */
        arb_mul_ui(t, t, 4, prec);
        arb_div_ui(t, t, 3, prec);
        arb_sqrt(t, t, prec);
        arb_set_d(om2, 2.0 * d->rotation); /* 2 Omega, exact */
        arb_mul(c + slpi_zeitlin_mode_alpha(1, 0), t, om2, prec);
        for (int k = 0; k < d->nb; k++) {
            arb_set_d(t, d->bg[k].amp);
            arb_add(c + d->bg[k].alpha, c + d->bg[k].alpha, t, prec);
        }
        slpi_ref_ez_synthesis_all(s, d->F, c, prec);
        slpi_ref_ez_solve(s, d->G, d->F, 0, prec);
        _arb_vec_clear(c, n);
    }
    arb_clear(t);
    arb_clear(om2);
}

/* lambda(l) of the multiplier, l = 1..N-1, into d->lam at precision prec: each the
 * multiplier's model tape at that l (ref/model-tape.h, constants from their decimal text).
 * SLPI_EINPUT, with core's text, where a constant's domain fails or some point of a ball
 * has |lambda| outside [SLPI_LAMBDA_MIN, SLPI_LAMBDA_MAX] (L not invertible, or not
 * certified to be), d->lam then as it was. */
int slpi_ref_ez_multiplier(slpi_ref_ez_data *d, const slpi_problem *p, int N, slong prec, slpi_error *err)
{
    int rc = SLPI_OK;
    arb_ptr lam = _arb_vec_init(N), mu = _arb_vec_init(3);
    slpi_model m = { 0 }; /* the multiplier's model at l (core/zeitlin-family.h) */
    for (int l = 1; l < N && rc == SLPI_OK; l++) {
        slpi_ref_tape t;
        rc = slpi_zeitlin_multiplier_model(&m, p, l, err);
        if (rc == SLPI_OK && (rc = slpi_ref_tape_init(&t, &m, "", prec, err)) != SLPI_OK) /* nothing to clear */
            rc = slpi_zeitlin_multiplier_refusal(err, p, l, err->msg);                    /* a constant's domain */
        if (rc != SLPI_OK) break;
        if (!slpi_ref_tape_eval(&t, 0, lam + l, mu, NULL, 0, prec))
            rc = slpi_zeitlin_multiplier_refusal(err, p, l, t.why);
        else if (!slpi_ref_within(lam + l, SLPI_LAMBDA_MIN, SLPI_LAMBDA_MAX))
            rc = slpi_zeitlin_multiplier_refusal(err, p, l, NULL);
        slpi_ref_tape_clear(&t);
        slpi_model_free(&m);
    }
    slpi_model_free(&m); /* the one a refusal left */
    if (rc == SLPI_OK) {
        if (d->lam != NULL) _arb_vec_clear(d->lam, N);
        d->lam = lam;
        free(d->ilam_m);
        free(d->lrho);
        d->lrho = NULL;
        d->ilam_m = slpi_ref_zeitlin_weights_mr(lam, N, prec);
        d->ilam_r = d->ilam_m != NULL ? d->ilam_m + N * N - 1 : NULL;
    } else {
        _arb_vec_clear(lam, N);
    }
    _arb_vec_clear(mu, 3);
    return rc;
}

/* Everything of d but the tables z. */
void slpi_ref_ez_free(slpi_ref_ez_data *d)
{
    _arb_vec_clear(d->a, d->z.N);
    _arb_vec_clear(d->ka, d->nka);
    _arb_vec_clear(d->xi, d->nxi);
    if (d->lam != NULL) _arb_vec_clear(d->lam, d->z.N);
    free(d->ilam_m);
    free(d->lrho);
    free(d->wq);
    free(d->wq_delta);
    flint_free(d->alpha);
    flint_free(d->bg);
    acb_mat_clear(d->F);
    acb_mat_clear(d->G);
    slpi_ref_zeitlin_mr_clear(&d->mr);
    flint_free(d);
}
