/* problem.c — the problem model's defaults: the papers' parameters of each system and form
 * (docs/systems.md, docs/experiments.md) and each scheme's solver defaults, set by
 * slpi_problem_init and reset by the keys system, scheme and form (core/problem-keys.c).
 * The other concerns of a problem each have a file of their own: its keys (the one key
 * table, parsing, presets, writing: core/problem-keys.c), validation and finishing
 * (core/problem-validate.c), the consistency rule of stochastic Lie-Euler
 * (core/lie-euler.c), its shape (state layout, noises, truncation: core/problem-shape.c)
 * and its initial state (core/initial-state.c). */
#include <string.h>

#include "slpi/registry-ids.h"
#include "slpi/problem-build.h"
#include "core/problem-struct.h"
#include "core/problem.h"

static void rigid_body_form_defaults(slpi_problem *p, slpi_rb_form form)
{
    p->sys.rb.form = form;
    p->sys.rb.h0_scale = 1.0;
    p->sys.rb.track_R = 0;
    if (form == SLPI_RB_FORM_ISO) { /* ISO §6.1, eqs. (33)-(35) */
        p->sys.rb.inertia[0] = 2.0;
        p->sys.rb.inertia[1] = 1.0;
        p->sys.rb.inertia[2] = 2.0 / 3.0;
        p->sys.rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        p->sys.rb.amp = 0.1;
        p->grid.h = 0x1p-8;
        p->grid.steps = 1000;
    } else { /* SVI §7.1, eq. (53) */
        p->sys.rb.inertia[0] = 1.0;
        p->sys.rb.inertia[1] = 2.0;
        p->sys.rb.inertia[2] = 3.0;
        p->sys.rb.noise = SLPI_RB_NOISE_SVI_LIN;
        p->sys.rb.amp = 0.02;
        p->grid.h = 0.01;
        p->grid.steps = 5000;
    }
}

static void heavy_top_form_defaults(slpi_problem *p, slpi_ht_form form)
{
    p->sys.ht.form = form;
    p->sys.ht.potential_printed = 0;
    p->sys.ht.exp_form = 0;
    p->sys.ht.alpha[0] = 0.01;
    p->sys.ht.alpha[1] = 0.02;
    p->sys.ht.alpha[2] = 0.03;
    p->sys.ht.k[0] = 0.1;
    p->sys.ht.k[1] = 0.1;
    p->sys.ht.mg = 0.98;
    p->grid.h = 0.01;
    if (form == SLPI_HT_FORM_RKMK) { /* RKMK §5, eqs. (42)-(45) */
        p->sys.ht.inertia[0] = 4.0;
        p->sys.ht.inertia[1] = 2.0;
        p->sys.ht.inertia[2] = 1.0;
        p->sys.ht.mga[0] = 0.0;
        p->sys.ht.mga[1] = 0.0;
        p->sys.ht.mga[2] = 1.0;
        p->sys.ht.noise = SLPI_HT_NOISE_SALT;
        p->sys.ht.theta0 = 0.0;
        p->sys.ht.pi0[0] = p->sys.ht.pi0[1] = p->sys.ht.pi0[2] = 0.0;
        p->grid.steps = 10000;
    } else { /* SVI §8.3, the gyroscope */
        p->sys.ht.inertia[0] = 0.1;
        p->sys.ht.inertia[1] = 0.1;
        p->sys.ht.inertia[2] = 1.0;
        p->sys.ht.mga[0] = 0.0;
        p->sys.ht.mga[1] = 0.0;
        p->sys.ht.mga[2] = 0.98;
        p->sys.ht.noise = SLPI_HT_NOISE_NONE;
        p->sys.ht.theta0 = 0.15 * 3.14159265358979323846;
        p->sys.ht.pi0[0] = 0.0;
        p->sys.ht.pi0[1] = 0.0;
        p->sys.ht.pi0[2] = 1.0;
        p->grid.steps = 2000;
    }
}

void slpi_problem_form_defaults(slpi_problem *p, int form)
{
    if (p->sys.system == SLPI_SYS_RIGID_BODY)
        rigid_body_form_defaults(p, (slpi_rb_form)form);
    else
        heavy_top_form_defaults(p, (slpi_ht_form)form);
}

