/* t-problem.c — problem specs: the papers' defaults, good and bad key=value inputs (each
 * a clear error naming the key or value, code SLPI_EINPUT; 64-bit keys in decimal or 0x hex,
 * nothing else), key files with file:line,
 * the T/level/h resolution (never rounding the step count), and a write/load round trip
 * that reproduces every field bit for bit (randomized over keys). */
#include <math.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "core/problem.h"
#include "core/expr.h"
#include "testutil.h"

static int set_fails(slpi_problem *p, const char *k, const char *v, const char *must_contain)
{
    slpi_error err = { 0, "" };
    int rc = slpi_problem_set(p, k, v, &err);
    if (rc != SLPI_EINPUT || !strstr(err.msg, must_contain)) {
        fprintf(stderr, "  %s=%s: rc %d, message '%s' (wanted '%s')\n", k, v ? v : "(null)", rc, err.msg, must_contain);
        return 0;
    }
    return 1;
}


/* One reading of every integer (core/parse.c, docs/conventions.md#numbers), generated from
 * the key table: each int, long and u64 key, at its lower bound and at a random value of
 * its range, gives the problem of its plain decimal when written with leading zeros
 * (decimal: 010 is ten, never octal eight) or in 0x/0X hex, with a sign where negative. */
static void check_integer_forms(void)
{
    const char *name, *sys, *help, *kind;
    const char *const *names;
    double lo, hi;
    int keys = 0, forms = 0;
    for (int i = 0; slpi_problem_key(i, &name, &sys, &help); i++) {
        TEST_CHECK(slpi_problem_key_kind(i, &kind, &lo, &hi, &names));
        if (strcmp(kind, "int") && strcmp(kind, "long") && strcmp(kind, "u64")) continue;
        double top = fmin(hi, fmax(lo, 0) + 4096);
        long vals[2] = { (long)lo, (long)lo + (long)test_rand_int((uint64_t)(top - lo) + 1) };
        int set = 0;
        for (int k = 0; k < 2; k++) {
            long v = vals[k];
            unsigned long m = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
            const char *sg = v < 0 ? "-" : "";
            char dec[40], text[6][48];
            snprintf(dec, sizeof dec, "%ld", v);
            snprintf(text[0], sizeof text[0], "%s0%lu", sg, m);
            snprintf(text[1], sizeof text[1], "%s000%lu", sg, m);
            snprintf(text[2], sizeof text[2], "%s0x%lx", sg, m);
            snprintf(text[3], sizeof text[3], "%s0X%lX", sg, m);
            snprintf(text[4], sizeof text[4], "%s0x00%lx", sg, m);
            snprintf(text[5], sizeof text[5], " %s0x%lX ", sg, m);
            slpi_problem want, got;
            slpi_error err = { 0, "" };
            slpi_problem_init(&want, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
            if (*sys && slpi_problem_set(&want, "system", sys, &err) != SLPI_OK) continue;
            got = want;
            if (slpi_problem_set(&want, name, dec, &err) != SLPI_OK) continue; /* a value this system refuses */
            set = 1;
            for (int f = 0; f < 6; f++) {
                slpi_problem q = got;
                int rc = slpi_problem_set(&q, name, text[f], &err);
                TEST_CHECKF(rc == SLPI_OK && memcmp(&q, &want, sizeof q) == 0, "%s=%s (%s key) is not %s=%s: %s", name,
                            text[f], kind, name, dec, rc == SLPI_OK ? "another value" : err.msg);
                forms++;
            }
        }
        keys += set;
    }
    printf("t-problem: %d integer keys, %d texts in leading-zero and hex forms read as their decimal\n", keys, forms);
    TEST_CHECKF(keys >= 15, "only %d integer keys of the table could be set", keys);
}

/* write/load round trip over random settings: every field reproduced exactly */
/* The algebra of a model is parsed once, by its key's setter (slpi_problem_algebra): what
 * the problem keeps is what slpi_algebra_parse gives for the text written back, and the
 * state's size and the default SVI form read it (a second way: the dimension by hand). */
static void check_algebra_once(void)
{
    static const struct {
        const char *text;
        int dim;
    } cases[] = { { "so3", 3 }, { "se3", 6 }, { "so(5)", 10 }, { "su(3)", 9 }, { "so3^4", 12 } };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        slpi_problem p;
        slpi_error err = { 0, "" };
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_TMK);
        TEST_CHECK(slpi_problem_algebra(&p) == NULL);
        TEST_CHECK(slpi_problem_set(&p, "system", "model", &err) == SLPI_OK && slpi_problem_algebra(&p) == NULL);
        TEST_CHECKF(slpi_problem_set(&p, "algebra", cases[i].text, &err) == SLPI_OK, "%s", err.msg);
        const slpi_algebra *a = slpi_problem_algebra(&p);
        slpi_algebra b;
        TEST_CHECK(a && slpi_algebra_parse(&b, "algebra", p.sys.model.algebra, &err) == SLPI_OK && a->kind == b.kind &&
                   a->n == b.n && a->dim == b.dim && a->dim == cases[i].dim);
        TEST_CHECK(slpi_problem_state_dim(&p) == cases[i].dim);
        TEST_CHECK((slpi_registry_svi_form(&p) == SLPI_SVI_FORM_SO3) == (a && a->kind == SLPI_ALGEBRA_SO3));
        TEST_CHECK(set_fails(&p, "algebra", "so(x)", "algebra") && slpi_problem_algebra(&p) == a &&
                   a->dim == cases[i].dim);
        TEST_CHECK(slpi_problem_set(&p, "system", "rigid-body", &err) == SLPI_OK && slpi_problem_algebra(&p) == NULL);
    }
}

