/* t-api-null-tools.c — the NULL rules of slpi-tools.h (its conventions block, slpi.h's
 * rules; docs/api.md#reference-tools), as tests/api/t-api-null.c checks slpi.h's: every
 * pointer argument a function's comment allows to be NULL, called with NULL, does what
 * the comment says, checked against the same call with the argument given (the same
 * quantity two ways) or against the documented effect. NULL_CASE(function, parameter)
 * marks each case; tests/api/t-api-doc.sh checks that the cases are exactly the (function,
 * parameter) pairs slpi-tools.h's NULL tags name. The golden cases are regenerated into
 * a temporary folder; about 3 s of CPU in all. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slpi-tools.h"
#include "testutil.h"

#define NULL_CASE(fn, param) /* a case of the rule "fn: NULL: param" */
#define CASE "rigid-body/isomp"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int c;
    while ((c = fgetc(f)) != EOF) fputc(c, m);
    fclose(m);
    fclose(f);
    return buf;
}

static char *case_file(const char *dir, char *buf, size_t n)
{
    char name[256];
    slpi_golden_file_name(CASE, name, sizeof name);
    snprintf(buf, n, "%s/%s", dir, name);
    return buf;
}

/* regenerate: only NULL (every case) and log NULL (no log); the case's file is the same
 * bytes either way */
