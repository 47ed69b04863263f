/* t-props-cases.c — the property engine's cases (props/cases.c, props/replay.c,
 * props/generate.c, props/invariants.c): replay strings round-trip and reject bad input;
 * generators give valid problems and reach their corner cases; a saved failure replays;
 * increments are reproducible, zero beyond `noises` and truncated; invariants computed two
 * ways (Casimirs from the packed state vs closed forms, Poisson tensors annihilate Casimir
 * gradients). The engine's own checks are t-props.c. */
#include <float.h>

#include "propsutil.h"

static slpi_props_case random_case(int prop)
{
    slpi_props_case c;
    for (;;) {
        memset(&c, 0, sizeof c);
        c.prop = prop;
        c.system = (slpi_system_id)test_rand_int(SLPI_SYS_COUNT);
        c.scheme = (slpi_scheme_id)test_rand_int(SLPI_SCHEME_COUNT);
        c.dim = slpi_props_dim_min(c.system) +
            (int)test_rand_int(slpi_props_dim_max(c.system) - slpi_props_dim_min(c.system) + 1);
        if (c.system == SLPI_SYS_SINE_EULER) c.dim = 3;
        c.steps = 1 + test_rand_int(8);
        c.h = ldexp(1.0, -(int)test_rand_int(20));
        if (c.h >= 1) c.h = 0.5;
        c.mag = test_rand_uniform(0.01, 3);
        c.amp = test_rand_uniform(0, 1);
        c.inertia = (int)test_rand_int(5);
        c.state = (int)test_rand_int(3);
        c.variant = c.scheme == SLPI_SCHEME_ISOMP ? (int)test_rand_int(2) : 0;
        c.seed = test_rand_u64();
        c.noises = 0;
        slpi_problem p;
        slpi_error err;
        if (slpi_props_problem(&c, &p, &err) == SLPI_OK) break; /* N/A pairs: draw again */
    }
    c.noises = (int)test_rand_int(slpi_props_noise_count(&c) + 1);
    return c;
}

/* The corner corpus (slpi props --corners; make check-long): the largest size, both
 * parities where a system has them, near-singular inertia at a small step, states near
 * the rigid body's middle axis, near e_3 (the rigid body, the heavy top sleeping upright,
 * a vortex at the pole) and a large amplitude; every corner is a valid problem and
 * survives a replay string. */
static void check_corners(void)
{
    int prop = slpi_props_property_find("reversible");
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        int parities = 0, n = 0;
        for (int i = 0;; i++, n++) {
            slpi_props_case c, d = { 0 };
            slpi_problem p;
            slpi_error err;
            char a[512];
            slpi_props_generate(&c, prop, (slpi_system_id)s, SLPI_SCHEME_TMK, 0, test_rand_u64());
            if (!slpi_props_corner(&c, i)) break;
            TEST_CHECKF(slpi_props_problem(&c, &p, &err) == SLPI_OK, "%s corner %d: %s", slpi_system_name(s), i,
                        err.msg);
            slpi_props_case_format(&c, a, sizeof a);
            d.seed = c.seed;
            TEST_CHECKF(slpi_props_case_parse(a, &d, &err) == SLPI_OK && d.state == c.state, "corner replay '%s'", a);
            if (i == 0)
                TEST_CHECKF(c.dim == slpi_props_dim_max(s), "%s: corner 0 has dim %d", slpi_system_name(s), c.dim);
            if (i < 3) parities |= 1 << (c.dim % 2);
            if (i == 3 && (s == SLPI_SYS_RIGID_BODY || s == SLPI_SYS_HEAVY_TOP)) {
                const double *I = s == SLPI_SYS_RIGID_BODY ? p.sys.rb.inertia : p.sys.ht.inertia;
                TEST_CHECKF(I[0] == 1e-2 && I[1] == 1 && I[2] == 2 && c.h <= 0x1p-10,
                            "near-singular inertia %g %g %g h %g", I[0], I[1], I[2], c.h);
            }
            if (i == 6) TEST_CHECK(c.amp == 4 && c.noises == slpi_props_noise_count(&c));
            if (i != 4 && i != 5) continue;
            double m = c.mag, e[3] = { 0, 0, 0 };
            if (s == SLPI_SYS_RIGID_BODY) {
                const double *I = p.sys.rb.inertia;
                int mid = i == 5                         ? 2
                    : (I[0] - I[1]) * (I[0] - I[2]) <= 0 ? 0
                    : (I[1] - I[0]) * (I[1] - I[2]) <= 0 ? 1
                                                         : 2;
                e[mid] = m;
                TEST_CHECKF(slpi_vec_maxdiff(p.sys.x0, e, 3) <= 1e-5 * m, "rigid body corner %d: x0 %g %g %g (axis %d)",
                            i, p.sys.x0[0], p.sys.x0[1], p.sys.x0[2], mid);
            }
            if (i == 5 && (s == SLPI_SYS_POINT_VORTICES || s == SLPI_SYS_HEAVY_TOP)) {
                double up[3] = { 0, 0, s == SLPI_SYS_POINT_VORTICES ? m : 1 };
                TEST_CHECKF(slpi_vec_maxdiff(p.sys.x0 + (s == SLPI_SYS_HEAVY_TOP ? 3 : 0), up, 3) <= 1e-5 * up[2],
                            "%s pole corner: %g %g %g", slpi_system_name(s), p.sys.x0[0], p.sys.x0[1], p.sys.x0[2]);
            }
        }
        TEST_CHECKF(n == 7, "%d corners", n);
        if (s == SLPI_SYS_MANAKOV || s == SLPI_SYS_POINT_VORTICES || s == SLPI_SYS_EULER_ZEITLIN)
            TEST_CHECKF(parities == 3, "%s: corners of one parity only", slpi_system_name(s));
    }
}

