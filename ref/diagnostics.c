/* ref/diagnostics.c — the certified invariants of a state and their drift from x0
 * (slpi_ref_diagnostics, slpi.h), at the precision cap. */
#include "ref/ref.h"

void slpi_ref_diag_init(slpi_ref_diag *d)
{
    d->n = 0;
    for (int i = 0; i < SLPI_MAX_DIAG; i++) {
        d->name[i] = NULL;
        arb_init(d->value + i);
    }
}

void slpi_ref_diag_clear(slpi_ref_diag *d)
{
    for (int i = 0; i < SLPI_MAX_DIAG; i++)
        arb_clear(d->value + i);
    d->n = 0;
}

void slpi_ref_diagnostics(slpi_ref *s, arb_srcptr x, arb_srcptr x0, slpi_ref_diag *d)
{
    const slpi_ref_system *sys = &s->sys;
    slong prec = s->p.prec_max;
    int m = sys->n_inv;
    arb_ptr v = _arb_vec_init(m), v0 = _arb_vec_init(m);
    sys->invariants(sys, v, x, prec);
    if (x0 != NULL)
        sys->invariants(sys, v0, x0, prec);
    d->n = 0;
    for (int i = 0; i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_name[i];
        arb_set(d->value + d->n++, v + i);
    }
    for (int i = 0; x0 != NULL && i < m && d->n < SLPI_MAX_DIAG; i++) {
        d->name[d->n] = sys->inv_delta_name[i];
        arb_sub(d->value + d->n++, v + i, v0 + i, prec);
    }
    _arb_vec_clear(v, m);
    _arb_vec_clear(v0, m);
}
