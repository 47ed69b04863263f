/* problem.c — the problem model's defaults: the papers' parameters of each system and form
 * (docs/systems.md, docs/experiments.md) and each scheme's solver defaults, set by
 * slpi_problem_init and reset by the keys system, scheme and form (core/problem-keys.c).
 * The other concerns of a problem each have a file of their own: its keys (the one key
 * table, parsing, presets, writing: core/problem-keys.c), validation and finishing
 * (core/problem-validate.c), the consistency rule of stochastic Lie-Euler
 * (core/lie-euler.c), its shape (state layout, noises, truncation: core/problem-shape.c)
 * and its initial state (core/initial-state.c). */
#include <string.h>

#include "slpi/registry.h"
#include "slpi/problem-build.h"
#include "core/problem-struct.h"
#include "core/problem.h"

static void rigid_body_form_defaults(slpi_problem *p, slpi_rb_form form)
{
    p->rb.form = form;
    p->rb.h0_scale = 1.0;
    p->rb.track_R = 0;
    if (form == SLPI_RB_FORM_ISO) {          /* ISO §6.1, eqs. (33)-(35) */
        p->rb.inertia[0] = 2.0; p->rb.inertia[1] = 1.0; p->rb.inertia[2] = 2.0 / 3.0;
        p->rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        p->rb.amp = 0.1;
        p->h = 0x1p-8;
        p->steps = 1000;
    } else {                                 /* SVI §7.1, eq. (53) */
        p->rb.inertia[0] = 1.0; p->rb.inertia[1] = 2.0; p->rb.inertia[2] = 3.0;
        p->rb.noise = SLPI_RB_NOISE_SVI_LIN;
        p->rb.amp = 0.02;
        p->h = 0.01;
        p->steps = 5000;
    }
}

static void heavy_top_form_defaults(slpi_problem *p, slpi_ht_form form)
{
    p->ht.form = form;
    p->ht.potential_printed = 0;
    p->ht.exp_form = 0;
    p->ht.alpha[0] = 0.01; p->ht.alpha[1] = 0.02; p->ht.alpha[2] = 0.03;
    p->ht.k[0] = 0.1; p->ht.k[1] = 0.1;
    p->ht.mg = 0.98;
    p->h = 0.01;
    if (form == SLPI_HT_FORM_RKMK) {         /* RKMK §5, eqs. (42)-(45) */
        p->ht.inertia[0] = 4.0; p->ht.inertia[1] = 2.0; p->ht.inertia[2] = 1.0;
        p->ht.mga[0] = 0.0; p->ht.mga[1] = 0.0; p->ht.mga[2] = 1.0;
        p->ht.noise = SLPI_HT_NOISE_SALT;
        p->ht.theta0 = 0.0;
        p->ht.pi0[0] = p->ht.pi0[1] = p->ht.pi0[2] = 0.0;
        p->steps = 10000;
    } else {                                 /* SVI §8.3, the gyroscope */
        p->ht.inertia[0] = 0.1; p->ht.inertia[1] = 0.1; p->ht.inertia[2] = 1.0;
        p->ht.mga[0] = 0.0; p->ht.mga[1] = 0.0; p->ht.mga[2] = 0.98;
        p->ht.noise = SLPI_HT_NOISE_NONE;
        p->ht.theta0 = 0.15 * 3.14159265358979323846;
        p->ht.pi0[0] = 0.0; p->ht.pi0[1] = 0.0; p->ht.pi0[2] = 1.0;
        p->steps = 2000;
    }
}

void slpi_problem_form_defaults(slpi_problem *p, int form)
{
    if (p->system == SLPI_SYS_RIGID_BODY) rigid_body_form_defaults(p, (slpi_rb_form)form);
    else heavy_top_form_defaults(p, (slpi_ht_form)form);
}

