/* ref/diagnostics.c — the certified invariants of a state and their drift from x0
 * (slpi_ref_diagnostics, slpi.h), at the precision the state's balls call for (below),
 * named in the vocabulary both paths
 * share (docs/architecture.md#twin-diagnostics): the invariants; with x0, each one's
 * departure NAME_dev (absolute) or NAME_rel_dev (relative: divided by its value at x0, the
 * absolute difference where that ball contains 0, as the double path does at 0), then the
 * system's other departures. */
#include <math.h>
#include <stddef.h>

#include "slpi/diag.h"
#include "slpi/ref.h"
#include "ref/ref.h"
#include "core/view-cert.h"

void slpi_ref_diag_init(slpi_ref_diag *d)
{
    d->n = d->n_inv = 0;
    for (int i = 0; i < SLPI_MAX_DIAG; i++) {
        d->name[i] = NULL;
        arb_init(d->value + i);
    }
}

void slpi_ref_diag_clear(slpi_ref_diag *d)
{
    for (int i = 0; i < SLPI_MAX_DIAG; i++) arb_clear(d->value + i);
    d->n = d->n_inv = 0;
}

/* The working precision of a state's diagnostics: the first rung of the step's ladder
 * (prec, 2 prec, ..., prec_max) with at least 64 bits more than the state's accuracy,
 * log2(max |mid| / max rad) over its entries; the first rung for a state without
 * accuracy (no midpoint, or an infinite radius); prec_max for an exact state (a run's x0, a
 * port's binary64 rows), whose invariants only the working precision bounds (an eigenvalue
 * enclosure at 128 bits is 1e-32 wide, at prec_max 1e-300). Each operation
 * then rounds by at most 2^-64 of what the state's radius already contributes to the same
 * term, so the balls are as narrow as at prec_max up to that share, while at su(128) a
 * BLAS-route state (radius about 1e-14 of its entries) is evaluated at 128 bits instead of
 * 1024 (docs/design.md#certified-diagnostics). */
static slong diag_prec(const slpi_ref *s, arb_srcptr x)
{
    const slpi_cert_view *cert = slpi_view_cert(s->p);
    int dim = s->sys.state_dim;
    slong prec = cert->prec, need;
    mag_t rad, m, t;
    mag_init(rad);
    mag_init(m);
    mag_init(t);
    for (int i = 0; i < dim; i++) {
        mag_max(rad, rad, arb_radref(x + i));
        arf_get_mag(t, arb_midref(x + i));
        mag_max(m, m, t);
    }
    if (mag_is_zero(rad))
        need = cert->prec_max;
    else if (mag_is_zero(m) || !mag_is_finite(rad) || !mag_is_finite(m))
        need = 0;
    else
        need = 64 + (slong)ceil(mag_get_d_log2_approx(m) - mag_get_d_log2_approx(rad));
    while (prec < need && prec < cert->prec_max) prec = slpi_ref_next_prec(prec, cert->prec_max);
    mag_clear(rad);
    mag_clear(m);
    mag_clear(t);
    return prec;
}

static int vec_equal(arb_srcptr a, arb_srcptr b, int n)
{
    for (int i = 0; i < n; i++)
        if (!arb_equal(a + i, b + i)) return 0;
    return 1;
}

/* v0 = the invariants at x0 at x0's own precision (diag_prec), given v, those at x: v
 * itself where x is x0 (a run's first row); else kept from the last call with the same x0
 * where they cannot change between rows (no Hamiltonian reads t, and no evaluation
 * records a domain error for the next step to read), so that a run's rows do not evaluate
 * them again (at su(128) C2..C6 at x0 are two 128 x 128 ball products a row); the balls
 * are those of a fresh evaluation, bit for bit. */
static void invariants_at_x0(slpi_ref *s, arb_ptr v0, arb_srcptr x0, arb_srcptr v, arb_srcptr x)
{
    const slpi_ref_system *sys = &s->sys;
    int dim = sys->state_dim, m = sys->n_inv;
    if (s->inv0 != NULL && vec_equal(s->inv0_x0, x0, dim)) {
        _arb_vec_set(v0, s->inv0, m);
        return;
    }
    if (vec_equal(x, x0, dim))
        _arb_vec_set(v0, v, m);
    else
        sys->invariants(sys, v0, x0, diag_prec(s, x0));
    if (sys->at_time != NULL || sys->fault != NULL) return;
    if (s->inv0 == NULL) {
        s->inv0_x0 = _arb_vec_init(dim);
        s->inv0 = _arb_vec_init(m);
    }
    _arb_vec_set(s->inv0_x0, x0, dim);
    _arb_vec_set(s->inv0, v0, m);
}

void slpi_ref_diagnostics(slpi_ref *s, arb_srcptr x, arb_srcptr x0, slpi_ref_diag *d)
{
    const slpi_ref_system *sys = &s->sys;
    slong prec = diag_prec(s, x);
    int m = sys->n_inv;
    arb_ptr v = _arb_vec_init(m), v0 = _arb_vec_init(m);
    double h = s->h;
    slpi_ref_time(sys, 0, &h, prec); /* H0 at the state's time t0 + n h (docs/models.md#time) */
    sys->invariants(sys, v, x, prec);
    if (x0 != NULL) invariants_at_x0(s, v0, x0, v, x);
    d->n = 0;
    for (int i = 0; i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_name[i];
        arb_set(d->value + d->n++, v + i);
    }
    d->n_inv = d->n;
    for (int i = 0; x0 != NULL && i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_delta_name[i];
        arb_sub(d->value + d->n, v + i, v0 + i, prec);
        if (sys->inv_rel[i] && !arb_contains_zero(v0 + i)) arb_div(d->value + d->n, d->value + d->n, v0 + i, prec);
        d->n++;
    }
    _arb_vec_clear(v, m);
    _arb_vec_clear(v0, m);
    if (x0 == NULL || sys->n_dep == 0) return;
    arb_ptr e = _arb_vec_init(sys->n_dep);
    sys->departures(sys, e, x, x0, prec);
    for (int i = 0; i < sys->n_dep && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->dep_name[i];
        arb_swap(d->value + d->n++, e + i);
    }
    _arb_vec_clear(e, sys->n_dep);
}
