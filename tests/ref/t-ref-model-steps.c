/* t-ref-model-steps — the certified model system stepped (ref/model.c,
 * docs/models.md#certified-derivatives): each built-in restated as a model (rigid body ISO
 * form, heavy top RKMK form, Manakov so(4), point vortices (model B, three), Euler-Zeitlin
 * N = 2 with a function of the trace added, which the su(n) projection removes, and the
 * models/ files of Euler-Zeitlin N = 3, 4 and sine-Euler) stepped by every applicable
 * scheme from the same state as the built-in: the certified balls intersect on every
 * component (disjoint balls would prove a bug) and are tight (tests/ref/modelutil.h). */
#include "modelutil.h"

typedef struct {
    const char *name;
    slpi_system_id sys;
    const char *alg, *H;
    int M;
    const char *noise[8];
    const double *x0;
    int n;
    unsigned schemes; /* bit per slpi_scheme_id */
    const char *file; /* the model from models/ (its x0) instead of alg, H, noise */
    int h0_half;      /* the model's H is half the built-in's energy (a Frobenius
                                  H_F = 2h restated in the dot pairing: docs/models.md#equations) */
} twin;

#define ALL_LP                                                                                                         \
    ((1u << SLPI_SCHEME_TMK) | (1u << SLPI_SCHEME_RKMK_LE) | (1u << SLPI_SCHEME_RKMK_HEUN) |                           \
     (1u << SLPI_SCHEME_IM_DIRECT) | (1u << SLPI_SCHEME_TRAP_DIRECT))
#define ALL_MAT (ALL_LP | (1u << SLPI_SCHEME_ISOMP) | (1u << SLPI_SCHEME_SVI))

static void builtin_problem(slpi_problem *p, const twin *t, slpi_scheme_id k)
{
    slpi_problem_init(p, t->sys, k);
    switch (t->sys) {
    case SLPI_SYS_RIGID_BODY:
        p->sys.rb.form = SLPI_RB_FORM_ISO;
        p->sys.rb.inertia[0] = 2;
        p->sys.rb.inertia[1] = 1.5;
        p->sys.rb.inertia[2] = 0.75;
        p->sys.rb.noise = SLPI_RB_NOISE_ISO_QUAD;
        p->sys.rb.amp = 0.375;
        p->sys.rb.h0_scale = 1;
        p->sys.rb.track_R = 0;
        break;
    case SLPI_SYS_HEAVY_TOP:
        p->sys.ht.form = SLPI_HT_FORM_RKMK;
        p->sys.ht.inertia[0] = 2;
        p->sys.ht.inertia[1] = 1.5;
        p->sys.ht.inertia[2] = 0.75;
        p->sys.ht.mga[0] = 0.5;
        p->sys.ht.mga[1] = -0.25;
        p->sys.ht.mga[2] = 1;
        p->sys.ht.potential_printed = 0;
        p->sys.ht.noise = SLPI_HT_NOISE_CASE2_PI2;
        p->sys.ht.k[0] = 0.375;
        break;
    case SLPI_SYS_MANAKOV:
        p->sys.mk.n = 4;
        p->sys.mk.amp = 0.375;
        p->sys.mk.noise = 1;
        break;
    case SLPI_SYS_POINT_VORTICES:
        p->sys.pv.n = 3;
        p->sys.pv.model = SLPI_VORTEX_MODEL_B;
        p->sys.pv.amp = 0.375;
        p->sys.pv.noise = 1;
        break;
    case SLPI_SYS_EULER_ZEITLIN: /* N = 2 without noise, or models/euler-zeitlin-N.slpi's twin */
        p->sys.ez.N = (int)lround(sqrt(t->n));
        p->sys.ez.noise = t->file ? SLPI_EZ_NOISE_Q : SLPI_EZ_NOISE_NONE;
        p->sys.ez.amp = 2;
        break;
    case SLPI_SYS_SINE_EULER: /* models/sine-euler.slpi's twin */
        p->sys.se.N = 3;
        p->sys.se.noise = 1;
        p->sys.se.amp = 0.1;
        break;
    default:
        break;
    }
    if (k == SLPI_SCHEME_SVI) p->sch.svi_form = t->sys == SLPI_SYS_RIGID_BODY ? SLPI_SVI_FORM_SO3 : SLPI_SVI_FORM_LP;
}

static const double x0_rb[3] = { 0.8, -0.45, 0.6 };
static const double x0_ht[6] = { 0.3, -0.7, 0.5, 0.6, 0.2, -0.75 };
static const double x0_mk[6] = { 0.3, -0.2, 0.5, 0.1, -0.4, 0.25 };
static const double x0_pv[9] = { 0.9, 0.1, 0.4, -0.3, 0.8, 0.5, 0.2, -0.6, 0.75 };
static const double x0_ez[4] = { 0.4, -0.4, 0.3, -0.2 };