static void regenerate(const char *all, const char *one)
{
    NULL_CASE(slpi_golden_regenerate, only)
    NULL_CASE(slpi_golden_regenerate, log)
    slpi_error err = { 0, "" };
    char *text = NULL, a[4096], b[4096];
    size_t len = 0;
    FILE *log = open_memstream(&text, &len);
    TEST_CHECKF(slpi_golden_regenerate(all, NULL, NULL, &err) == SLPI_OK, "every case: %s", err.msg);
    TEST_CHECKF(slpi_golden_regenerate(one, CASE, log, &err) == SLPI_OK, "one case: %s", err.msg);
    fclose(log);
    int ncases = 0, nfiles = 0;
    for (const char *const *c = slpi_golden_cases(); *c; c++) {
        char name[256], path[4096];
        slpi_golden_file_name(*c, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", all, name);
        ncases++;
        nfiles += access(path, R_OK) == 0;
    }
    TEST_CHECKF(ncases > 10 && nfiles == ncases, "only NULL wrote %d files of %d cases", nfiles, ncases);
    char *x = slurp(case_file(all, a, sizeof a)), *y = slurp(case_file(one, b, sizeof b));
    TEST_CHECKF(x && y && !strcmp(x, y), "%s: the file differs between every case and the one case", CASE);
    TEST_CHECKF(text && strstr(text, "wrote ") && !strchr(strchr(text, '\n') + 1, 'w'), "log: '%s'", text);
    free(x), free(y), free(text);
}

/* check_dir, check_files, api_golden: report NULL (no report), names NULL (any case),
 * report NULL when n is 0: the same verdict as with them */
static void check(const char *all)
{
    NULL_CASE(slpi_golden_check_dir, report)
    NULL_CASE(slpi_golden_check_files, names)
    NULL_CASE(slpi_golden_check_files, report)
    NULL_CASE(slpi_api_golden, dir)
    NULL_CASE(slpi_api_golden, report)
    slpi_error err = { 0, "" };
    slpi_verdict v1 = SLPI_VERDICT_UNABLE, v2 = SLPI_VERDICT_UNABLE, v3 = SLPI_VERDICT_UNABLE, v4 = SLPI_VERDICT_UNABLE;
    char *text = NULL;
    size_t len = 0;
    FILE *rep = open_memstream(&text, &len);
    TEST_CHECKF(slpi_golden_check_dir(all, NULL, &v1, &err) == SLPI_OK && v1 == SLPI_VERDICT_PASS, "check_dir: %s",
                err.msg);
    char path[4096];
    const char *paths[1] = { case_file(all, path, sizeof path) }, *names[1] = { CASE };
    TEST_CHECK(slpi_golden_check_files(1, paths, NULL, NULL, &v2, &err) == SLPI_OK && v2 == SLPI_VERDICT_PASS);
    TEST_CHECK(slpi_golden_check_files(1, paths, names, rep, &v3, &err) == SLPI_OK && v3 == SLPI_VERDICT_PASS);
    fclose(rep);
    TEST_CHECKF(text && strstr(text, "rigid-body"), "check_files' report: '%s'", text);
    free(text);
    const char *wrong[1] = { "heavy-top/isomp" }; /* names given: checked */
    TEST_CHECK(slpi_golden_check_files(1, paths, wrong, NULL, &v2, &err) == SLPI_EINPUT && strstr(err.msg, "expected"));
    int va = -1, vb = -1;
    char report[64] = "x", own[1 << 14] = "", listed[1 << 14] = "";
    TEST_CHECKF(slpi_api_golden(NULL, &va, NULL, 0) == SLPI_OK && va == SLPI_VERDICT_PASS, "%s", slpi_api_last_error());
    TEST_CHECK(slpi_api_golden(slpi_golden_dir(), &vb, report, sizeof report) == SLPI_OK && vb == va &&
               report[0] != 'x');
    /* NULL means the built-in cases: as many report lines as their folder's (not a check of none) */
    TEST_CHECK(slpi_api_golden(NULL, &va, own, sizeof own) == SLPI_OK &&
               slpi_api_golden(slpi_golden_dir(), &vb, listed, sizeof listed) == SLPI_OK);
    int lo = 0, ll = 0;
    for (const char *c = own; *c; c++) lo += *c == '\n';
    for (const char *c = listed; *c; c++) ll += *c == '\n';
    TEST_CHECKF(lo > 10 && lo == ll, "the built-in cases' report has %d lines, their folder's %d", lo, ll);
    v4 = v1;
    TEST_CHECK(v4 == SLPI_VERDICT_PASS);
}

/* check_dir on a folder of the user's own files: those files, whatever their names
 * (one case's file copied as mine.golden); a folder without .golden files is refused;
 * dir NULL checks the built-in cases of slpi_golden_dir() */
static void check_own_dir(const char *all)
{
    NULL_CASE(slpi_golden_check_dir, dir)
    char dir[] = "/tmp/t-api-null-tools-own-XXXXXX", src[4096], dst[4200];
    TEST_CHECK(mkdtemp(dir) != NULL);
    slpi_error err = { 0, "" };
    slpi_verdict v = SLPI_VERDICT_UNABLE;
    TEST_CHECK(slpi_golden_check_dir(dir, NULL, &v, &err) == SLPI_EINPUT && strstr(err.msg, "no .golden files"));
    char *text = slurp(case_file(all, src, sizeof src));
    snprintf(dst, sizeof dst, "%s/mine.golden", dir);
    FILE *f = fopen(dst, "w");
    TEST_CHECK(text && f && fputs(text, f) >= 0 && fclose(f) == 0);
    free(text);
    char *rep = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&rep, &len);
    TEST_CHECKF(slpi_golden_check_dir(dir, m, &v, &err) == SLPI_OK && v == SLPI_VERDICT_PASS, "%s", err.msg);
    fclose(m);
    TEST_CHECKF(rep && strstr(rep, "rigid-body") && !strstr(rep, "heavy-top"), "own folder's report: '%s'", rep);
    free(rep);
    TEST_CHECKF(slpi_golden_check_dir(NULL, NULL, &v, &err) == SLPI_OK && v == SLPI_VERDICT_PASS, "%s", err.msg);
    unlink(dst);
    rmdir(dir);
}

/* verify: noise_file NULL (the header's noise), golden_dir NULL, report NULL: the verdict
 * and row counts of the call with them given */
