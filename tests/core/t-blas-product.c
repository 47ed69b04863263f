/* t-blas-product.c — the complex product's choice (core/blas-product.c,
 * docs/install.md#products), its logic and not its timings: SLPI_ZPRODUCT's values, the
 * decision, the cache file's text written and read back (a cut, an edit, another key,
 * garbage after it: refused; times that tie to the nanosecond read back as written), and
 * whole processes (children of this program, each with its own SLPI_CACHE_DIR): the first
 * measures and caches, the next reads, a planted file
 * is obeyed whatever the timing would say, a foreign file at the cache's path is kept as it
 * is, SLPI_ZPRODUCT wins and a bad value fails the su(N) kernels, four racing first
 * processes agree with the one file, and a folder that cannot be made caches nothing. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "slpi.h"
#include "testutil.h"
#include "core/blas.h"
#include "fast/sun.h"

/* A child's answer: "CHOICE<TAB>WHY<TAB>SUN_INIT_RC". */
static void child_report(void)
{
    slpi_fast_sun u;
    slpi_error err = { 0, "" };
    const int rc = slpi_fast_sun_init(&u, 4, NULL, NULL, &err);
    if (rc == SLPI_OK) slpi_fast_sun_clear(&u);
    printf("%d\t%s\t%d\t%s\n", slpi_blas_zproduct(), slpi_blas_zproduct_why(), rc, err.msg);
}

/* Start a child of this program with SLPI_CACHE_DIR=dir and SLPI_ZPRODUCT=env (NULL:
 * unset); its output is read from *out. */
static pid_t spawn(const char *self, const char *dir, const char *env, FILE **out)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        setenv("SLPI_CACHE_DIR", dir, 1);
        if (env)
            setenv("SLPI_ZPRODUCT", env, 1);
        else
            unsetenv("SLPI_ZPRODUCT");
        execl(self, self, "--report", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    *out = fdopen(fd[0], "r");
    return pid;
}

typedef struct {
    int choice, rc;
    char why[1024], msg[600];
} answer;

static answer finish(pid_t pid, FILE *f)
{
    answer a = { -9, -9, "", "" };
    char line[2048] = "";
    if (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *why = strchr(line, '\t'), *rc = why ? strchr(why + 1, '\t') : NULL,
             *msg = rc ? strchr(rc + 1, '\t') : NULL;
        if (msg) {
            *why++ = *rc++ = *msg++ = 0;
            a.choice = atoi(line);
            a.rc = atoi(rc);
            snprintf(a.why, sizeof a.why, "%s", why);
            snprintf(a.msg, sizeof a.msg, "%s", msg);
        }
    }
    if (f) fclose(f);
    int st = 0;
    waitpid(pid, &st, 0);
    TEST_CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
    return a;
}

static answer run_child(const char *self, const char *dir, const char *env)
{
    FILE *f = NULL;
    pid_t pid = spawn(self, dir, env, &f);
    return finish(pid, f);
}

/* The one cache file in dir (its path into path); the number of entries not starting '.'
 * is returned, and hidden temporaries are counted in *hidden. */
static int cache_file(const char *dir, char *path, size_t n, int *hidden)
{
    DIR *d = opendir(dir);
    int count = 0;
    *hidden = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (e->d_name[0] == '.') {
            (*hidden)++;
            continue;
        }
        count++;
        snprintf(path, n, "%s/%s", dir, e->d_name);
    }
    if (d) closedir(d);
    return count;
}

/* Times that tie or nearly tie (the two products can time alike to the nanosecond): the
 * file's text reads back as the choice it was written with, and its times to the
 * nanosecond. Fixed cases around 0.193 ms, then random ones. */
