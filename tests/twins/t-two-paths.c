/* t-two-paths.c — one reading of a model text on both paths (docs/models.md#two-paths):
 * generated texts are accepted or refused by the double path (slpi_fast_create) and the
 * certified path (slpi_ref_create) alike, and a refusal gives the same text on both. The
 * rules were fixed before the first run:
 *  1. every key of euler-zeitlin's part of the key table (kind and range read from the
 *     table, core/problem-keys.c: a key the table adds without a generator here fails the
 *     test), each with values at and past its limits, `t`, `1+t`, nan, inf and a word;
 *     noise_modes, noise_fields, background_modes and multiplier from generators (mode
 *     lists with bad l, m, amp, `t` as amp, malformed entries; field files of the right
 *     and wrong counts, with `t`, empty, missing; multipliers from templates with random
 *     parameters: zeros at some l, domain errors, overflow, underflow, `t`, coordinates,
 *     unknown names), each alone and with its companion key (noise=modes, noise=fields,
 *     kappa);
 *  2. models (system=model, so3, every scheme the validator admits) with `t` in every
 *     place it may and may not appear: H, noise_H1, a parameter's value, param.t, t0
 *     with and without an expression reading t; constant subexpressions outside their
 *     domain or binary64's range in H and noise_H1;
 *  3. a text refused by core (slpi_problem_set or _finish) is refused before either path
 *     sees it, by construction; a text core accepts must give both creates the same
 *     result code and, refused, byte for byte the same message; where a case states what
 *     it expects (a `t` in a multiplier: "the time t"; a mode list with `t`: "amp = t"),
 *     the refusal contains it;
 *  4. both accepted: one step from the initial state on both paths with the same
 *     increments, the double step within 1e-12 of the scale of the certified ball's
 *     midpoint (the solver's tolerance, as t-zeitlin-family's rule 5) when both step;
 *  5. the one documented exception (docs/models.md#two-paths): a value rounding decides,
 *     stated per case (`sin(pi*l)`, `tan(pi/2)`): the double path accepts, the
 *     certified path refuses with the shared text.
 * Sizes N = 3..6 (creates and steps at N <= 8: the table's N = 1024 only through core). */
#include "core/problem-struct.h"
#include "zeitlinutil.h"
#include "core/problem.h"

static int n_core, n_refused, n_accepted, n_stepped, n_except;
static char tmpdir[] = "/tmp/t-two-paths-XXXXXX";

/* One case: keys k[i] = v[i] (i < n) on top of the base problem (euler-zeitlin of size N
 * with ic_lmax N-1, or a model on so3 when N = 0), with scheme sch. expect: NULL (any
 * verdict, the same on both paths), "" (must be accepted), a text the refusal contains,
 * or "!except" (rounding decides: double accepts, certified refuses). */
