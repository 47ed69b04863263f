/* t-twin-diagnostics.c — the two paths' diagnostics by name (docs/architecture.md#twin-diagnostics):
 * for every system x scheme pair the registry admits (slpi_registry_pair; the model system
 * through every algebra's file in models/), and the forms that add diagnostics (rigid-body
 * svi with track_R, heavy-top svi, Euler-Zeitlin at N = 14 and 17), a state x is taken a few
 * double steps from x0 on the canonical noise, and
 *  - the two paths name the same diagnostics of (x, x0), except the path-only names of the
 *    table below, each with its reason; an exception that no longer occurs fails the test,
 *    so the table cannot go stale;
 *  - every name both give: the certified ball contains the double value, or is within the
 *    budget of it. The budget, fixed from first principles before any comparison was run:
 *    each diagnostic is a sum of at most n^2 terms (n the state's length) of products of
 *    at most 6 state entries (C6 = Tr X^6), or an eigenvalue of such a matrix (LAPACK's
 *    zheev is backward stable, error p(n) u |X|), formed in at most 2n + 10 rounded
 *    operations; so |double - exact| <= (2n + 10) u n^2 m^6 with m = max(1, |x|_inf,
 *    |x0|_inf) (Higham, Accuracy and Stability, eq. (3.5)); a relative departure divides
 *    that by |NAME(x0)| (taken from the certified ball of NAME at x0); theta = acos R_33 is
 *    the square root of its budget (acos is Hoelder-1/2 at +-1).
 * The certified diagnostics evaluated again at step 7 on the same object (x0's invariants
 * kept from the first call where no Hamiltonian reads t) equal a fresh object's there,
 * and so do those from another x0 (x itself).
 * SLPI_TEST_SEED: the noise seed; SLPI_TEST_MULTIPLIER: the number of steps to x. */
#include "core/problem-struct.h"
#include "testutil.h"

#include "core/slpi-flint.h"
#include "slpi.h"

/* Names one path gives and the other does not (docs/architecture.md#twin-diagnostics). */
static const struct {
    const char *system; /* "" any */
    const char *name;
    int fast_only; /* 1: the double path's alone, 0: the certified path's alone */
} path_only[] = {
    { "", "mean_iters", 1 },
    { "", "max_iters", 1 },
    { "", "stagnated", 1 },
    { "", "capped", 1 },
    { "", "failed", 1 },                  /* the double solver's counters */
    { "sine-euler", "real_even_dev", 1 }, /* the Fourier analysis of the double path only */
    { "euler-zeitlin/17", "eig_dev", 1 }, /* no certified spectrum above N = 12 */
    { "euler-zeitlin/14", "eig_dev", 1 },
};

typedef struct {
    int n;
    const char *name[SLPI_MAX_DIAG];
    double value[SLPI_MAX_DIAG];
} named;

static int find(const named *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->name[i], name)) return i;
    return -1;
}

static int excused(const char *label, const char *name, int fast_only, int *used)
{
    for (size_t i = 0; i < sizeof path_only / sizeof path_only[0]; i++)
        if (path_only[i].fast_only == fast_only && !strcmp(path_only[i].name, name) &&
            (!path_only[i].system[0] || !strncmp(label, path_only[i].system, strlen(path_only[i].system)))) {
            used[i] = 1;
            return 1;
        }
    return 0;
}

/* The certified ball named name in d, or NULL. */
static arb_srcptr ball(const slpi_ref_diag *d, const char *name)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->name[i], name)) return d->value + i;
    return NULL;
}

/* 1 if r's diagnostics of (x, x0) at step n equal, ball for ball, those of a fresh object */
static int same_as_fresh(const slpi_problem *p, slpi_ref *r, long n, arb_srcptr x, arb_srcptr x0, const char **bad)
{
    slpi_error err = { 0, "" };
    slpi_ref *f = NULL;
    if (slpi_ref_create(&f, p, &err) != SLPI_OK) {
        *bad = err.msg[0] ? "a fresh object refused" : "?";
        return 0;
    }
    slpi_ref_diag a, b;
    slpi_ref_diag_init(&a);
    slpi_ref_diag_init(&b);
    slpi_ref_set_step_index(r, n);
    slpi_ref_set_step_index(f, 0);
    slpi_ref_diagnostics(f, x0, x0, &b); /* a run's first row, as r's run had */
    slpi_ref_set_step_index(f, n);
    slpi_ref_diagnostics(r, x, x0, &a);
    slpi_ref_diagnostics(f, x, x0, &b);
    int same = a.n == b.n;
    *bad = same ? NULL : "their count";
    for (int i = 0; i < a.n && same; i++)
        if (!arb_equal(a.value + i, b.value + i)) same = 0, *bad = a.name[i];
    slpi_ref_diag_clear(&a);
    slpi_ref_diag_clear(&b);
    slpi_ref_free(f);
    return same;
}