static void check_round_trip(void)
{
    slpi_problem p, q;
    slpi_error err = { 0, "" };
    const char *path;
    static const char *const sys[] = { "rigid-body",     "heavy-top",     "manakov",
                                       "point-vortices", "euler-zeitlin", "sine-euler" };
    static const char *const sch[] = { "tmk", "rkmk-heun", "im-direct", "trap-direct", "svi" };
    for (long it = 0; it < test_iters(200); it++) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        TEST_CHECK(slpi_problem_set(&p, "system", sys[test_rand_int(6)], &err) == SLPI_OK);
        TEST_CHECK(slpi_problem_set(&p, "scheme", sch[test_rand_int(5)], &err) == SLPI_OK);
        char v[64];
        snprintf(v, sizeof v, "%.17g", test_rand_uniform(1e-6, 0.5));
        TEST_CHECK(slpi_problem_set(&p, "h", v, &err) == SLPI_OK);
        snprintf(v, sizeof v, "%llu", (unsigned long long)test_rand_u64());
        TEST_CHECK(slpi_problem_set(&p, "seed", v, &err) == SLPI_OK);
        snprintf(v, sizeof v, "%.17g", test_rand_uniform(1e-17, 1e-10));
        TEST_CHECK(slpi_problem_set(&p, "tol", v, &err) == SLPI_OK);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        slpi_problem_write(&p, f, "");
        fclose(f);
        path = test_temp_file(buf);
        free(buf);
        slpi_problem_init(&q, SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP);
        int rc = slpi_problem_load(&q, path, &err);
        TEST_CHECKF(rc == SLPI_OK, "reload: %s", err.msg);
        test_temp_remove(path);
        if (p.sys.system == SLPI_SYS_EULER_ZEITLIN) /* the default ic_lmax (0) is written as the degree it stands for */
            TEST_CHECKF(p.sys.ez.ic_lmax == 0 && q.sys.ez.ic_lmax == slpi_problem_ic_lmax(&p) &&
                            (q.sys.ez.ic_lmax = 0) == 0,
                        "ic_lmax: %d written as %d", p.sys.ez.ic_lmax, q.sys.ez.ic_lmax);
        TEST_CHECKF(memcmp(&p, &q, sizeof p) == 0, "round trip differs (system %s scheme %s)",
                    slpi_system_name(p.sys.system), slpi_scheme_name(p.sch.scheme));
    }
}