static void one_case(int N, slpi_scheme_id sch, int n, const char *const *k, const char *const *v, const char *expect)
{
    char desc[2048] = "", nb[16], lb[16];
    for (int i = 0; i < n; i++) snprintf(desc + strlen(desc), sizeof desc - strlen(desc), " %s=%.300s", k[i], v[i]);
    slpi_problem p;
    slpi_error err = { 0, "" };
    int rc = SLPI_OK;
    if (N > 0) {
        snprintf(nb, sizeof nb, "%d", N);
        snprintf(lb, sizeof lb, "%d", N - 1);
        slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, sch);
        rc = slpi_problem_set(&p, "N", nb, &err);
        if (rc == SLPI_OK) rc = slpi_problem_set(&p, "ic_lmax", lb, &err);
    } else {
        slpi_problem_init(&p, SLPI_SYS_MODEL, sch);
        rc = slpi_problem_set(&p, "algebra", "so3", &err);
        if (rc == SLPI_OK) rc = slpi_problem_set(&p, "x0", "1,0.5,0.25", &err);
    }
    if (rc == SLPI_OK) rc = slpi_problem_set(&p, "steps", "1", &err);
    if (rc == SLPI_OK) rc = slpi_problem_set(&p, "h", "0.0078125", &err);
    TEST_CHECKF(rc == SLPI_OK, "base problem refused: %s", err.msg);
    if (rc == SLPI_OK) rc = slpi_problem_set_all(&p, n, (char *const *)k, (char *const *)v, NULL, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(&p, &err);
    if (rc == SLPI_OK) rc = slpi_problem_validate(&p, &err);
    if (rc != SLPI_OK) {
        n_core++;
        TEST_CHECKF(rc == SLPI_EINPUT && err.msg[0], "N=%d%s: core: rc %d, no message", N, desc, rc);
        TEST_CHECKF(!expect || (expect[0] && expect[0] != '!' && strstr(err.msg, expect)),
                    "N=%d%s: refused by core: '%s' (expected %s)", N, desc, err.msg, expect ? expect : "?");
        return;
    }
    if (N > 8) return; /* the table's largest N: its certified tables are gigabytes (header) */
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    slpi_error e1 = { 0, "" }, e2 = { 0, "" };
    int rf = slpi_fast_create(&f, &p, &e1), rr = slpi_ref_create(&r, &p, &e2);
    slpi_fast_free(f);
    slpi_ref_free(r);
    if (expect && !strcmp(expect, "!except")) {
        n_except++;
        TEST_CHECKF(rf == SLPI_OK && rr == SLPI_EINPUT,
                    "N=%d%s: the rounding-decided case: double %d '%s', "
                    "certified %d '%s'",
                    N, desc, rf, e1.msg, rr, e2.msg);
        return;
    }
    TEST_CHECKF(rf == rr && (rf == SLPI_OK || !strcmp(e1.msg, e2.msg)),
                "N=%d%s: double path %d '%s', certified path %d '%s'", N, desc, rf, e1.msg, rr, e2.msg);
    if (rf != SLPI_OK) {
        n_refused++;
        TEST_CHECKF(!expect || (expect[0] && strstr(e1.msg, expect)), "N=%d%s: refused: '%s' (expected %s)", N, desc,
                    e1.msg, expect ? (expect[0] ? expect : "acceptance") : "?");
        return;
    }
    n_accepted++;
    TEST_CHECKF(!expect || !expect[0], "N=%d%s: accepted, expected a refusal with '%s'", N, desc, expect);
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    double *x = malloc(sizeof(double) * (size_t)dim), *y = malloc(sizeof(double) * (size_t)dim);
    double *dW = malloc(sizeof(double) * (size_t)(M + 1));
    arb_ptr yb = _arb_vec_init(dim);
    for (int i = 0; i < M; i++) dW[i] = 0.05 * gauss();
    if (slpi_fast_problem_initial_state(&p, x, &err) == SLPI_OK && step_both(&p, x, dW, y, yb)) {
        n_stepped++;
        TEST_CHECKF(mid_gap(y, yb, dim) <= 1e-12, "N=%d%s: double step %.3g of the scale from the certified ball", N,
                    desc, mid_gap(y, yb, dim));
    }
    _arb_vec_clear(yb, dim);
    free(x);
    free(y);
    free(dW);
}

/* ------------------------------------------------------------ generators */

static const char *pick(const char *const *list, int n)
{
    return list[test_rand_int(n)];
}
#define PICK(list) pick(list, (int)(sizeof list / sizeof list[0]))

/* A mode list for su(N); *expect what a refusal must name (NULL: any). */
static void modes_text(char *out, size_t n, int N, const char **expect)
{
    static const char *const amp[] = { "0.5", "-2", "0", "1e-3", "t", "1e13", "nan", "x" };
    static const char *const bad[] = { "1:0", "1:0:1:2", "a:b:c", "", "1::1" };
    int entries = 1 + (int)test_rand_int(3), valid = 1;   /* valid: the entries so far are */
    int seen[3][2] = { { -9, 0 }, { -9, 0 }, { -9, 0 } }; /* their (l, m); l = -9: none */
    *expect = NULL;
    out[0] = '\0';
    for (int e = 0; e < entries; e++) {
        char one[64];
        if (test_rand_int(8) == 0) {
            snprintf(one, sizeof one, "%s", PICK(bad));
            valid = 0;
        } else {
            int l = (int)test_rand_int(N + 1), m = (int)test_rand_int(2 * l + 3) - l - 1, a = (int)test_rand_int(8);
            snprintf(one, sizeof one, "%d:%d:%s", l, m, amp[a]);
            int lm = l >= 1 && l <= N - 1 && abs(m) <= l;
            int again = 0; /* a mode given before: refused once its entry parses */
            for (int j = 0; j < e; j++) again |= seen[j][0] == l && seen[j][1] == m;
            if (valid && lm && !strcmp(amp[a], "t"))
                *expect = "amp = t";
            else if (valid && lm && a < 4 && again)
                *expect = "repeats the mode";
            valid = valid && lm && a < 4 && !again;
            seen[e][0] = l;
            seen[e][1] = m;
        }
        snprintf(out + strlen(out), n - strlen(out), "%s%s", e ? "," : "", one);
    }
}