static void verify(const char *dir)
{
    NULL_CASE(slpi_verify_file, noise_file)
    NULL_CASE(slpi_verify_file, golden_dir)
    NULL_CASE(slpi_verify_file, report)
    NULL_CASE(slpi_verify_run, report)
    NULL_CASE(slpi_verify_run_files, report)
    NULL_CASE(slpi_api_verify_json, noise_file)
    char traj[4096], noise[4096], json[4096], cmd[16384];
    snprintf(traj, sizeof traj, "%s/t.tsv", dir);
    snprintf(noise, sizeof noise, "%s/t.noise", dir);
    snprintf(json, sizeof json, "%s/t.json", dir);
    /* the trajectory of 30 steps and the noise file of the same run, by the command */
    const char *bin = getenv("SLPI_BIN") ? getenv("SLPI_BIN") : "build/slpi";
    snprintf(cmd, sizeof cmd,
             "'%s' run --preset iso/rigid-body/trajectories steps=30 -q --hex -o '%s' && "
             "'%s' noise --preset iso/rigid-body/trajectories steps=30 --output '%s'",
             bin, traj, bin, noise);
    TEST_CHECKF(system(cmd) == 0, "%s", cmd);
    slpi_error err = { 0, "" };
    char *text = NULL;
    size_t len = 0;
    slpi_verify_result a, b, c;
    FILE *rep = open_memstream(&text, &len);
    TEST_CHECKF(slpi_verify_file(traj, NULL, NULL, -1, NULL, &a, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECKF(slpi_verify_file(traj, noise, slpi_golden_dir(), -1, rep, &b, &err) == SLPI_OK, "%s", err.msg);
    fclose(rep);
    TEST_CHECKF(a.verdict == SLPI_VERDICT_PASS && b.verdict == a.verdict && a.rows == 31 &&
                    b.rows_pass == a.rows_pass && text && strstr(text, "verdict"),
                "verify: %d %d, %ld rows, report '%s'", a.verdict, b.verdict, a.rows, text);
    free(text);
    slpi_verify_opts o;
    slpi_verify_opts_init(&o);
    TEST_CHECK(slpi_verify_run(traj, &o, NULL, &c, &err) == SLPI_OK && c.verdict == SLPI_VERDICT_PASS && c.rows == 31);
    /* slpi_verify_file is the global comparison alone: slpi_verify_run with local = 0 */
    slpi_verify_result d;
    o.local = 0;
    TEST_CHECK(slpi_verify_run(traj, &o, NULL, &d, &err) == SLPI_OK);
    TEST_CHECKF(c.local.rows == 31 && d.local.rows == 0 && a.local.rows == 0 && a.rows == d.rows &&
                    a.rows_pass == d.rows_pass && a.verdict == d.verdict && a.state.hi == d.state.hi,
                "slpi_verify_file: local rows %ld (both comparisons: %ld, global alone: %ld)", a.local.rows,
                c.local.rows, d.local.rows);
    /* slpi_verify_run_files with report NULL: the same result as slpi_verify_run */
    slpi_verify_result e;
    const char *one[1] = { traj };
    o.local = 1;
    TEST_CHECK(slpi_verify_run_files(1, one, &o, NULL, &e, &err) == SLPI_OK && e.verdict == c.verdict &&
               e.local.rows == c.local.rows && e.stats.rows == c.stats.rows && e.stats.p_value == c.stats.p_value);
    TEST_CHECKF(slpi_api_verify_json(traj, NULL, -1, json) == SLPI_OK, "%s", slpi_api_last_error());
    char *j = slurp(json);
    TEST_CHECKF(j && strstr(j, "\"verdict\": \"PASS\""), "json: %s", j);
    free(j);
}

/* converge: kind NULL is "strong", indep NULL the same scheme: the numbers of the call
 * that names them */
static void converge(void)
{
    NULL_CASE(slpi_api_converge, kind)
    NULL_CASE(slpi_api_converge, indep)
    slpi_problem *p = slpi_problem_new("iso/rigid-body/strong");
    double h1[2], e1[2], s1[2], f1[3], h2[2], e2[2], s2[2], f2[3];
    TEST_CHECKF(slpi_api_converge(p, NULL, 2, 3, 5, 8, 0, 10, NULL, h1, e1, s1, f1) == SLPI_OK, "%s",
                slpi_api_last_error());
    TEST_CHECK(slpi_api_converge(p, "strong", 2, 3, 5, 8, 0, 10, NULL, h2, e2, s2, f2) == SLPI_OK);
    TEST_CHECK(!memcmp(h1, h2, sizeof h1) && !memcmp(e1, e2, sizeof e1) && !memcmp(f1, f2, sizeof f1) && e1[0] > 0);
    TEST_CHECK(slpi_api_converge(p, "strong", 2, 3, 5, 8, 0, 10, "tmk", h2, e2, s2, f2) == SLPI_OK &&
               memcmp(e1, e2, sizeof e1) != 0); /* indep given: another reference */
    slpi_problem_free(p);
}

/* slpi_api_mlmc_json: NULL phi is "sin2pi" (the same estimate and error as named, "x1"
 * another), NULL checkpoint and resume run without either (the same as with a checkpoint
 * written) */
static void mlmc_json(void)
{
    NULL_CASE(slpi_api_mlmc_json, phi)
    NULL_CASE(slpi_api_mlmc_json, checkpoint)
    NULL_CASE(slpi_api_mlmc_json, resume)
    slpi_problem *p = slpi_problem_new("iso/rigid-body/weak");
    char dir[] = "/tmp/t-api-null-tools-XXXXXX", a[64], b[64], c[64], ck[64];
    TEST_CHECK(p && mkdtemp(dir));
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    snprintf(c, sizeof c, "%s/c.json", dir);
    snprintf(ck, sizeof ck, "%s/m.ck", dir);
    TEST_CHECKF(slpi_api_mlmc_json(p, NULL, 0.05, 2, 6, 40, 1.0, 0, NULL, NULL, 1, a) == SLPI_OK, "%s",
                slpi_api_last_error());
    TEST_CHECK(slpi_api_mlmc_json(p, "sin2pi", 0.05, 2, 6, 40, 1.0, 0, ck, NULL, 1, b) == SLPI_OK);
    TEST_CHECK(slpi_api_mlmc_json(p, "x1", 0.05, 2, 6, 40, 1.0, 0, NULL, NULL, 1, c) == SLPI_OK);
    char *ja = slurp(a), *jb = slurp(b), *jc = slurp(c);
    /* the estimate and its error (the JSON's seconds differ from run to run) */
    const char *ea = ja ? strstr(ja, "\"estimate\"") : NULL, *eb = jb ? strstr(jb, "\"estimate\"") : NULL;
    const char *ec = jc ? strstr(jc, "\"estimate\"") : NULL;
    TEST_CHECKF(ea && eb && ec && !strncmp(ea, eb, 80) && strncmp(ea, ec, 80) != 0, "NULL phi: %.80s | %.80s",
                ea ? ea : "no JSON", eb ? eb : "no JSON");
    free(ja);
    free(jb);
    free(jc);
    remove(a);
    remove(b);
    remove(c);
    remove(ck);
    rmdir(dir);
    slpi_problem_free(p);
}

/* slpi_api_converge_json: NULL kind, phi and fit are "strong", "sin2pi" and "wls" (the same
 * bytes as named; "ols" and drop_coarse change the slope and the study), NULL indep the same scheme (another file than with one named); the JSON holds
 * slpi_api_converge's numbers */
static void converge_json(void)
{
    NULL_CASE(slpi_api_converge_json, kind)
    NULL_CASE(slpi_api_converge_json, indep)
    NULL_CASE(slpi_api_converge_json, phi)
    NULL_CASE(slpi_api_converge_json, fit)
    NULL_CASE(slpi_api_converge_json, checkpoint)
    NULL_CASE(slpi_api_converge_json, resume)
    slpi_problem *p = slpi_problem_new("iso/rigid-body/weak");
    char dir[] = "/tmp/t-api-null-tools-XXXXXX", a[64], b[64];
    TEST_CHECK(p && mkdtemp(dir));
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    TEST_CHECKF(slpi_api_converge_json(p, NULL, 2, 3, 5, 8, 0, 0, 10, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 1, a) ==
                    SLPI_OK,
                "%s", slpi_api_last_error());
    TEST_CHECK(slpi_api_converge_json(p, "strong", 2, 3, 5, 8, 0, 0, 10, NULL, "sin2pi", 0, "wls", 0, NULL, 0, NULL, 2,
                                      b) == SLPI_OK);
    char *ja = slurp(a), *jb = slurp(b);
    TEST_CHECKF(ja && jb && !strcmp(ja, jb) && strstr(ja, "\"kind\": \"strong\"") && strstr(ja, "\"fit\": \"wls\""),
                "%s", ja ? ja : "(none)");
    double h[2], e[2], se[2], fit[3];
    char want[64];
    TEST_CHECK(slpi_api_converge(p, "strong", 2, 3, 5, 8, 0, 10, NULL, h, e, se, fit) == SLPI_OK);
    snprintf(want, sizeof want, "\"e\": %.17g", e[1]);
    TEST_CHECKF(ja && strstr(ja, want), "%s not in the JSON", want);
    free(jb);
    /* a checkpoint written every 2 batches of 8, then resumed from: the same JSON */
    char ck[64];
    snprintf(ck, sizeof ck, "%s/c.ckpt", dir);
    TEST_CHECK(slpi_api_converge_json(p, NULL, 2, 3, 5, 8, 0, 0, 10, NULL, NULL, 0, NULL, 0, ck, 2, NULL, 1, b) ==
               SLPI_OK);
    jb = slurp(b);
    TEST_CHECK(jb && ja && !strcmp(ja, jb));
    free(jb);
    char *cp = slurp(ck);
    TEST_CHECKF(cp && strstr(cp, "# slpi-converge-checkpoint 2"), "%s", cp ? cp : "(no checkpoint)");
    free(cp);
    TEST_CHECK(slpi_api_converge_json(p, NULL, 2, 3, 5, 8, 0, 0, 10, NULL, NULL, 0, NULL, 0, NULL, 0, ck, 1, b) ==
               SLPI_OK);
    jb = slurp(b);
    TEST_CHECK(jb && ja && !strcmp(ja, jb));
    free(jb);
    TEST_CHECK(slpi_api_converge_json(p, NULL, 2, 3, 5, 9, 0, 0, 10, NULL, NULL, 0, NULL, 0, NULL, 0, ck, 1, b) ==
               SLPI_EINPUT);
    TEST_CHECK(slpi_api_converge_json(p, NULL, 2, 3, 5, 8, 0, 0, 10, NULL, NULL, 0, NULL, 0, ck, -1, NULL, 1, b) ==
                   SLPI_EINPUT &&
               strstr(slpi_api_last_error(), "checkpoint_every=-1"));
    unlink(ck);
    TEST_CHECK(slpi_api_converge_json(p, "weak", 2, 3, 5, 8, 0, 0, 10, NULL, "x1", 0, NULL, 0, NULL, 0, NULL, 1, b) ==
               SLPI_OK);
    jb = slurp(b);
    TEST_CHECK(jb && strstr(jb, "\"phi\": \"x1\"") && !strstr(ja, "\"phi\": \"x1\""));
    free(jb);
    TEST_CHECK(slpi_api_converge_json(p, "strong", 2, 3, 5, 8, 0, 0, 10, "tmk", NULL, 0, NULL, 0, NULL, 0, NULL, 1,
                                      b) == SLPI_OK);
    jb = slurp(b);
    TEST_CHECK(jb && strcmp(ja, jb) != 0 && strstr(jb, "tmk"));
    free(ja);
    free(jb);
    TEST_CHECK(slpi_api_converge_json(p, "weak", 2, 3, 5, 8, 0, 0, 10, NULL, "x9", 0, NULL, 0, NULL, 0, NULL, 1, b) ==
                   SLPI_EINPUT &&
               strstr(slpi_api_last_error(), "unknown name 'x9'"));
    TEST_CHECK(slpi_api_converge_json(p, "strong", 2, 3, 5, 8, 0, 0, 10, NULL, NULL, 0, "ls", 0, NULL, 0, NULL, 1, b) ==
                   SLPI_EINPUT &&
               strstr(slpi_api_last_error(), "fit 'ls'"));
    TEST_CHECK(slpi_api_converge_json(p, "strong", 2, 4, 5, 8, 0, 0, 10, NULL, NULL, 0, NULL, 31, NULL, 0, NULL, 1,
                                      b) == SLPI_EINPUT &&
               strstr(slpi_api_last_error(), "drop_coarse=31"));
    TEST_CHECK(slpi_api_converge_json(p, "strong", 2, 4, 6, 8, 0, 0, 10, NULL, NULL, 0, "ols", 1, NULL, 0, NULL, 1,
                                      b) == SLPI_OK);
    jb = slurp(b);
    TEST_CHECKF(jb && strstr(jb, "\"fit\": \"ols\"") && strstr(jb, "\"drop_coarse\": 1") &&
                    strstr(jb, "\"levels_fitted\": 2"),
                "%s", jb ? jb : "(none)");
    free(jb);
    unlink(a);
    unlink(b);
    rmdir(dir);
    slpi_problem_free(p);
}

/* slpi_api_mlmc_test_json: NULL phi is "sin2pi" (the same levels as named, "x1" others),
 * NULL checkpoint and resume run without either (the same levels as with a checkpoint
 * written, and as resumed from it) */
static void mlmc_test_json(void)
{
    NULL_CASE(slpi_api_mlmc_test_json, phi)
    NULL_CASE(slpi_api_mlmc_test_json, checkpoint)
    NULL_CASE(slpi_api_mlmc_test_json, resume)
    slpi_problem *p = slpi_problem_new("iso/rigid-body/weak");
    char dir[] = "/tmp/t-api-null-tools-XXXXXX", f[4][64], ck[64];
    const double eps[2] = { 0.02, 0.01 };
    TEST_CHECK(p && mkdtemp(dir));
    for (int i = 0; i < 4; i++) snprintf(f[i], sizeof f[i], "%s/%d.json", dir, i);
    snprintf(ck, sizeof ck, "%s/t.ck", dir);
    TEST_CHECKF(slpi_api_mlmc_test_json(p, NULL, 2, 4, 50, eps, 2, NULL, NULL, 1, f[0]) == SLPI_OK, "%s",
                slpi_api_last_error());
    TEST_CHECK(slpi_api_mlmc_test_json(p, "sin2pi", 2, 4, 50, eps, 2, ck, NULL, 1, f[1]) == SLPI_OK);
    TEST_CHECK(slpi_api_mlmc_test_json(p, "sin2pi", 2, 4, 50, eps, 2, NULL, ck, 1, f[2]) == SLPI_OK);
    TEST_CHECK(slpi_api_mlmc_test_json(p, "x1", 2, 4, 50, eps, 2, NULL, NULL, 1, f[3]) == SLPI_OK);
    char *j[4];
    const char *lv[4];
    for (int i = 0; i < 4; i++) {
        j[i] = slurp(f[i]);
        lv[i] = j[i] ? strstr(j[i], "\"levels\"") : NULL;
    }
    /* the levels up to their first seconds (which differ from run to run) */
    TEST_CHECKF(lv[0] && lv[1] && lv[2] && lv[3] && !strncmp(lv[0], lv[1], 300) && !strncmp(lv[0], lv[2], 300) &&
                    strncmp(lv[0], lv[3], 300) != 0,
                "NULL phi, checkpoint or resume: %.300s | %.300s", lv[0] ? lv[0] : "no JSON",
                lv[1] ? lv[1] : "no JSON");
    for (int i = 0; i < 4; i++) {
        free(j[i]);
        remove(f[i]);
    }
    remove(ck);
    rmdir(dir);
    slpi_problem_free(p);
}

int main(void)
{
    test_start("t-api-null-tools", 1);
    char all[] = "/tmp/t-api-null-tools-XXXXXX", one[] = "/tmp/t-api-null-tools-XXXXXX";
    TEST_CHECK(mkdtemp(all) && mkdtemp(one));
    regenerate(all, one);
    check(all);
    check_own_dir(all);
    verify(one);
    converge();
    converge_json();
    mlmc_json();
    mlmc_test_json();
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", all, one);
    TEST_CHECK(system(cmd) == 0);
    TEST_END();
}