static void near_ties(void)
{
    const char *key = "AuthenticAMD family 25 model 17; OpenBLAS 0.3.29 DYNAMIC_ARCH; kernel Zen";
    const double base = 1.93e-4;
    const double fixed[] = { 0, -1e-18, 1e-18, -0.4e-9, 0.4e-9, -0.5e-9, 0.5e-9, -0.6e-9, 0.6e-9, -1e-9, 1e-9 };
    const int n_fixed = (int)(sizeof fixed / sizeof fixed[0]), n = n_fixed + (int)test_iters(2000);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const double tz = i < n_fixed ? base : test_rand_uniform(1e-5, 1e-2);
        const double t3 = i < n_fixed ? base + fixed[i] : tz + test_rand_uniform(-2e-9, 2e-9);
        char text[512];
        double a = 0, b = 0;
        slpi_blas_zproduct_format(text, sizeof text, key, tz, t3);
        const int got = slpi_blas_zproduct_parse(text, key, &a, &b);
        if (got != slpi_blas_zproduct_decide(tz, t3) || fabs(a - tz) > 0.5e-9 + 1e-15 ||
            fabs(b - t3) > 0.5e-9 + 1e-15) {
            if (bad++ < 3)
                printf("  near tie %.17g, %.17g: read %d, decided %d:\n%s", tz, t3, got,
                       slpi_blas_zproduct_decide(tz, t3), text);
        }
    }
    TEST_CHECKF(bad == 0, "%d of %d near ties did not read back as written", bad, n);
}

static void check_pure(void)
{
    TEST_CHECK(slpi_blas_zproduct_env(NULL) == -1 && slpi_blas_zproduct_env("") == -1);
    TEST_CHECK(slpi_blas_zproduct_env("zgemm") == 0 && slpi_blas_zproduct_env("zgemm3m") == 1);
    TEST_CHECK(slpi_blas_zproduct_env("ZGEMM") == -2 && slpi_blas_zproduct_env("3m") == -2 &&
               slpi_blas_zproduct_env("zgemm3m ") == -2);
    TEST_CHECK(slpi_blas_zproduct_decide(1.0, 0.5) == 1 && slpi_blas_zproduct_decide(0.5, 1.0) == 0);
    TEST_CHECK(slpi_blas_zproduct_decide(0.5, 0.5) == 0);
    near_ties();

    const char *key = "GenuineIntel family 6 model 143; OpenBLAS 0.3.21 DYNAMIC_ARCH; kernel SkylakeX";
    char text[512], cut[512];
    double a = 0, b = 0;
    for (int k = 0; k < 2; k++) {
        const double tz = k ? 3.1e-4 : 2.4e-4, t3 = k ? 2.5e-4 : 2.9e-4;
        slpi_blas_zproduct_format(text, sizeof text, key, tz, t3);
        TEST_CHECKF(slpi_blas_zproduct_parse(text, key, &a, &b) == k, "round trip %d:\n%s", k, text);
        TEST_CHECKF(fabs(a - tz) < 1e-9 && fabs(b - t3) < 1e-9, "times %g %g", a, b);
        TEST_CHECK(slpi_blas_zproduct_parse(text, "AuthenticAMD family 25 model 17; x; kernel Zen", &a, &b) == -1);
        const size_t len = strlen(text);
        int torn = 0;
        for (size_t c = 0; c < len - 1; c++) { /* every cut but the last newline's */
            memcpy(cut, text, c);
            cut[c] = 0;
            torn += slpi_blas_zproduct_parse(cut, key, &a, &b) != -1;
        }
        TEST_CHECKF(torn == 0, "%d cuts of the cache text were read as whole", torn);
        snprintf(cut, sizeof cut, "%sextra\n", text);
        TEST_CHECK(slpi_blas_zproduct_parse(cut, key, &a, &b) == -1);
        /* an edited choice that the times contradict */
        const char *c = strstr(text, "choice "), *eol = c ? strchr(c, '\n') : NULL;
        TEST_CHECK(eol != NULL);
        if (eol) snprintf(cut, sizeof cut, "%.*schoice %s%s", (int)(c - text), text, k ? "zgemm" : "zgemm3m", eol);
        TEST_CHECKF(slpi_blas_zproduct_parse(cut, key, &a, &b) == -1, "edited choice read:\n%s", cut);
    }
}

