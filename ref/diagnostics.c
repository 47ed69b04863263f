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

void slpi_ref_diagnostics(slpi_ref *s, arb_srcptr x, arb_srcptr x0, slpi_ref_diag *d)
{
    const slpi_ref_system *sys = &s->sys;
    slong prec = s->p.prec_max;
    int m = sys->n_inv;
    arb_ptr v = _arb_vec_init(m), v0 = _arb_vec_init(m);
    double h = s->p.h;
    slpi_ref_time(sys, 0, &h, prec);   /* H0 at the state's time t0 + n h (docs/models.md#time) */
    sys->invariants(sys, v, x, prec);
    if (x0 != NULL)
        sys->invariants(sys, v0, x0, prec);
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