/* The invariants at x0 that slpi_ref_diagnostics keeps between calls (ref/diagnostics.c):
 * r has evaluated the diagnostics of (x, x0); at step 7 (a model reading t sees another
 * time), for x with radii 2^-300 of its size (so evaluated at more bits than the exact x
 * was: x0's must be too), and then from another x0 (x itself), they equal a fresh
 * object's. */
static void check_kept_x0(const char *label, const slpi_problem *p, slpi_ref *r, arb_srcptr bx, arb_srcptr bx0)
{
    const char *bad = NULL;
    int dim = slpi_problem_state_dim(p);
    arb_ptr acc = _arb_vec_init(dim);
    for (int i = 0; i < dim; i++) {
        arb_set(acc + i, bx + i);
        arb_add_error_2exp_si(acc + i, -300);
    }
    TEST_CHECKF(same_as_fresh(p, r, 7, bx, bx0, &bad),
                "%s: the diagnostics at step 7 after x0's were kept differ "
                "from a fresh object's (%s)",
                label, bad);
    TEST_CHECKF(same_as_fresh(p, r, 7, acc, bx0, &bad),
                "%s: the diagnostics of a state at 2^-300 after x0's were kept differ "
                "from a fresh object's (%s)",
                label, bad);
    _arb_vec_clear(acc, dim);
    TEST_CHECKF(same_as_fresh(p, r, 7, bx, bx, &bad),
                "%s: the diagnostics from another x0 differ from a fresh "
                "object's (%s)",
                label, bad);
}