static void check_replay_strings(void)
{
    for (long t = 0; t < test_iters(200); t++) {
        slpi_props_case c = random_case((int)test_rand_int(slpi_props_property_count())), d = { 0 };
        char a[512], b[512];
        slpi_error err;
        slpi_props_case_format(&c, a, sizeof a);
        d.seed = c.seed;
        TEST_CHECKF(slpi_props_case_parse(a, &d, &err) == SLPI_OK, "parse '%s': %s", a, err.msg);
        slpi_props_case_format(&d, b, sizeof b);
        TEST_CHECKF(strcmp(a, b) == 0, "round trip '%s' -> '%s'", a, b);
        TEST_CHECK(d.h == c.h && d.mag == c.mag && d.amp == c.amp);
    }
    static const char *const bad[][2] = {
        { "property=nope,system=rigid-body,scheme=isomp,dim=3,steps=1,h=0.1,mag=1", "unknown property" },
        { "property=casimir,system=rigid-body,scheme=isomp,dim=3,steps=1,h=abc,mag=1", "not a number" },
        { "property=casimir,system=rigid-body,dim=3,steps=1,h=0.1,mag=1", "required" },
        { "property=casimir,system=heavy-top,scheme=isomp,dim=3,steps=1,h=0.1,mag=1", "not applicable" },
        { "property=casimir,system=manakov,scheme=isomp,dim=40,steps=1,h=0.1,mag=1", "out of range" },
        { "property=casimir,system=rigid-body,scheme=isomp,dim=3,steps=0,h=0.1,mag=1", "steps >= 1" },
        { "property=casimir,colour=red", "unknown key" },
        { "property=casimir,system", "key=value" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        slpi_props_case c = { 0 };
        slpi_error err = { 0, "" };
        TEST_CHECKF(slpi_props_case_parse(bad[i][0], &c, &err) == SLPI_EINPUT && strstr(err.msg, bad[i][1]),
                    "'%s' gave '%s', expected '%s'", bad[i][0], err.msg, bad[i][1]);
    }
}

/* Every applicable pair gets valid problems, and the biased draws reach the corners. */
static void check_generators(void)
{
    int dim_lo = 0, dim_hi = 0, one_step = 0, tiny_h = 0, big_h = 0, repeated = 0, degenerate = 0, quiet = 0;
    for (long t = 0; t < test_iters(300); t++) {
        slpi_props_case c = random_case(0);
        slpi_problem p;
        slpi_error err;
        TEST_CHECKF(slpi_props_problem(&c, &p, &err) == SLPI_OK, "%s", err.msg);
        int d = slpi_problem_state_dim(&p), finite = 1;
        for (int i = 0; i < d; i++) finite &= isfinite(p.sys.x0[i]);
        TEST_CHECK(finite && p.sys.n_x0 == d);
        if (c.system == SLPI_SYS_RIGID_BODY && c.inertia == 1) TEST_CHECK(p.sys.rb.inertia[0] == p.sys.rb.inertia[1]);
        if (c.system == SLPI_SYS_RIGID_BODY && c.inertia == 2)
            TEST_CHECK(p.sys.rb.inertia[0] != p.sys.rb.inertia[1] &&
                       fabs(p.sys.rb.inertia[1] / p.sys.rb.inertia[0] - 1) < 2e-9);
        if (c.system == SLPI_SYS_EULER_ZEITLIN) {
            double tr = 0;
            for (int a = 0; a < c.dim; a++) tr += p.sys.x0[a];
            TEST_CHECKF(fabs(tr) < 1e-14, "su(N) initial trace %g", tr);
        }
        /* the case's noise amplitude reaches the problem (the heavy top's goes to alpha or k) */
        double amp = c.system == SLPI_SYS_RIGID_BODY ? p.sys.rb.amp
            : c.system == SLPI_SYS_MANAKOV           ? p.sys.mk.amp
            : c.system == SLPI_SYS_POINT_VORTICES    ? p.sys.pv.amp
            : c.system == SLPI_SYS_EULER_ZEITLIN     ? p.sys.ez.amp
            : c.system == SLPI_SYS_SINE_EULER        ? p.sys.se.amp
                                                     : c.amp;
        TEST_CHECKF(amp == c.amp, "%s: case amp %.17g, problem amp %.17g", slpi_system_name(c.system), c.amp, amp);
    }
    /* the engine's own draws: run the harness generator through the case it reports */
    slpi_props_options o = { slpi_props_property_find("casimir"),
                             SLPI_SYS_RIGID_BODY,
                             SLPI_SCHEME_ISOMP,
                             40,
                             7,
                             0,
                             0,
                             NULL,
                             0,
                             NULL,
                             NULL,
                             1,
                             0 };
    FILE *sink = tmpfile();
    o.out = sink;
    slpi_props_summary s;
    TEST_CHECK(slpi_props_run(&o, &s) == SLPI_OK && s.pass > 0 && s.fail == 0);
    fclose(sink);
    for (long t = 0; t < test_iters(400); t++) {
        slpi_props_case c;
        slpi_props_generate(&c, slpi_props_property_find("casimir"), SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP, 0,
                            test_rand_u64());
        dim_lo += c.dim == slpi_props_dim_min(c.system);
        dim_hi += c.dim == slpi_props_dim_max(c.system);
        one_step += c.steps == 1;
        tiny_h += c.h < 1e-5;
        big_h += c.h > 0.2;
        repeated += c.inertia == 1;
        degenerate += c.inertia == 2;
        quiet += c.noises == 0;
    }
    TEST_CHECK(dim_lo && dim_hi && one_step && tiny_h && big_h && repeated && degenerate && quiet);
    /* point vortices: states of size >= 1/2 only (their rates scale like 1/|x|^2), in the
     * draws, the corners and the shrinker's steps alike (props/README.md#cases) */
    int small = 0;
    for (long t = 0; t < test_iters(200); t++) {
        slpi_props_case c;
        slpi_props_generate(&c, slpi_props_property_find("casimir"), SLPI_SYS_POINT_VORTICES, SLPI_SCHEME_ISOMP, 0,
                            test_rand_u64());
        small += c.mag < 0.5;
    }
    TEST_CHECKF(small == 0, "%d vortex cases of size below 1/2", small);
}

/* A failure saved to a folder: property-system-scheme-seed.case, which loads back as the
 * case reported. */
static void check_saved_failure(void)
{
    char dir[] = "/tmp/slpi-t-props-XXXXXX", path[512], a[512], b[512];
    TEST_CHECK(mkdtemp(dir) != NULL);
    slpi_props_case c, d;
    slpi_props_outcome o = { 0, 2.5, "made up by t-props" };
    slpi_error err = { 0, "" };
    slpi_props_generate(&c, slpi_props_property_find("energy"), SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP, 0, 4242);
    FILE *sink = tmpfile();
    slpi_props_report_failure(sink, &c, &o, 1, dir);
    fclose(sink);
    snprintf(path, sizeof path, "%s/energy-manakov-isomp-4242.case", dir);
    TEST_CHECKF(slpi_props_regression_load(path, &d, &err) == SLPI_OK, "%s", err.msg);
    slpi_props_case_format(&c, a, sizeof a);
    slpi_props_case_format(&d, b, sizeof b);
    TEST_CHECKF(strcmp(a, b) == 0 && d.seed == c.seed, "saved '%s' loaded as '%s'", a, b);
    remove(path);
    TEST_CHECK(rmdir(dir) == 0);
}

static void check_increments(void)
{
    for (long t = 0; t < test_iters(100); t++) {
        slpi_props_case c = random_case(0);
        slpi_problem p;
        slpi_error err;
        int M = slpi_props_noise_count(&c);
        if (M == 0 || slpi_props_problem(&c, &p, &err) != SLPI_OK) continue;
        /* the canonical noise of (seed, path 0) at h, clipped by the papers' rule */
        double a[4096], b[4096], D = c.h < 1 ? slpi_noise_threshold(c.h, 2.0) : INFINITY;
        long n = test_rand_int(100);
        slpi_props_increments(&c, &p, n, a);
        slpi_props_increments(&c, &p, n, b);
        TEST_CHECK(memcmp(a, b, (size_t)M * sizeof *a) == 0);
        for (int k = 0; k < M; k++) {
            double z;
            slpi_noise_increments(c.seed, 0, (uint32_t)k, c.h, 0, (uint64_t)n, 1, &z, NULL);
            z = fmin(fmax(z, -D), D);
            TEST_CHECK(fabs(a[k]) <= D);
            TEST_CHECK(k >= c.noises ? a[k] == 0 : a[k] == z);
        }
        slpi_props_increments(&c, &p, n + 1, b);
        int inside = 0; /* two steps may both be clipped to the same +-D (h near 1/2) */
        for (int k = 0; k < M && k < c.noises; k++) inside |= fabs(a[k]) < D || fabs(b[k]) < D;
        TEST_CHECK(!inside || memcmp(a, b, (size_t)M * sizeof *a) != 0);
    }
}

/* Casimirs two ways, and J(x) grad C(x) = 0 with grad C by central differences. */
static void check_invariants(void)
{
    for (long t = 0; t < test_iters(100); t++) {
        slpi_props_case c = random_case(0);
        slpi_problem p;
        slpi_error err;
        slpi_props_problem(&c, &p, &err);
        int d = slpi_problem_state_dim(&p);
        slpi_props_casimirs k;
        slpi_props_casimir_values(&p, p.sys.x0, &k);
        TEST_CHECK(k.n > 0);
        double s2 = 0;
        for (int i = 0; i < d; i++) s2 += p.sys.x0[i] * p.sys.x0[i];
        if (c.system == SLPI_SYS_MANAKOV) /* Tr X^2 = -2 sum_{i<j} X_ij^2 */
            TEST_CHECKF(fabs(k.value[0] + 2 * s2) <= 8 * DBL_EPSILON * s2, "Tr X^2 %g vs %g", k.value[0], -2 * s2);
        if (c.system == SLPI_SYS_EULER_ZEITLIN || c.system == SLPI_SYS_SINE_EULER) {
            double f2 = 0; /* |X|_F^2 = sum Im X_aa^2 + 2 sum_{a<b} |X_ab|^2 */
            for (int i = 0; i < d; i++) f2 += (i < c.dim ? 1 : 2) * p.sys.x0[i] * p.sys.x0[i];
            TEST_CHECKF(fabs(k.value[0] + f2) <= 32 * DBL_EPSILON * f2, "Tr X^2 %g vs -|X|^2 %g", k.value[0], -f2);
        }
        double J[36 * 36];
        int m = slpi_props_poisson_tensor(&p, p.sys.x0, J);
        for (int a = 0; a < m; a++)
            for (int b = 0; b < m; b++) TEST_CHECK(J[a * m + b] == -J[b * m + a]);
        for (int ci = 0; ci < k.n && m > 0; ci++) {
            double g[64], x[SLPI_MAX_X0], e = 1e-6 * fmax(1, slpi_vec_maxabs(p.sys.x0, m));
            for (int j = 0; j < m; j++) {
                slpi_props_casimirs kp, km;
                memcpy(x, p.sys.x0, sizeof x);
                x[j] += e;
                slpi_props_casimir_values(&p, x, &kp);
                x[j] -= 2 * e;
                slpi_props_casimir_values(&p, x, &km);
                g[j] = (kp.value[ci] - km.value[ci]) / (2 * e);
            }
            double r = 0, sc = 1e-300;
            for (int a = 0; a < m; a++) {
                double s = 0;
                for (int b = 0; b < m; b++) s += J[a * m + b] * g[b];
                r = fmax(r, fabs(s));
                sc = fmax(sc, fabs(g[a]) * slpi_vec_maxabs(p.sys.x0, m));
            }
            TEST_CHECKF(r <= 1e-6 * sc, "%s: J grad %s = %g (scale %g)", slpi_system_name(c.system), k.name[ci], r, sc);
        }
    }
}

/* A synthetic property that fails iff steps >= 3, dim >= 4 and some noise is on. */
int main(void)
{
    test_start("t-props-cases", 20261126);
    props_test_model();
    check_replay_strings();
    check_corners();
    check_generators();
    check_saved_failure();
    check_increments();
    check_invariants();
    TEST_END();
}