/* A noise fields file for su(N) in tmpdir (or a path that does not exist). */
static void fields_file(char *path, size_t n, int N, int *serial)
{
    snprintf(path, n, "%s/xi%d", tmpdir, (*serial)++);
    int kind = (int)test_rand_int(6);
    if (kind == 5) return; /* missing */
    FILE *f = fopen(path, "w");
    if (!f) {
        TEST_CHECKF(0, "cannot write %s", path);
        return;
    }
    /* 0: right (commas and blanks), 1: one coefficient too many, 2: one too few, 3: a t, 4: empty */
    int lines = kind == 4 ? 0 : 1 + (int)test_rand_int(3), count = N * N - 1 + (kind == 1) - (kind == 2);
    fprintf(f, "# generated by t-two-paths\n");
    for (int i = 0; i < lines; i++) {
        for (int j = 0; j < count; j++) {
            if (kind == 3 && j == 1)
                fprintf(f, " t");
            else
                fprintf(f, "%s%.17g", j ? (kind == 0 && j % 2 ? "," : " ") : "", test_rand_uniform(-1, 1));
        }
        fputc('\n', f);
    }
    fclose(f);
}

/* A multiplier from a template with random parameters; *expect what a refusal must name. */
static void multiplier_text(char *out, size_t n, const char **expect)
{
    static const char *const tname[] = { "t", "2*t", "t^2", "sin(t)", "exp(-t)" };
    static const char *const other[] = { "x1", "x3", "m", "q", "param.a", "ll" };
    int d = (int)test_rand_int(6), kind = (int)test_rand_int(12);
    double g = ldexp((double)(test_rand_int(17) - 8), -2);
    static const int big[] = { 1, 100, 700, 710, 800, 1000 };
    *expect = NULL;
    switch (kind) {
    case 0:
        snprintf(out, n, "-l*(l+1)-%d", d);
        *expect = "";
        break;
    case 1:
        snprintf(out, n, "l*(l+1)-%d", 2 * d);
        break; /* 0 where l(l+1) = 2d */
    case 2:
        snprintf(out, n, "-(l*(l+1))^%d", 1 + d % 3);
        *expect = "";
        break;
    case 3:
        snprintf(out, n, "-l*(l+1)*exp(%.17g/l)", g);
        *expect = "";
        break;
    case 4:
        snprintf(out, n, "1/(l-%d)", d);
        break; /* a division by 0 at l = d */
    case 5:
        snprintf(out, n, "-log(l-%d)-1", d);
        break; /* a domain error where l <= d */
    case 6:
        snprintf(out, n, "sqrt(l-%d)", d);
        break;
    case 7:
        snprintf(out, n, "exp(%d*l)", big[d]);
        break; /* overflow at some l */
    case 8:
        snprintf(out, n, "-l*(l+1)*exp(-%d)", big[d]);
        break; /* below the normal range */
    case 9:
        snprintf(out, n, "(l-%d)^2", d);
        break;
    case 10:
        snprintf(out, n, "-l*(l+1)-%s", PICK(tname));
        *expect = "the time t";
        break;
    default:
        snprintf(out, n, "-l*(l+1)-%s", PICK(other));
        *expect = "multiplier: col 10: ";
        break;
    }
}

/* The values of key i of the table (kind, lo, hi) for su(N) into v[0..), with what each
 * refusal must name in ex[]; returns the count. */