void slpi_problem_system_defaults(slpi_problem *p)
{
    switch (p->system) {
    case SLPI_SYS_RIGID_BODY:
        rigid_body_form_defaults(p, p->scheme == SLPI_SCHEME_SVI ? SLPI_RB_FORM_SVI : SLPI_RB_FORM_ISO);
        break;
    case SLPI_SYS_HEAVY_TOP:
        heavy_top_form_defaults(p, p->scheme == SLPI_SCHEME_SVI ? SLPI_HT_FORM_SVI : SLPI_HT_FORM_RKMK);
        break;
    case SLPI_SYS_MANAKOV:                   /* ISO §6.2 */
        p->mk.n = 10; p->mk.amp = 0.1; p->mk.noise = 1;
        p->h = 0x1p-8; p->steps = 1000;
        break;
    case SLPI_SYS_POINT_VORTICES:            /* ISO §6.3 */
        p->pv.n = 4; p->pv.model = SLPI_VORTEX_MODEL_A; p->pv.amp = 0.1; p->pv.noise = 1;
        p->h = 0x1p-8; p->steps = 1000;
        break;
    case SLPI_SYS_EULER_ZEITLIN:             /* ISO §6.4, strong-test size */
        p->ez.N = 12; p->ez.noise = SLPI_EZ_NOISE_Q; p->ez.amp = 2.0;
        p->ez.ic_lmax = 0; p->ez.scale = 1.0;   /* 0: min(11, N-1), slpi_problem_ic_lmax */
        p->h = 0x1p-8; p->steps = 100;
        break;
    case SLPI_SYS_SINE_EULER:                /* RKMK §6 */
        p->se.N = 3; p->se.amp = 0.1; p->se.noise = 1; p->se.ic = SLPI_SE_IC_CANONICAL;
        p->se.ic_seed = 1;
        p->h = 0.5; p->steps = 2000;
        break;
    case SLPI_SYS_MODEL:                     /* the ISO grid (docs/models.md) */
        p->h = 0x1p-8; p->steps = 1000;
        break;
    default:
        break;
    }
}

/* docs/schemes.md#solver, docs/schemes.md#svi solver defaults. */
void slpi_problem_scheme_defaults(slpi_problem *p)
{
    p->on_cap = SLPI_CAP_FAIL;
    p->fixed_iters = 0;
    p->tol = 1e-15;
    /* ISOMP on Euler-Zeitlin starts each solve from the previous step's correction on top of
     * the Euler predictor (docs/schemes.md#solver: never more iterations in the measured
     * runs, half of them on a weakly noisy one, one fewer without noise) */
    p->warm_start = p->scheme == SLPI_SCHEME_ISOMP && p->system == SLPI_SYS_EULER_ZEITLIN;
    switch (p->scheme) {
    case SLPI_SCHEME_TMK:
        p->maxit = 50;
        if (p->system == SLPI_SYS_SINE_EULER) p->tol = 1e-14;
        break;
    case SLPI_SCHEME_IM_DIRECT:
    case SLPI_SCHEME_TRAP_DIRECT:
    case SLPI_SCHEME_ISOMP:
        p->maxit = 100;
        break;
    case SLPI_SCHEME_SVI:
        p->maxit = 200;
        break;
    default:
        p->maxit = 1;    /* explicit schemes: no solver */
        break;
    }
}

void slpi_problem_init(slpi_problem *p, slpi_system_id s, slpi_scheme_id k)
{
    memset(p, 0, sizeof *p);
    p->system = s;
    p->scheme = k;
    p->T = 0.0;
    p->level = -1;
    p->output_every = 1;
    p->seed = 1;
    p->path = 0;
    p->truncate = SLPI_TRUNC_AUTO;
    p->trunc_ell = 2.0;
    p->isomp_update = SLPI_ISO_UPDATE_COMM;
    p->svi_c = 0.25;
    p->svi_form = SLPI_SVI_FORM_AUTO;
    p->svi_output = SLPI_SVI_OUT_ROTATION;
    p->dexp_order = 0;
    p->solver = SLPI_SOLVER_FIXED_POINT;
    p->prec = 128;
    p->prec_max = 1024;
    p->ref_lohner = SLPI_PROPAGATION_AUTO;
    slpi_problem_system_defaults(p);
    slpi_problem_scheme_defaults(p);
}

int slpi_problem_ic_lmax(const slpi_problem *p)
{
    int top = p->ez.N - 1 < 11 ? p->ez.N - 1 : 11;
    return p->ez.ic_lmax ? p->ez.ic_lmax : top;
}