int main(void)
{
    test_start("t-problem", 2);
    slpi_problem p, q;
    slpi_error err = { 0, "" };

    /* defaults of the papers */
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(p.sys.rb.inertia[0] == 2.0 && p.sys.rb.inertia[2] == 2.0 / 3.0 && p.sys.rb.amp == 0.1);
    TEST_CHECK(slpi_problem_noise_count(&p) == 3 && slpi_problem_state_dim(&p) == 3);
    TEST_CHECK(slpi_problem_truncates(&p));
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_SVI);
    TEST_CHECK(p.sys.rb.form == SLPI_RB_FORM_SVI && p.sys.rb.inertia[2] == 3.0 && p.sys.rb.amp == 0.02 &&
               p.grid.h == 0.01);
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    TEST_CHECK(slpi_problem_state_dim(&p) == 6 && slpi_problem_noise_count(&p) == 1 && !slpi_problem_truncates(&p));
    TEST_CHECK(p.sys.ht.alpha[2] == 0.03 && p.sol.tol == 1e-15 && p.sol.maxit == 50);
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI);
    TEST_CHECK(slpi_problem_state_dim(&p) == 15 && p.sys.ht.inertia[0] == 0.1 && p.sol.maxit == 200);
    slpi_problem_init(&p, SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_state_dim(&p) == 45 && slpi_problem_noise_count(&p) == 45);
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_noise_count(&p) == 108 && slpi_problem_state_dim(&p) == 144);
    TEST_CHECK(slpi_problem_set(&p, "N", "128", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_noise_count(&p) == 12288);
    slpi_problem_init(&p, SLPI_SYS_SINE_EULER, SLPI_SCHEME_TMK);
    TEST_CHECK(p.sol.tol == 1e-14 && slpi_problem_noise_count(&p) == 2 && slpi_problem_state_dim(&p) == 9);
    /* the warm start: on by default for ISOMP on Euler-Zeitlin only, and reset with the
     * scheme and the system as the other solver defaults are */
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    TEST_CHECK(p.sch.warm_start == 1);
    TEST_CHECK(slpi_problem_set(&p, "scheme", "tmk", &err) == SLPI_OK && p.sch.warm_start == 0);
    TEST_CHECK(slpi_problem_set(&p, "scheme", "isomp", &err) == SLPI_OK && p.sch.warm_start == 1);
    TEST_CHECK(slpi_problem_set(&p, "system", "rigid-body", &err) == SLPI_OK && p.sch.warm_start == 0);
    slpi_problem_init(&p, SLPI_SYS_MANAKOV, SLPI_SCHEME_ISOMP);
    TEST_CHECK(p.sch.warm_start == 0);

    /* bad inputs: each names the problem */
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(set_fails(&p, "system", "rigid-bodies", "unknown system"));
    TEST_CHECK(set_fails(&p, "scheme", "rk4", "unknown scheme"));
    TEST_CHECK(set_fails(&p, "h", "-0.1", "out of range"));
    TEST_CHECK(set_fails(&p, "h", "0", "out of range"));
    TEST_CHECK(set_fails(&p, "h", "", "missing value"));
    TEST_CHECK(set_fails(&p, "h", NULL, "missing value"));
    TEST_CHECK(set_fails(&p, "h", "0.1x", "not a finite number"));
    TEST_CHECK(set_fails(&p, "h", "nan", "not a finite number"));
    TEST_CHECK(set_fails(&p, "h", "1e999", "not a finite number"));
    TEST_CHECK(set_fails(&p, "steps", "2.5", "not an integer"));
    TEST_CHECK(set_fails(&p, "steps", "0", "out of range"));
    TEST_CHECK(set_fails(&p, "seed", "-3", "unsigned"));
    TEST_CHECK(set_fails(&p, "inertia", "1,2", "expected 3"));
    TEST_CHECK(set_fails(&p, "inertia", "1,2,-3", "out of range"));
    TEST_CHECK(set_fails(&p, "noise", "white", "expected one of"));
    TEST_CHECK(set_fails(&p, "frobnicate", "1", "unknown key"));
    TEST_CHECK(set_fails(&p, "N", "12", "not a parameter of system rigid-body"));
    TEST_CHECK(set_fails(&p, "prec", "0", "out of range"));
    TEST_CHECK(set_fails(&p, "x0", "1,zz,3", "entry 2"));
    TEST_CHECK(set_fails(&p, "preset", "iso/rigid-body/longest", "unknown preset"));

    /* 64-bit keys in hex (docs/api.md: "u64 also 0x hex"): 0x and 0X followed by 1 to 16
     * digits give the same seed as the decimal, over values of every bit length (0x0..0xf
     * among them); anything else after the 0x is refused, never read as a shorter number */
    for (long it = 0; it < test_iters(200); it++) {
        int bits = it < 16 ? 4 : test_rand_int(65);
        uint64_t v = it < 16 ? (uint64_t)it
            : bits == 64     ? test_rand_u64()
                             : test_rand_u64() & ((UINT64_C(1) << bits) - 1);
        char hex[32], dec[32];
        snprintf(hex, sizeof hex, it % 2 ? "0x%" PRIx64 : "0X%" PRIX64, v);
        snprintf(dec, sizeof dec, "%" PRIu64, v);
        slpi_problem_init(&q, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        TEST_CHECKF(slpi_problem_set(&p, "seed", hex, &err) == SLPI_OK &&
                        slpi_problem_set(&q, "seed", dec, &err) == SLPI_OK && p.noise.seed == v && q.noise.seed == v,
                    "seed=%s and seed=%s: %" PRIu64 " and %" PRIu64 ", not %" PRIu64 " (%s)", hex, dec, p.noise.seed,
                    q.noise.seed, v, err.msg);
    }
    static const char *const bad_hex[] = { "0x", "0X", "0xg1", "0x-1", "0x+f", "0x 1", "0x1g", "0xx1", "00x1" };
    for (size_t i = 0; i < sizeof bad_hex / sizeof bad_hex[0]; i++) {
        p.noise.seed = 7;
        TEST_CHECKF(set_fails(&p, "seed", bad_hex[i], "not an unsigned 64-bit integer") && p.noise.seed == 7,
                    "seed=%s accepted (seed %" PRIu64 ")", bad_hex[i], p.noise.seed);
    }

    /* cross-key rules */
    slpi_problem_init(&p, SLPI_SYS_SINE_EULER, SLPI_SCHEME_TMK);
    TEST_CHECK(slpi_problem_set(&p, "N", "4", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_validate(&p, &err) == SLPI_EINPUT && strstr(err.msg, "N odd"));
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set(&p, "truncate", "on", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "h", "2", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_validate(&p, &err) == SLPI_EINPUT && strstr(err.msg, "h < 1"));
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set(&p, "x0", "1,0", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_validate(&p, &err) == SLPI_EINPUT && strstr(err.msg, "x0: 2 values"));

    /* time grid */
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECK(slpi_problem_set(&p, "T", "0.1", &err) == SLPI_OK &&
               slpi_problem_set(&p, "level", "7", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK && p.grid.steps == 128 && p.grid.h == 0.1 / 128);
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    TEST_CHECK(slpi_problem_set(&p, "T", "100", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_OK && p.grid.steps == 10000);
    TEST_CHECK(slpi_problem_set(&p, "T", "100.005", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_EINPUT && strstr(err.msg, "not an integer multiple"));
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_TMK);
    TEST_CHECK(slpi_problem_set(&p, "level", "3", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_finish(&p, &err) == SLPI_EINPUT && strstr(err.msg, "needs T"));

    /* key files: comments, order independence (system first), file:line errors */
    const char *path =
        test_temp_file("# a case\nh = 0.125\nscheme=svi\nsystem=rigid-body # trailing comment\n\ninertia=1,2,3\n");
    slpi_problem_init(&p, SLPI_SYS_MANAKOV, SLPI_SCHEME_TMK);
    TEST_CHECKF(slpi_problem_load(&p, path, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(p.sys.system == SLPI_SYS_RIGID_BODY && p.sch.scheme == SLPI_SCHEME_SVI && p.grid.h == 0.125 &&
               p.sys.rb.inertia[1] == 2.0);
    test_temp_remove(path);
    path = test_temp_file("system=rigid-body\nh=0.1\nsteps=ten\n");
    TEST_CHECK(slpi_problem_load(&p, path, &err) == SLPI_EINPUT && strstr(err.msg, ":3: steps=ten"));
    test_temp_remove(path);
    path = test_temp_file("system=rigid-body\njust some words\n");
    TEST_CHECK(slpi_problem_load(&p, path, &err) == SLPI_EINPUT && strstr(err.msg, ":2: expected key=value"));
    test_temp_remove(path);
    TEST_CHECK(slpi_problem_load(&p, "/nonexistent/slpi.cfg", &err) == SLPI_EINPUT && strstr(err.msg, "cannot open"));

    check_round_trip();
    check_integer_forms();
    check_algebra_once();
    TEST_END();
}
