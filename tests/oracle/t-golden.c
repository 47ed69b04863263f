/* t-golden.c — the golden certified cases (generation, scoring, the port verifier) on both paths:
 *   - every applicable scheme x system pair of docs/systems.md#applicability has a case, and each file is
 *     the case it claims (its name; its what= header read back as written; increments
 *     equal to the problem's canonical ones;
 *     a default x0 that has changed since is reported as a stale file, not a failure),
 *     with a problem that round-trips through slpi_problem_write and slpi_problem_load;
 *   - the ref path still overlaps every stored ball and the fast path is within the
 *     ratio budget 30 (slpi_golden_check_dir prints the table of worst scores per pair);
 *   - `slpi verify` PASSes the fast path's trajectory of every case; with
 *     SLPI_TEST_MULTIPLIER k the horizon is k times longer, and the rows beyond the
 *     case's horizon may be UNABLE (the certified radius runs out) but never FAIL;
 *   - negative controls: a stored ball moved off the exact value makes the ref check
 *     FAIL naming it (each component in turn), an invariant the ref path does not
 *     compute makes it UNABLE, and stored balls moved 100 n u from the fast result make
 *     the fast check FAIL (each component alone, and all);
 *   - a check stopped at a case reports the pairs it finished: the start of the whole table.
 * Folder: SLPI_GOLDEN_DIR, default oracle/golden (make check runs from the top). */
#include <unistd.h>

#include "core/problem-struct.h"
#include "oracle/oracle.h"
#include "testutil.h"

static const char *golden_dir(void)
{
    const char *d = getenv("SLPI_GOLDEN_DIR");
    return d ? d : "oracle/golden";
}

static void test_coverage(void)
{
    for (int s = 0; s < SLPI_SYS_COUNT; s++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            if (slpi_registry_pair((slpi_system_id)s, (slpi_scheme_id)k, NULL) == SLPI_NA) continue;
            char pair[96];
            snprintf(pair, sizeof pair, "%s/%s", slpi_system_name((slpi_system_id)s),
                     slpi_scheme_name((slpi_scheme_id)k));
            int found = 0;
            for (const char *const *c = slpi_golden_cases(); *c; c++)
                found |=
                    strncmp(*c, pair, strlen(pair)) == 0 && ((*c)[strlen(pair)] == '\0' || (*c)[strlen(pair)] == '/');
            TEST_CHECKF(found, "applicable pair %s has no golden case", pair);
        }
}

/* The fast path's trajectory of the case, through the run driver, then verify; the
 * horizon is the case's times SLPI_TEST_MULTIPLIER (make check-long goes further). */
static void verify_fast_output(const slpi_golden *g, const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/fast.tsv", dir);
    FILE *f = fopen(path, "w");
    slpi_run_result run;
    slpi_error err = { 0, "" };
    slpi_problem p = *g->problem;
    p.grid.steps = g->problem->grid.steps * test_iters(1);
    int rc = slpi_run(&p, slpi_fast_path(), f, 0, NULL, &run, &err);
    fclose(f);
    TEST_CHECKF(rc == SLPI_OK, "%s: fast run: %s", g->name, err.msg);
    slpi_verify_result v;
    rc = slpi_verify_file(path, NULL, golden_dir(), -1, NULL, &v, &err);
    /* beyond the case's own horizon the certified radius may run out (sine-Euler at
     * h = 1/2 does within 10 times it): UNABLE there is allowed, FAIL never */
    int whole = p.grid.steps == g->problem->grid.steps;
    TEST_CHECKF(rc == SLPI_OK && v.rows == p.grid.steps + 1 &&
                    (whole ? v.verdict == SLPI_VERDICT_PASS && v.last_certified_step == p.grid.steps
                           : v.verdict != SLPI_VERDICT_FAIL && v.last_certified_step >= g->problem->grid.steps),
                "%s: verify of the fast output: rc %d (%s), %s, %ld rows, certified through %ld", g->name, rc, err.msg,
                slpi_verdict_name(v.verdict), v.rows, v.last_certified_step);
    if (rc == SLPI_OK && v.verdict == SLPI_VERDICT_UNABLE)
        printf("t-golden: note: %s over %ld steps: certified through step %ld (%s)\n", g->name, p.grid.steps,
               v.last_certified_step, err.msg[0] ? err.msg : "the balls grew too wide for the budget");
    unlink(path);
}