static int key_values(char v[][512], const char **ex, int max, const char *name, const char *kind, double lo, double hi,
                      const char *const *names, int N, int *serial)
{
    int c = 0;
    static const char *const words[] = { "t", "1+t", "nan", "inf", "word" };
    if (!strcmp(kind, "double") || !strcmp(kind, "int") || !strcmp(kind, "long")) {
        int integer = strcmp(kind, "double") != 0;
        if (!strcmp(name, "N")) hi = 8; /* creates above N = 8: see the header */
        double val[] = { lo, hi, integer ? floor((lo + hi) / 2) : (lo + hi) / 2, integer ? lo - 1 : lo - fabs(lo) - 1,
                         integer ? hi + 1 : hi * 2 + 1 };
        for (int j = 0; j < 5 && c < max; j++, c++) {
            snprintf(v[c], sizeof v[c], integer ? "%.0f" : "%.17g", val[j]);
            ex[c] = j >= 3 && strcmp(name, "N") ? name : NULL;
        }
        for (int j = 0; j < 5 && c < max; j++, c++) {
            snprintf(v[c], sizeof v[c], "%s", words[j]);
            ex[c] = name;
        }
    } else if (!strcmp(kind, "u64")) {
        static const char *const u[] = { "0", "12345", "t", "-1", "18446744073709551616" };
        for (int j = 0; j < 5 && c < max; j++, c++) {
            snprintf(v[c], sizeof v[c], "%s", u[j]);
            ex[c] = j >= 2 ? name : NULL;
        }
    } else if (!strcmp(kind, "enum")) {
        for (int j = 0; names[j] && c < max; j++, c++) {
            snprintf(v[c], sizeof v[c], "%s", names[j]);
            ex[c] = NULL;
        }
        snprintf(v[c], sizeof v[c], "t");
        ex[c++] = name;
    } else if (!strcmp(name, "noise_modes") || !strcmp(name, "background_modes")) {
        for (int j = 0; j < 8 && c < max; j++, c++) modes_text(v[c], sizeof v[c], N, &ex[c]);
    } else if (!strcmp(name, "noise_fields")) {
        for (int j = 0; j < 6 && c < max; j++, c++) {
            fields_file(v[c], sizeof v[c], N, serial);
            ex[c] = NULL;
        }
    } else if (!strcmp(name, "multiplier")) {
        /* one of each kind of verdict, then the templates at random */
        static const char *const fixed[][2] = { { "-l*(l+1)*exp(-800)", "lambda(l = 1) is 0, not finite" },
                                                { "l*(l+1)-6", "lambda(l = 2) is 0, not finite" },
                                                { "exp(1000*l)", "at l = 1: col 1: exp outside its domain" },
                                                { "-l*(l+1)-t", "the time t" },
                                                { "-l*(l+1)-2", "" } };
        for (int j = 0; j < 5 && c < max; j++, c++) {
            snprintf(v[c], sizeof v[c], "%s", fixed[j][0]);
            ex[c] = fixed[j][1];
        }
        for (int j = 0; j < 25 && c < max; j++, c++) multiplier_text(v[c], sizeof v[c], &ex[c]);
        snprintf(v[c], sizeof v[c], "sin(pi*l)");
        ex[c++] = "!except";
    } else {
        TEST_CHECKF(0, "key %s (%s): no generator: add one for the key the table gained", name, kind);
    }
    return c;
}

/* The companion a key needs (noise=modes with noise_modes, ...), or NULL. */
static void companion(const char *name, const char **k, const char **v)
{
    *k = *v = NULL;
    if (!strcmp(name, "noise_modes")) {
        *k = "noise";
        *v = "modes";
    }
    if (!strcmp(name, "noise_fields")) {
        *k = "noise";
        *v = "fields";
    }
    if (!strcmp(name, "multiplier")) {
        *k = "kappa";
        *v = "1";
    }
}