#define PV_N(i, j) "x" #i "_1*x" #j "_1+x" #i "_2*x" #j "_2+x" #i "_3*x" #j "_3"
#define PV_NORM(i) "sqrt(" PV_N(i, i) ")"
#define PV_LOG(i, j) "log(1-(" PV_N(i, j) ")/(" PV_NORM(i) "*" PV_NORM(j) "))"

static const twin twins[] = {
    { "rigid body",
      SLPI_SYS_RIGID_BODY,
      "so3",
      "(x1^2/2 + x2^2/1.5 + x3^2/0.75)/2",
      3,
      { "amp/2*x1^2", "amp/2*x2^2", "amp/2*x3^2" },
      x0_rb,
      3,
      ALL_MAT,
      NULL,
      1 },
    { "heavy top",
      SLPI_SYS_HEAVY_TOP,
      "se3",
      "pi1^2/(2*2) + pi2^2/(2*1.5) + pi3^2/(2*0.75) + 0.5*gamma1 - 0.25*gamma2 + gamma3",
      1,
      { "amp*(pi1^2 + pi2^2 + pi3^2)" },
      x0_ht,
      6,
      ALL_LP,
      NULL,
      0 },
    { "manakov",
      SLPI_SYS_MANAKOV,
      "so(4)",
      "(X_1_2^2/1 + X_1_3^2/2 + X_1_4^2/3 + X_2_3^2/4 + X_2_4^2/5 + X_3_4^2/6)/2",
      6,
      { "amp/2*X_1_2^2", "amp/2*X_1_3^2", "amp/2*X_1_4^2", "amp/2*X_2_3^2", "amp/2*X_2_4^2", "amp/2*X_3_4^2" },
      x0_mk,
      6,
      ALL_MAT,
      NULL,
      1 },
    { "point vortices",
      SLPI_SYS_POINT_VORTICES,
      "so3^3",
      "-1/(8*pi)*(" PV_LOG(1, 2) "+" PV_LOG(1, 3) "+" PV_LOG(2, 3) ")",
      3,
      { "amp/2*(x1_1^2 + x2_1^2 + x3_1^2)", "amp/2*(x1_2^2 + x2_2^2 + x3_2^2)", "amp/2*(x1_3^2 + x2_3^2 + x3_3^2)" },
      x0_pv,
      9,
      ALL_MAT,
      NULL,
      1 },
    { "euler-zeitlin N=2",
      SLPI_SYS_EULER_ZEITLIN,
      "su(2)",
      "(ImX_0_0 - ImX_1_1)^2/8 + (ReX_0_1^2 + ImX_0_1^2)/2 + 0.3*(ImX_0_0 + ImX_1_1)^2",
      0,
      { NULL },
      x0_ez,
      4,
      ALL_MAT,
      NULL,
      0 },
    /* rkmk-le: the model's sufficient rule refuses noise Q at N = 3 (docs/models.md#schemes) */
    { "euler-zeitlin N=3",
      SLPI_SYS_EULER_ZEITLIN,
      "su(3)",
      NULL,
      0,
      { NULL },
      NULL,
      9,
      ALL_MAT & ~(1u << SLPI_SCHEME_RKMK_LE),
      "models/euler-zeitlin-3.slpi",
      0 },
    { "euler-zeitlin N=4",
      SLPI_SYS_EULER_ZEITLIN,
      "su(4)",
      NULL,
      0,
      { NULL },
      NULL,
      16,
      ALL_MAT & ~(1u << SLPI_SCHEME_RKMK_LE),
      "models/euler-zeitlin-4.slpi",
      0 },
    { "sine-euler N=3",
      SLPI_SYS_SINE_EULER,
      "su(3)",
      NULL,
      0,
      { NULL },
      NULL,
      9,
      ALL_MAT,
      "models/sine-euler.slpi",
      0 },
};