/* The stored problem round-trips through slpi_problem_write and slpi_problem_load. */
static void problem_round_trip(const slpi_golden *g, const char *dir)
{
    char path[256], *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    snprintf(path, sizeof path, "%s/case.conf", dir);
    FILE *f = fopen(path, "w");
    slpi_problem_write(g->problem, f, "");
    fclose(f);
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    int rc = slpi_problem_load(&p, path, &err);
    if (rc == SLPI_OK) rc = slpi_problem_finish(&p, &err);
    TEST_CHECKF(rc == SLPI_OK, "%s: problem does not load: %s", g->name, err.msg);
    f = open_memstream(&a, &na);
    slpi_problem_write(g->problem, f, "");
    fclose(f);
    f = open_memstream(&b, &nb);
    slpi_problem_write(&p, f, "");
    fclose(f);
    TEST_CHECKF(strcmp(a, b) == 0, "%s: problem changes through write/load", g->name);
    free(a);
    free(b);
    unlink(path);
}

static void test_case_files(const char *tmp)
{
    for (const char *const *c = slpi_golden_cases(); *c; c++) {
        char file[200], path[512];
        slpi_golden_file_name(*c, file, sizeof file);
        snprintf(path, sizeof path, "%s/%s", golden_dir(), file);
        slpi_golden g;
        slpi_error err = { 0, "" };
        if (slpi_golden_read(path, &g, &err) != SLPI_OK) {
            TEST_CHECKF(0, "%s", err.msg);
            continue;
        }
        TEST_CHECKF(strcmp(g.name, *c) == 0, "%s holds case %s", path, g.name);
        { /* the header's what= line is read back as written */
            char line[600] = "", *what = NULL;
            FILE *f = fopen(path, "r");
            while (f && fgets(line, sizeof line, f))
                if (strncmp(line, "# what=", 7) == 0) {
                    line[strcspn(line, "\n")] = 0;
                    what = line + 7;
                    break;
                }
            if (f) fclose(f);
            TEST_CHECKF(what && strcmp(g.what, what) == 0, "%s: what= '%s' read as '%s'", path, what ? what : "(none)",
                        g.what);
        }
        double *x0 = calloc((size_t)g.dim, sizeof(double)),
               *dW = calloc((size_t)(g.problem->grid.steps * g.M + 1), sizeof(double));
        TEST_CHECK(slpi_fast_problem_initial_state(g.problem, x0, &err) == SLPI_OK);
        TEST_CHECK(slpi_oracle_increments(g.problem, g.problem->grid.steps, dW, &err) == SLPI_OK);
        /* the stored x0 is the case's input; a different default of the generator makes
         * the file stale (regenerate it deliberately), not wrong */
        if (memcmp(x0, g.x0, (size_t)g.dim * sizeof(double)) != 0)
            printf("t-golden: note: %s: the system's default x0 has changed since the file was made (make golden)\n",
                   *c);
        TEST_CHECKF(memcmp(dW, g.dW, (size_t)(g.problem->grid.steps * g.M) * sizeof(double)) == 0,
                    "%s: stored increments differ from the canonical noise", *c);
        TEST_CHECKF(g.check[g.ncheck - 1].step == g.problem->grid.steps && g.check[g.ncheck - 1].ninv > 0,
                    "%s: last checkpoint at step %ld with %d invariants", *c, g.check[g.ncheck - 1].step,
                    g.check[g.ncheck - 1].ninv);
        problem_round_trip(&g, tmp);
        verify_fast_output(&g, tmp);
        free(x0);
        free(dW);
        slpi_golden_clear(&g);
    }
}

/* Move a ball's midpoint by d (exactly: 200 bits hold the sum). */
static void shift_mid(arb_t b, double d)
{
    arf_t t;
    arf_init(t);
    arf_set_d(t, d);
    arf_add(arb_midref(b), arb_midref(b), t, 200, ARF_RND_NEAR);
    arf_clear(t);
}