void slpi_problem_system_defaults(slpi_problem *p)
{
    switch (p->sys.system) {
    case SLPI_SYS_RIGID_BODY:
        rigid_body_form_defaults(p, p->sch.scheme == SLPI_SCHEME_SVI ? SLPI_RB_FORM_SVI : SLPI_RB_FORM_ISO);
        break;
    case SLPI_SYS_HEAVY_TOP:
        heavy_top_form_defaults(p, p->sch.scheme == SLPI_SCHEME_SVI ? SLPI_HT_FORM_SVI : SLPI_HT_FORM_RKMK);
        break;
    case SLPI_SYS_MANAKOV: /* ISO §6.2 */
        p->sys.mk.n = 10;
        p->sys.mk.amp = 0.1;
        p->sys.mk.noise = 1;
        p->grid.h = 0x1p-8;
        p->grid.steps = 1000;
        break;
    case SLPI_SYS_POINT_VORTICES: /* ISO §6.3 */
        p->sys.pv.n = 4;
        p->sys.pv.model = SLPI_VORTEX_MODEL_A;
        p->sys.pv.amp = 0.1;
        p->sys.pv.noise = 1;
        p->grid.h = 0x1p-8;
        p->grid.steps = 1000;
        break;
    case SLPI_SYS_EULER_ZEITLIN: /* ISO §6.4, strong-test size */
        p->sys.ez.N = 12;
        p->sys.ez.noise = SLPI_EZ_NOISE_Q;
        p->sys.ez.amp = 2.0;
        p->sys.ez.ic_lmax = 0;
        p->sys.ez.scale = 1.0; /* 0: min(11, N-1), slpi_problem_ic_lmax */
        p->grid.h = 0x1p-8;
        p->grid.steps = 100;
        break;
    case SLPI_SYS_SINE_EULER: /* RKMK §6 */
        p->sys.se.N = 3;
        p->sys.se.amp = 0.1;
        p->sys.se.noise = 1;
        p->sys.se.ic = SLPI_SE_IC_CANONICAL;
        p->sys.se.ic_seed = 1;
        p->grid.h = 0.5;
        p->grid.steps = 2000;
        break;
    case SLPI_SYS_MODEL: /* the ISO grid (docs/models.md) */
        p->grid.h = 0x1p-8;
        p->grid.steps = 1000;
        break;
    default:
        break;
    }
}

/* docs/schemes.md#solver, docs/schemes.md#svi solver defaults. */
void slpi_problem_scheme_defaults(slpi_problem *p)
{
    p->sol.on_cap = SLPI_CAP_FAIL;
    p->sol.fixed_iters = 0;
    p->sol.tol = 1e-15;
    /* ISOMP on Euler-Zeitlin starts each solve from the previous step's correction on top of
     * the Euler predictor (docs/schemes.md#solver: never more iterations in the measured
     * runs, half of them on a weakly noisy one, one fewer without noise) */
    p->sch.warm_start = p->sch.scheme == SLPI_SCHEME_ISOMP && p->sys.system == SLPI_SYS_EULER_ZEITLIN;
    switch (p->sch.scheme) {
    case SLPI_SCHEME_TMK:
        p->sol.maxit = 50;
        if (p->sys.system == SLPI_SYS_SINE_EULER) p->sol.tol = 1e-14;
        break;
    case SLPI_SCHEME_IM_DIRECT:
    case SLPI_SCHEME_TRAP_DIRECT:
    case SLPI_SCHEME_ISOMP:
        p->sol.maxit = 100;
        break;
    case SLPI_SCHEME_SVI:
        p->sol.maxit = 200;
        break;
    default:
        p->sol.maxit = 1; /* explicit schemes: no solver */
        break;
    }
}

void slpi_problem_init(slpi_problem *p, slpi_system_id s, slpi_scheme_id k)
{
    memset(p, 0, sizeof *p);
    p->sys.system = s;
    p->sch.scheme = k;
    p->grid.T = 0.0;
    p->grid.level = -1;
    p->grid.output_every = 1;
    p->noise.seed = 1;
    p->noise.path = 0;
    p->noise.truncate = SLPI_TRUNC_AUTO;
    p->noise.trunc_ell = 2.0;
    p->sch.isomp_update = SLPI_ISO_UPDATE_COMM;
    p->sch.svi_c = 0.25;
    p->sch.svi_form = SLPI_SVI_FORM_AUTO;
    p->sch.svi_output = SLPI_SVI_OUT_ROTATION;
    p->sch.dexp_order = 0;
    p->sol.solver = SLPI_SOLVER_FIXED_POINT;
    p->cert.prec = 128;
    p->cert.prec_max = 1024;
    p->cert.ref_lohner = SLPI_PROPAGATION_AUTO;
    slpi_problem_system_defaults(p);
    slpi_problem_scheme_defaults(p);
}

int slpi_problem_ic_lmax(const slpi_problem *p)
{
    int top = p->sys.ez.N - 1 < 11 ? p->sys.ez.N - 1 : 11;
    return p->sys.ez.ic_lmax ? p->sys.ez.ic_lmax : top;
}