static void check_family(void)
{
    int serial = 0, seen = 0;
    const char *name, *sys, *help, *kind;
    const char *const *names;
    double lo, hi;
    for (int i = 0; slpi_problem_key(i, &name, &sys, &help); i++) {
        if (strcmp(sys, "euler-zeitlin")) continue;
        TEST_CHECK(slpi_problem_key_kind(i, &kind, &lo, &hi, &names));
        seen++;
        int N = 3 + (int)test_rand_int(4);
        char v[40][512];
        const char *ex[40];
        int nv = key_values(v, ex, 39, name, kind, lo, hi, names, N, &serial);
        for (int j = 0; j < nv; j++) {
            const char *k2[2] = { name, NULL }, *v2[2] = { v[j], NULL };
            companion(name, &k2[1], &v2[1]);
            /* alone: noise_modes needs its noise (a fields file is read first: it may not open) */
            one_case(N, SLPI_SCHEME_ISOMP, 1, k2, v2,
                     !v[j][0]                            ? "missing value"
                         : !strcmp(name, "noise_modes")  ? "needs noise=modes"
                         : !strcmp(name, "noise_fields") ? NULL
                                                         : ex[j]);
            if (k2[1]) one_case(N, SLPI_SCHEME_ISOMP, 2, k2, v2, !strcmp(name, "multiplier") ? NULL : ex[j]);
        }
    }
    TEST_CHECKF(seen >= 12, "only %d keys of euler-zeitlin in the table", seen);
}

/* ------------------------------------------------------------ models: t in every place */

static void check_models(long cases)
{
    static const char *const H[] = {
        "x1^2/2+x2^2/4+x3^2/6",
        "x1^2/2+x2^2/4+x3^2/6+t*x1",
        "(1+t)*x1^2/2+x2^2/4",
        "x1^2/2+sin(t)*x3",
        "t",
        "(x1^2+x2^2/2)*exp(-t)",
        "x1^2/2+log(0)",
        "x1^2/2+exp(1000)",
        "x1^2*(2-2)^-1",
        "x1^2+sqrt(-1)",
        "a*x1^2/2+x2^2",
        "x1^2/2+x2^2/3+sqrt(t+1)",
    };
    static const char *const H1[] = { NULL, "x1", "t*x1", "sin(t)*x2+x3", "log(0)*x1", "x1*exp(800)", "a*x2" };
    static const char *const par[] = { NULL, "2", "t", "1e999", "-0.5", "1+t" };
    static const char *const t0[] = { NULL, "1", "t", "0.25", "1e400" };
    for (long c = 0; c < cases; c++) {
        const char *k[6], *v[6];
        int n = 0;
        k[n] = "H";
        v[n++] = PICK(H);
        const char *h1 = PICK(H1), *pa = PICK(par), *tz = PICK(t0);
        if (h1) {
            k[n] = "noise_H1";
            v[n++] = h1;
        }
        if (pa) {
            k[n] = "param.a";
            v[n++] = pa;
        }
        if (tz) {
            k[n] = "t0";
            v[n++] = tz;
        }
        const char *expect = NULL; /* param.t, set last: its refusal when the others' values read */
        if (test_rand_int(10) == 0) {
            k[n] = "param.t";
            v[n++] = "1";
            if ((!pa || !strcmp(pa, "2") || !strcmp(pa, "-0.5")) && (!tz || !strcmp(tz, "1") || !strcmp(tz, "0.25")))
                expect = "param.t: t is the time";
        }
        slpi_scheme_id sch = (slpi_scheme_id)test_rand_int(SLPI_SCHEME_COUNT);
        one_case(0, sch, n, k, v, expect);
    }
    /* the documented exception: tan of binary64's pi/2 is finite, the ball of tan(pi/2) is not */
    const char *k[1] = { "H" }, *v[1] = { "x1^2/2+tan(pi/2)" };
    one_case(0, SLPI_SCHEME_ISOMP, 1, k, v, "!except");
}

int main(void)
{
    test_start("t-two-paths", 20261125);
    if (!mkdtemp(tmpdir)) {
        TEST_CHECKF(0, "mkdtemp %s", tmpdir);
        TEST_END();
    }
    long rounds = test_iters(1);
    for (long r = 0; r < rounds; r++) check_family();
    check_models(test_iters(120));
    printf("t-two-paths: %d refused by core, %d refused by both paths alike, %d accepted by both (%d stepped), "
           "%d rounding-decided as documented\n",
           n_core, n_refused, n_accepted, n_stepped, n_except);
    TEST_CHECKF(n_refused > 0 && n_accepted > 0 && n_stepped > 0, "a verdict never occurred");
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    TEST_CHECK(system(cmd) == 0);
    TEST_END();
}