static void check_twin(const twin *t)
{
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
        if (!(t->schemes & (1u << k))) continue;
        slpi_problem pb, pm;
        slpi_ref_system sb, sm;
        slpi_error err;
        builtin_problem(&pb, t, (slpi_scheme_id)k);
        if (t->file) {
            slpi_problem_init(&pm, SLPI_SYS_MODEL, (slpi_scheme_id)k);
            TEST_CHECKF(slpi_problem_load(&pm, t->file, &err) == SLPI_OK, "%s: %s", t->file, err.msg);
        } else {
            model_problem(&pm, (slpi_scheme_id)k, t->alg, t->H, t->M, t->noise);
        }
        const double *x0 = t->file ? pm.sys.x0 : t->x0;
        if (!sys_init(&sb, &pb)) continue;
        if (!sys_init(&sm, &pm)) {
            slpi_ref_system_clear(&sb);
            continue;
        }
        const slpi_ref_scheme *sch = slpi_ref_scheme_get((slpi_scheme_id)k);
        TEST_CHECKF(sb.dim == sm.dim && sb.M == sm.M && sb.n_inv <= sm.n_inv, "%s: shapes differ", t->name);
        int okb = sch->check(&sb, &pb, &err) == SLPI_OK;
        TEST_CHECKF(okb, "%s/%s: built-in check: %s", t->name, slpi_scheme_name(k), err.msg);
        int okm = sch->check(&sm, &pm, &err) == SLPI_OK;
        TEST_CHECKF(okm, "%s/%s: model check: %s", t->name, slpi_scheme_name(k), err.msg);
        if (okb && okm && sb.dim == sm.dim && sb.M == sm.M) {
            int n = sb.dim;
            arb_ptr xb = _arb_vec_init(n), xm = _arb_vec_init(n);
            double delta[1 + SLPI_MODEL_MAX_NOISE]; /* h, then one increment per noise (up to 12 here) */
            TEST_CHECKF(sb.M <= SLPI_MODEL_MAX_NOISE, "%s: %d noises", t->name, sb.M);
            delta[0] = 0.05;
            for (int j = 1; j <= sb.M; j++) delta[j] = test_rand_uniform(-0.2, 0.2);
            for (int i = 0; i < n; i++) {
                arb_set_d(xb + i, x0[i]);
                arb_set_d(xm + i, x0[i]);
            }
            for (int step = 0; step < 2; step++) {
                char wb[200] = "", wm[200] = "";
                slpi_step_status stb = sch->step(&sb, xb, delta, PREC, wb, sizeof wb);
                slpi_step_status stm = sch->step(&sm, xm, delta, PREC, wm, sizeof wm);
                TEST_CHECKF(stb == SLPI_STEP_CONVERGED && stm == SLPI_STEP_CONVERGED,
                            "%s/%s step %d: statuses %d (%s) and %d (%s)", t->name, slpi_scheme_name(k), step, (int)stb,
                            wb, (int)stm, wm);
                /* the step's balls are as wide as the Krawczyk boxes: overlap, finite */
                for (int i = 0; i < n; i++)
                    TEST_CHECKF(arb_is_finite(xm + i) && arb_overlaps(xb + i, xm + i) &&
                                    mag_cmp_2exp_si(arb_radref(xm + i), -60) <= 0,
                                "%s/%s step %d: component %d disjoint or wide", t->name, slpi_scheme_name(k), step, i);
            }
            arb_ptr ib = _arb_vec_init(sb.n_inv), im = _arb_vec_init(sm.n_inv);
            sb.invariants(&sb, ib, xb, PREC);
            sm.invariants(&sm, im, xm, PREC);
            if (t->h0_half) arb_mul_2exp_si(im, im, 1);
            /* each of the built-in's invariants among the model's algebra's, by name (the
             * vocabulary of docs/architecture.md#twin-diagnostics; the model may have more) */
            for (int i = 0; i < sb.n_inv; i++) {
                int j = 0;
                while (j < sm.n_inv && strcmp(sb.inv_name[i], sm.inv_name[j])) j++;
                TEST_CHECKF(j < sm.n_inv && arb_overlaps(ib + i, im + j), "%s/%s: invariant %d (%s) %s", t->name,
                            slpi_scheme_name(k), i, sb.inv_name[i],
                            j < sm.n_inv ? "disjoint" : "not among the model's");
            }
            _arb_vec_clear(ib, sb.n_inv);
            _arb_vec_clear(im, sm.n_inv);
            _arb_vec_clear(xb, n);
            _arb_vec_clear(xm, n);
        }
        /* gen/dgen of every H_k at a random point: tight and overlapping */
        int n = sb.dim, g = sb.gdim;
        if (g == sm.gdim && sb.M == sm.M) {
            arb_ptr mu = _arb_vec_init(n), w = _arb_vec_init(n), bb = _arb_vec_init(g), bm = _arb_vec_init(g);
            for (int i = 0; i < n; i++) {
                arb_set_d(mu + i, x0[i] + test_rand_uniform(-0.1, 0.1));
                arb_set_d(w + i, test_rand_uniform(-1, 1));
            }
            for (int j = 0; j <= sb.M; j++) {
                sb.gen(&sb, j, bb, mu, PREC);
                sm.gen(&sm, j, bm, mu, PREC);
                TEST_CHECKF(agree(bb, bm, g, t->name), "%s: gen %d", t->name, j);
                sb.dgen(&sb, j, bb, mu, w, PREC);
                sm.dgen(&sm, j, bm, mu, w, PREC);
                TEST_CHECKF(agree(bb, bm, g, t->name), "%s: dgen %d", t->name, j);
            }
            _arb_vec_clear(mu, n);
            _arb_vec_clear(w, n);
            _arb_vec_clear(bb, g);
            _arb_vec_clear(bm, g);
        }
        slpi_ref_system_clear(&sb);
        slpi_ref_system_clear(&sm);
    }
}

int main(void)
{
    test_start("t-ref-model-steps", 0x6d6f64656cULL);
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++) check_twin(twins + i);
    TEST_END();
}