/* Negative controls on one case: the checks must be able to fail. */
static void test_controls(void)
{
    char file[200], path[512];
    slpi_golden_file_name("rigid-body/isomp", file, sizeof file);
    snprintf(path, sizeof path, "%s/%s", golden_dir(), file);
    slpi_golden g;
    slpi_golden_result r;
    slpi_error err = { 0, "" };
    if (slpi_golden_read(path, &g, &err) != SLPI_OK) {
        TEST_CHECKF(0, "%s", err.msg);
        return;
    }
    slpi_golden_checkpoint *k = g.check + g.ncheck - 1;
    arb_t keep;
    arb_init(keep);
    /* a stored state ball moved by 1e-20 (far beyond its radius, far inside the budget),
     * each component in turn: the message names that component */
    for (int i = 0; i < g.dim; i++) {
        arb_set(keep, k->state + i);
        shift_mid(k->state + i, 1e-20);
        TEST_CHECK(slpi_golden_check(&g, &r, &err) == SLPI_OK);
        char want[96];
        snprintf(want, sizeof want, "ref state %d at step %ld does not overlap", i, k->step);
        TEST_CHECKF(r.ref == SLPI_VERDICT_FAIL && r.fast == SLPI_VERDICT_PASS && strstr(r.msg, want),
                    "moved ball %d: ref %s, fast %s (%s)", i, slpi_verdict_name(r.ref), slpi_verdict_name(r.fast),
                    r.msg);
        arb_set(k->state + i, keep);
    }
    /* a stored invariant moved likewise */
    arb_set(keep, k->inv);
    shift_mid(k->inv, 1e-20);
    TEST_CHECK(slpi_golden_check(&g, &r, &err) == SLPI_OK);
    TEST_CHECKF(r.ref == SLPI_VERDICT_FAIL, "moved invariant: ref %s", slpi_verdict_name(r.ref));
    arb_set(k->inv, keep);
    /* a stored invariant the ref path does not compute cannot be re-checked: UNABLE */
    char *name = k->inv_name[0];
    k->inv_name[0] = "no such invariant";
    TEST_CHECK(slpi_golden_check(&g, &r, &err) == SLPI_OK);
    TEST_CHECKF(r.ref == SLPI_VERDICT_UNABLE && strstr(r.msg, "no such invariant"), "unknown invariant: ref %s (%s)",
                slpi_verdict_name(r.ref), r.msg);
    k->inv_name[0] = name;
    /* the unchanged case passes, and the fresh balls lie inside the stored ones */
    TEST_CHECK(slpi_golden_check(&g, &r, &err) == SLPI_OK);
    TEST_CHECKF(r.ref == SLPI_VERDICT_PASS && r.fast == SLPI_VERDICT_PASS && r.ref_encloses,
                "unchanged: ref %s, fast %s, encloses %d", slpi_verdict_name(r.ref), slpi_verdict_name(r.fast),
                r.ref_encloses);
    /* the budget: stored balls 100 n u away from the exact result fail the fast path, one
     * component at a time, then all */
    for (int i = 0; i < g.dim; i++) {
        slpi_golden one;
        TEST_CHECK(slpi_golden_read(path, &one, &err) == SLPI_OK);
        for (int c = 0; c < one.ncheck; c++)
            shift_mid(one.check[c].state + i, 100.0 * (double)one.check[c].step * 0x1p-53);
        TEST_CHECK(slpi_golden_check(&one, &r, &err) == SLPI_OK);
        TEST_CHECKF(r.fast == SLPI_VERDICT_FAIL, "component %d shifted: fast %s, state ratio [%g, %g]", i,
                    slpi_verdict_name(r.fast), r.state.lo, r.state.hi);
        slpi_golden_clear(&one);
    }
    for (int c = 0; c < g.ncheck; c++)
        for (int i = 0; i < g.dim; i++) shift_mid(g.check[c].state + i, 100.0 * (double)g.check[c].step * 0x1p-53);
    TEST_CHECK(slpi_golden_check(&g, &r, &err) == SLPI_OK);
    TEST_CHECKF(r.fast == SLPI_VERDICT_FAIL && r.state.lo > SLPI_ORACLE_THRESHOLD,
                "shifted balls: fast %s, state ratio [%g, %g]", slpi_verdict_name(r.fast), r.state.lo, r.state.hi);
    /* the same midpoints with radii 2^-20 that hold the ref result: the ref path passes,
     * the fast path's ratio interval is too wide to pass (UNABLE), and its message gives
     * that interval low end first */
    for (int c = 0; c < g.ncheck; c++)
        for (int i = 0; i < g.dim; i++) arb_add_error_2exp_si(g.check[c].state + i, -20);
    TEST_CHECK(slpi_golden_check(&g, &r, &err) == SLPI_OK);
    char want[96];
    snprintf(want, sizeof want, "fast path: state ratio in [%.3g, %.3g],", r.state.lo, r.state.hi);
    TEST_CHECKF(r.ref == SLPI_VERDICT_PASS && r.fast == SLPI_VERDICT_UNABLE && r.state.lo < r.state.hi &&
                    strncmp(r.msg, want, strlen(want)) == 0,
                "widened shifted balls: ref %s, fast %s, '%s'", slpi_verdict_name(r.ref), slpi_verdict_name(r.fast),
                r.msg);
    arb_clear(keep);
    slpi_golden_clear(&g);
}