static void compare(const char *label, const slpi_problem *p, int nsteps, int *used)
{
    slpi_error err = { 0, "" };
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    int rc = slpi_fast_create(&f, p, &err);
    if (rc == SLPI_OK) rc = slpi_ref_create(&r, p, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: %s", label, err.msg);
    if (rc != SLPI_OK) {
        slpi_fast_free(f);
        return;
    }
    int dim = slpi_problem_state_dim(p), M = slpi_problem_noise_count(p);
    double *x0 = calloc((size_t)dim, sizeof *x0), *x = calloc((size_t)dim, sizeof *x),
           *dw = calloc((size_t)M + 1, sizeof *dw);
    TEST_CHECKF(slpi_fast_initial_state(f, x0, &err) == SLPI_OK, "%s: %s", label, err.msg);
    memcpy(x, x0, (size_t)dim * sizeof *x);
    for (int n = 0; n < nsteps; n++) {
        for (int k = 0; k < M; k++)
            slpi_noise_increments(p->noise.seed, 0, (uint32_t)k, p->grid.h, 0, (uint64_t)n, 1, dw + k, NULL);
        slpi_step_info info;
        TEST_CHECKF(!slpi_step_failed(slpi_fast_step(f, x, dw, &info)), "%s: step %d failed", label, n);
    }
    named fd = { 0 };
    slpi_diag d = { 0 };
    slpi_fast_diagnostics(f, x, x0, &d);
    fd.n = d.n;
    for (int i = 0; i < d.n; i++) {
        fd.name[i] = d.name[i];
        fd.value[i] = d.value[i];
    }
    arb_ptr bx = _arb_vec_init(dim), bx0 = _arb_vec_init(dim);
    double m = 1;
    for (int i = 0; i < dim; i++) {
        arb_set_d(bx + i, x[i]);
        arb_set_d(bx0 + i, x0[i]);
        m = fmax(m, fmax(fabs(x[i]), fabs(x0[i])));
    }
    slpi_ref_diag rd, r0;
    slpi_ref_diag_init(&rd);
    slpi_ref_diag_init(&r0);
    slpi_ref_set_step_index(r, nsteps); /* the double path's time after its steps (a model reading t) */
    slpi_ref_diagnostics(r, bx, bx0, &rd);
    slpi_ref_diagnostics(r, bx0, NULL, &r0); /* each invariant at x0 */
    for (int i = 0; i < rd.n; i++)
        TEST_CHECKF(find(&fd, rd.name[i]) >= 0 || excused(label, rd.name[i], 0, used),
                    "%s: the certified path names '%s', the double path does not", label, rd.name[i]);
    double u = 0x1p-53, base = (2.0 * dim + 10) * u * (double)dim * dim * pow(m, 6);
    for (int i = 0; i < fd.n; i++) {
        arb_srcptr b = ball(&rd, fd.name[i]);
        if (!b) {
            TEST_CHECKF(excused(label, fd.name[i], 1, used),
                        "%s: the double path names '%s', the certified path does not", label, fd.name[i]);
            continue;
        }
        double budget = base;
        const char *rel = strstr(fd.name[i], "_rel_dev");
        if (rel) {
            char inv[64];
            snprintf(inv, sizeof inv, "%.*s", (int)(rel - fd.name[i]), fd.name[i]);
            arb_srcptr b0 = ball(&r0, inv);
            double v0 = b0 ? fabs(arf_get_d(arb_midref(b0), ARF_RND_NEAR)) : 0;
            if (v0 > 0) budget = base / v0;
        }
        if (!strcmp(fd.name[i], "theta")) budget = sqrt(base);
        double v = fd.value[i], mid = arf_get_d(arb_midref(b), ARF_RND_NEAR), rad = mag_get_d(arb_radref(b));
        arb_t t;
        arb_init(t);
        arb_set_d(t, v);
        int in = arb_contains(b, t);
        arb_clear(t);
        double gap = fabs(v - mid) - rad;
        TEST_CHECKF(isfinite(v) && (in || gap <= budget),
                    "%s: %s: double %.17g, certified %.17g +- %.3g: %.3g outside, budget %.3g", label, fd.name[i], v,
                    mid, rad, gap, budget);
    }
    check_kept_x0(label, p, r, bx, bx0);
    slpi_ref_diag_clear(&rd);
    slpi_ref_diag_clear(&r0);
    _arb_vec_clear(bx, dim);
    _arb_vec_clear(bx0, dim);
    free(x0);
    free(x);
    free(dw);
    slpi_fast_free(f);
    slpi_ref_free(r);
}

/* A problem of system s and scheme k with keys (NULL-terminated pairs), or of a model file. */
static int make(slpi_problem *p, slpi_system_id s, slpi_scheme_id k, const char *config, const char *const *kv)
{
    slpi_error err = { 0, "" };
    slpi_problem_init(p, s, k);
    char *keys[8] = { "system", "scheme" }, *values[8] = { (char *)slpi_system_name(s), (char *)slpi_scheme_name(k) };
    int n = 2;
    for (; kv && kv[2 * (n - 2)]; n++) {
        keys[n] = (char *)kv[2 * (n - 2)];
        values[n] = (char *)kv[2 * (n - 2) + 1];
    }
    int rc = slpi_problem_build(p, NULL, config, n, keys, values, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(p, &err);
    if (rc != SLPI_OK)
        fprintf(stderr, "t-twin-diagnostics: %s %s: %s\n", slpi_system_name(s), config ? config : "", err.msg);
    return rc;
}

int main(void)
{
    test_start("t-twin-diagnostics", 1);
    uint64_t seed = test_rng_state_;
    int nsteps = (int)(3 * test_iters(1)), used[sizeof path_only / sizeof path_only[0]] = { 0 };
    static const char *const models[] = { "models/rigid-body.slpi",      "models/heavy-top.slpi",
                                          "models/manakov.slpi",         "models/point-vortices.slpi",
                                          "models/euler-zeitlin-3.slpi", "models/rigid-body-time.slpi" };
    int pairs = 0;
    for (int s = 0; s < SLPI_SYS_COUNT; s++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            if (slpi_registry_pair((slpi_system_id)s, (slpi_scheme_id)k, NULL) == SLPI_NA) continue;
            for (size_t j = 0; j < (s == SLPI_SYS_MODEL ? sizeof models / sizeof models[0] : 1); j++) {
                slpi_problem p;
                if (make(&p, (slpi_system_id)s, (slpi_scheme_id)k, s == SLPI_SYS_MODEL ? models[j] : NULL, NULL) !=
                    SLPI_OK)
                    continue; /* a model file whose algebra the scheme does not take */
                p.noise.seed = seed;
                char label[128];
                snprintf(label, sizeof label, "%s/%s%s%s", slpi_system_name((slpi_system_id)s),
                         slpi_scheme_name((slpi_scheme_id)k), s == SLPI_SYS_MODEL ? " " : "",
                         s == SLPI_SYS_MODEL ? models[j] : "");
                compare(label, &p, nsteps, used);
                pairs++;
            }
        }
    /* the forms and sizes that add diagnostics */
    static const struct {
        slpi_system_id s;
        slpi_scheme_id k;
        const char *label;
        const char *kv[7];
    } extra[] = {
        { SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI, "rigid-body/svi track_R", { "form", "svi", "track_R", "1", NULL } },
        { SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI, "heavy-top/svi form=svi", { "form", "svi", NULL } },
        { SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP, "euler-zeitlin/14 isomp", { "N", "14", NULL } },
        { SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP, "euler-zeitlin/17 isomp", { "N", "17", NULL } },
    };
    for (size_t j = 0; j < sizeof extra / sizeof extra[0]; j++) {
        slpi_problem p;
        if (make(&p, extra[j].s, extra[j].k, NULL, extra[j].kv) != SLPI_OK) {
            TEST_CHECKF(0, "%s: no problem", extra[j].label);
            continue;
        }
        p.noise.seed = seed;
        compare(extra[j].label, &p, nsteps, used);
        pairs++;
    }
    for (size_t i = 0; i < sizeof path_only / sizeof path_only[0]; i++)
        TEST_CHECKF(used[i], "the path-only name %s%s%s no longer occurs: remove it from the table and the docs",
                    path_only[i].system, path_only[i].system[0] ? " " : "", path_only[i].name);
    printf("t-twin-diagnostics: %d problems compared by name\n", pairs);
    TEST_END();
}
