/* ref/diagnostics.c — the certified invariants of a state and their drift from x0
 * (slpi_ref_diagnostics, slpi.h), at the precision cap, named in the vocabulary both paths
 * share (docs/architecture.md#twin-diagnostics): the invariants; with x0, each one's
 * departure NAME_dev (absolute) or NAME_rel_dev (relative: divided by its value at x0, the
 * absolute difference where that ball contains 0, as the double path does at 0), then the
 * system's other departures. */
#include "slpi/step.h"
#include "slpi/ref.h"
#include "ref/ref.h"

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
    for (int i = 0; i < SLPI_MAX_DIAG; i++)
        arb_clear(d->value + i);
    d->n = d->n_inv = 0;
}

/* v0 = the invariants at x0: kept from the last call with the same x0 where they cannot
 * change between rows (no Hamiltonian reads t, and no evaluation records a domain error
 * for the next step to read), so that a run's rows do not evaluate them again (at
 * su(128) C2..C6 at x0 are five 128 x 128 ball products a row); the balls are those of a
 * fresh evaluation, bit for bit. */
static void invariants_at_x0(slpi_ref *s, arb_ptr v0, arb_srcptr x0, slong prec)
{
    const slpi_ref_system *sys = &s->sys;
    int dim = sys->state_dim, m = sys->n_inv;
    int kept = s->inv0 != NULL;
    for (int i = 0; i < dim && kept; i++) kept = arb_equal(s->inv0_x0 + i, x0 + i);
    if (kept) {
        _arb_vec_set(v0, s->inv0, m);
        return;
    }
    sys->invariants(sys, v0, x0, prec);
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
    slong prec = s->p.prec_max;
    int m = sys->n_inv;
    arb_ptr v = _arb_vec_init(m), v0 = _arb_vec_init(m);
    double h = s->p.h;
    slpi_ref_time(sys, 0, &h, prec);   /* H0 at the state's time t0 + n h (docs/models.md#time) */
    sys->invariants(sys, v, x, prec);
    if (x0 != NULL) invariants_at_x0(s, v0, x0, prec);
    d->n = 0;
    for (int i = 0; i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_name[i];
        arb_set(d->value + d->n++, v + i);
    }
    d->n_inv = d->n;
    for (int i = 0; x0 != NULL && i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_delta_name[i];
        arb_sub(d->value + d->n, v + i, v0 + i, prec);
        if (sys->inv_rel[i] && !arb_contains_zero(v0 + i))
            arb_div(d->value + d->n, d->value + d->n, v0 + i, prec);
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