/* A case's scheme x system pair: its name up to the second '/'. */
static void pair_name(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", name);
    char *s = strchr(buf, '/');
    if (s && (s = strchr(s + 1, '/'))) *s = '\0';
}

/* The table of a report without its last column (each pair's seconds), up to the legend. */
static char *table_rows(const char *report)
{
    char *out = calloc(strlen(report) + 1, 1), *o = out;
    for (const char *l = report; out && *l && strncmp(l, "ratios:", 7) != 0;) {
        size_t len = strcspn(l, "\n"), cut = len;
        while (cut > 0 && l[cut - 1] != ' ') cut--; /* the last column */
        memcpy(o, l, cut);
        o += cut;
        *o++ = '\n';
        l += len + (l[len] == '\n');
    }
    return out;
}

/* A check stopped at case k (its file is not the case expected, the way an interrupt or an
 * unreadable file stops it) reports the pairs whose every case it checked: its table is the
 * start of the whole check's (seconds aside), never a pair with some of its cases. Stops
 * in the middle of a pair among the first 15 cases, and at random cases. */
static void test_stopped_report(void)
{
    const char *const *names = slpi_golden_cases();
    int n = 0;
    while (names[n]) n++;
    const char **paths = calloc((size_t)n, sizeof *paths), **want = calloc((size_t)n, sizeof *want);
    char(*buf)[SLPI_PATH_MAX + 64] = calloc((size_t)n, sizeof *buf);
    TEST_CHECK(paths && want && buf);
    if (!paths || !want || !buf) return;
    for (int i = 0; i < n; i++) {
        char file[256];
        slpi_golden_file_name(names[i], file, sizeof file);
        snprintf(buf[i], sizeof buf[i], "%s/%s", golden_dir(), file);
        paths[i] = buf[i];
        want[i] = names[i];
    }
    char *full = NULL, *part = NULL;
    size_t nf = 0, np = 0;
    slpi_verdict v;
    slpi_error err = { 0, "" };
    FILE *f = open_memstream(&full, &nf);
    TEST_CHECK(f && slpi_golden_check_files(n, paths, want, f, &v, &err) == SLPI_OK);
    if (f) fclose(f);
    char *whole = full ? table_rows(full) : NULL;
    long extra = test_iters(3);
    for (int k = 1; whole && k < n; k++) {
        char pa[128], pb[128];
        pair_name(names[k - 1], pa, sizeof pa);
        pair_name(names[k], pb, sizeof pb);
        int mid = strcmp(pa, pb) == 0; /* case k is not its pair's first */
        if (!(mid && k < 15) && !(extra > 0 && test_rand_u64() % (uint64_t)n < 2)) continue;
        if (!(mid && k < 15)) extra--;
        want[k] = "not-this-case";
        f = open_memstream(&part, &np);
        int rc = f ? slpi_golden_check_files(n, paths, want, f, &v, &err) : SLPI_EINPUT;
        if (f) fclose(f);
        want[k] = names[k];
        char *rows = part ? table_rows(part) : NULL;
        TEST_CHECKF(rc != SLPI_OK, "stopped at case %d (%s): rc %d", k, names[k], rc);
        TEST_CHECKF(rows && strncmp(whole, rows, strlen(rows)) == 0,
                    "stopped at case %d (%s%s): the report is not the start of the whole one:\n%s", k, names[k],
                    mid ? ", inside its pair" : "", part ? part : "(none)");
        free(rows);
        free(part);
        part = NULL;
    }
    free(whole);
    free(full);
    free(buf);
    free(paths);
    free(want);
}

int main(void)
{
    test_start("t-golden", 0);
    char tmp[] = "/tmp/t-golden-XXXXXX";
    if (!mkdtemp(tmp)) return 2;
    test_coverage();
    slpi_verdict v = SLPI_VERDICT_FAIL;
    slpi_error err = { 0, "" };
    int rc = slpi_golden_check_dir(golden_dir(), stdout, &v, &err);
    TEST_CHECKF(rc == SLPI_OK && v == SLPI_VERDICT_PASS, "golden check: rc %d (%s), verdict %s", rc, err.msg,
                slpi_verdict_name(v));
    test_case_files(tmp);
    test_controls();
    test_stopped_report();
    rmdir(tmp);
    TEST_END();
}