static void check_processes(const char *self)
{
    char dir[] = "/tmp/slpi-t-blas-product-XXXXXX", path[4200] = "", file[1024];
    TEST_CHECK(mkdtemp(dir) != NULL);
    int hidden = 0;

    answer first = run_child(self, dir, NULL);
    printf("  first: %d (%s)\n", first.choice, first.why);
    TEST_CHECKF(first.choice == 0 || first.choice == 1, "first child: choice %d", first.choice);
    TEST_CHECKF(!strncmp(first.why, "measured:", 9) && strstr(first.why, "cached for later runs"), "first: %s",
                first.why);
    TEST_CHECK(first.rc == SLPI_OK);
    TEST_CHECKF(cache_file(dir, path, sizeof path, &hidden) == 1 && hidden == 0, "cache folder: %d hidden", hidden);
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(file, 1, sizeof file - 1, f) : 0;
    file[got] = 0;
    if (f) fclose(f);
    const char *k0 = strstr(file, "key "), *k1 = k0 ? strchr(k0, '\n') : NULL;
    char key[300] = "";
    if (k1) snprintf(key, sizeof key, "%.*s", (int)(k1 - k0 - 4), k0 + 4);
    double tz = 0, t3 = 0;
    TEST_CHECKF(slpi_blas_zproduct_parse(file, key, &tz, &t3) == first.choice, "the file says otherwise:\n%s", file);

    answer second = run_child(self, dir, NULL);
    TEST_CHECKF(second.choice == first.choice && !strncmp(second.why, "cached:", 7), "second: %d %s", second.choice,
                second.why);

    /* a planted file of this key with the other choice is obeyed: the file decides */
    char planted[512];
    slpi_blas_zproduct_format(planted, sizeof planted, key, first.choice ? 1e-4 : 1e-3, first.choice ? 1e-3 : 1e-4);
    f = fopen(path, "w");
    fputs(planted, f);
    fclose(f);
    answer third = run_child(self, dir, NULL);
    TEST_CHECKF(third.choice == !first.choice && !strncmp(third.why, "cached:", 7), "planted: %d %s", third.choice,
                third.why);

    /* SLPI_ZPRODUCT wins; a bad value fails the su(N) kernels with the reason */
    for (int m3 = 0; m3 <= 1; m3++) {
        answer e = run_child(self, dir, m3 ? "zgemm3m" : "zgemm");
        TEST_CHECKF(e.choice == m3 && !strcmp(e.why, "set by SLPI_ZPRODUCT") && e.rc == SLPI_OK, "env %d: %d %s", m3,
                    e.choice, e.why);
    }
    answer bad = run_child(self, dir, "fastest");
    TEST_CHECKF(bad.choice == -1 && bad.rc == SLPI_EINPUT && strstr(bad.msg, "SLPI_ZPRODUCT is 'fastest'") &&
                    strstr(bad.msg, "zgemm or zgemm3m"),
                "bad env: %d rc %d: %s", bad.choice, bad.rc, bad.msg);

    /* a foreign file at the cache's path: measured, and the file kept byte for byte */
    const char *foreign = "not a cache file\n";
    f = fopen(path, "w");
    fputs(foreign, f);
    fclose(f);
    answer odd = run_child(self, dir, NULL);
    f = fopen(path, "r");
    got = f ? fread(file, 1, sizeof file - 1, f) : 0;
    file[got] = 0;
    if (f) fclose(f);
    TEST_CHECKF((odd.choice == 0 || odd.choice == 1) && strstr(odd.why, "unreadable") && !strcmp(file, foreign),
                "foreign file: %d %s; file now '%s'", odd.choice, odd.why, file);
    TEST_CHECKF(cache_file(dir, path, sizeof path, &hidden) == 1 && hidden == 0, "temporaries left: %d", hidden);
    unlink(path);

    /* four first processes at once: all take the one file's choice */
    FILE *o[4];
    pid_t p[4];
    for (int i = 0; i < 4; i++) p[i] = spawn(self, dir, NULL, &o[i]);
    answer r[4];
    for (int i = 0; i < 4; i++) r[i] = finish(p[i], o[i]);
    TEST_CHECKF(cache_file(dir, path, sizeof path, &hidden) == 1 && hidden == 0, "race: %d temporaries", hidden);
    f = fopen(path, "r");
    got = f ? fread(file, 1, sizeof file - 1, f) : 0;
    file[got] = 0;
    if (f) fclose(f);
    const int winner = slpi_blas_zproduct_parse(file, key, &tz, &t3);
    for (int i = 0; i < 4; i++)
        TEST_CHECKF(r[i].choice == winner, "race %d: %d, the file %d (%s)", i, r[i].choice, winner, r[i].why);
    unlink(path);
    rmdir(dir);

    /* a cache folder that cannot be made: measured each time, nothing written */
    answer none = run_child(self, "/proc/slpi-no-such-folder/x", NULL);
    TEST_CHECKF((none.choice == 0 || none.choice == 1) && strstr(none.why, "not cached"), "no folder: %d %s",
                none.choice, none.why);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--report")) {
        child_report();
        return 0;
    }
    test_start("t-blas-product", 1);
    check_pure();
    check_processes(argv[0]);
    TEST_END();
}
