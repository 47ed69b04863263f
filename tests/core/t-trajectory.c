/* t-trajectory.c — the trajectory TSV format: random rows written with %.17g and %a read
 * back bit for bit, the provenance and problem header read back, balls "mid +/- rad",
 * and malformed files (empty, wrong format, wrong version, no column line, extra or
 * missing column, NaN, garbage, truncated last line, decreasing step, a '#' line among
 * the rows) each rejected with file:line; the streaming reader (slpi_traj_open/next)
 * gives the rows slpi_traj_read holds, with their lines and the header's; a signal that
 * cuts the reading of a FIFO (Ctrl-C while verify waits for a port's rows), inside a line
 * or between lines, is reported as the interrupt, not as a truncated line. */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "slpi.h"
#include "testutil.h"


static double random_double(void)
{
    /* all binades, both signs, subnormals included */
    uint64_t bits = test_rand_u64();
    double d;
    memcpy(&d, &bits, sizeof d);
    return isfinite(d) ? d : test_rand_uniform(-1, 1);
}

static void bad(const char *text, const char *must)
{
    slpi_traj t;
    slpi_error err = { 0, "" };
    const char *path = test_temp_file(text);
    int rc = slpi_traj_read(path, &t, &err);
    TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, must) && strstr(err.msg, path), "'%s': rc %d '%s' (wanted '%s')",
                text, rc, err.msg, must);
    test_temp_remove(path);
}

static void on_alarm(int sig)
{
    (void)sig;
    slpi_interrupt_request(); /* as core/interrupt.c's SIGINT handler: no SA_RESTART */
}

/* A FIFO whose writer sends `text` and then holds it open: a row, then SIGALRM (a second
 * later) cuts the reader's wait for the next bytes; the reader must say "interrupted". */
static void cut_fifo(const char *text, const char *what)
{
    char dir[] = "/tmp/t-trajectory-XXXXXX", path[64];
    if (!mkdtemp(dir)) {
        TEST_CHECKF(0, "%s: mkdtemp", what);
        return;
    }
    snprintf(path, sizeof path, "%s/rows", dir);
    pid_t child = -1;
    if (mkfifo(path, 0600) == 0 && (child = fork()) == 0) {
        FILE *f = fopen(path, "w");
        if (f && fputs(text, f) >= 0 && fflush(f) == 0) pause();
        _exit(0);
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, &old);
    slpi_traj_reader *r = NULL;
    slpi_error err = { 0, "" };
    slpi_traj_row row;
    int got = child > 0 && slpi_traj_open(&r, path, &err) == SLPI_OK ? slpi_traj_next(r, &row, &err) : -2;
    TEST_CHECKF(got == 1 && row.step == 0, "%s: the first row: %d %s", what, got, err.msg);
    alarm(1);
    got = got == 1 ? slpi_traj_next(r, &row, &err) : -2;
    alarm(0);
    TEST_CHECKF(got == -1 && err.code == SLPI_EINTR && strstr(err.msg, "interrupted while reading it, at line 4"),
                "%s: got %d, code %d, '%s'", what, got, err.code, err.msg);
    slpi_traj_close(r);
    sigaction(SIGALRM, &old, NULL);
    slpi_interrupt_clear();
    if (child > 0) kill(child, SIGTERM), waitpid(child, NULL, 0);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_start("t-trajectory", 3);
    slpi_problem p;
    slpi_error err = { 0, "" };
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    const char *cols[] = { "x1", "x2", "x3", "H0" };
    for (int hex = 0; hex <= 1; hex++) {
        char path[64];
        strcpy(path, "/tmp/slpi-t-traj-XXXXXX");
        FILE *f = fdopen(mkstemp(path), "w");
        TEST_CHECK(slpi_traj_write_header(f, &p, "fast", 4, cols) == SLPI_OK);
        long rows = test_iters(500);
        double *v = malloc((size_t)rows * 5 * sizeof(double));
        for (long r = 0; r < rows; r++) {
            for (int i = 0; i < 5; i++) v[r * 5 + i] = random_double();
            slpi_traj_write_row(f, r * 3, v[r * 5], 4, v + r * 5 + 1, hex);
        }
        fclose(f);
        slpi_traj t;
        TEST_CHECKF(slpi_traj_read(path, &t, &err) == SLPI_OK, "%s", err.msg);
        TEST_CHECK(t.ncols == 4 && t.nrows == rows);
        TEST_CHECK(slpi_traj_column(&t, "H0") == 3 && slpi_traj_column(&t, "x9") == -1);
        TEST_CHECK(slpi_traj_header(&t, "system") && strcmp(slpi_traj_header(&t, "system"), "rigid-body") == 0);
        TEST_CHECK(slpi_traj_header(&t, "arith") && strcmp(slpi_traj_header(&t, "arith"), "fast") == 0);
        TEST_CHECK(slpi_traj_header(&t, "mpfr") != NULL && slpi_traj_header(&t, "openblas") != NULL);
        TEST_CHECK(slpi_traj_header(&t, "slpi_version") &&
                   strcmp(slpi_traj_header(&t, "slpi_version"), SLPI_VERSION) == 0);
        int exact = 1;
        for (long r = 0; r < rows && r < t.nrows; r++) {
            exact &= t.step[r] == r * 3;
            exact &= memcmp(t.mid + r * 5, v + r * 5, 5 * sizeof(double)) == 0;
            for (int i = 0; i < 5; i++) exact &= t.rad[r * 5 + i] == 0.0;
        }
        TEST_CHECKF(exact, "round trip not bit-exact (hex=%d)", hex);
        slpi_traj_free(&t);
        free(v);
        unlink(path);
    }

    /* balls */
    const char *path =
        test_temp_file("# slpi-trajectory 1\n# arith=ref\nstep\tt\tx1\n0\t0\t0.5 +/- 1e-40\n1\t0.25\t-0.25\n");
    slpi_traj t;
    TEST_CHECKF(slpi_traj_read(path, &t, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(t.nrows == 2 && t.mid[1] == 0.5 && t.rad[1] == 1e-40 && t.mid[3] == -0.25 && t.rad[3] == 0.0);
    slpi_traj_free(&t);
    test_temp_remove(path);

    bad("", "empty file");
    bad("step\tt\n", ":1: not an slpi trajectory");
    bad("# slpi-trajectory 2\nstep\tt\n", ":1: unsupported version");
    bad("# slpi-trajectory 1\n# a=b\n0\t0\t1\n", ":3: expected the column line");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\t1\t2\n", ":3: 4 columns, the header names 3");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\n", ":3: 2 columns");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\tnan\n", ":3: column 3 (x)");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\tinf\n", ":3: column 3 (x)");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\t1.5q\n", ":3: column 3 (x)");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\t1\n1\t0.1\t2", ":4: truncated line");
    bad("# slpi-trajectory 1\nstep\tt\tx\n1\t0\t1\n1\t0.1\t2\n", ":4: step '1'");
    bad("# slpi-trajectory 1\nstep\tt\tx\n-1\t0\t1\n", ":3: step '-1'");
    bad("# slpi-trajectory 1\n", "no column line");
    bad("# slpi-trajectory 1\nstep\tt\tx\ty\tx\n0\t0\t1\t2\t3\n", ":2: columns 3 and 5 are both named 'x'");
    bad("# slpi-trajectory 1\nstep\tt\tt\n0\t0\t1\n", ":2: columns 2 and 3 are both named 't'");
    bad("# slpi-trajectory 1\nstep\tt\tb\ta\tb\ta\n0\t0\t1\t2\t3\t4\n", ":2: columns 4 and 6 are both named 'a'");
    bad("# slpi-trajectory 1\nstep\tt\tx\n0\t0\t1\n# 1\t0.1\t2\n2\t0.2\t3\n", ":4: a '#' line among the rows");
    TEST_CHECK(slpi_traj_read("/nonexistent/x.tsv", &t, &err) == SLPI_EINPUT && strstr(err.msg, "cannot open"));
    /* the streaming reader, the same file two ways: row by row (slpi_traj_next) as
     * slpi_traj_read holds it, each header entry's line, the column line, the end */
    {
        const char *text = "# slpi-trajectory 1\n# note without a key\n# a=1\n# b=x=y\nstep\tt\tx\ty\n"
                           "0\t0\t1\t2 +/- 0.5\n3\t0.75\t-4\t0x1p-3\n7\t1.75\t5e300\t6\n";
        const char *spath = test_temp_file(text);
        slpi_traj whole;
        TEST_CHECKF(slpi_traj_read(spath, &whole, &err) == SLPI_OK && whole.nrows == 3, "%s", err.msg);
        slpi_traj_reader *r = NULL;
        TEST_CHECKF(slpi_traj_open(&r, spath, &err) == SLPI_OK, "%s", err.msg);
        if (r) {
            const slpi_traj *h = slpi_traj_head(r);
            TEST_CHECK(h->nhead == 2 && !strcmp(h->head_key[1], "b") && !strcmp(h->head_val[1], "x=y"));
            TEST_CHECK(slpi_traj_header_line(r, 0) == 3 && slpi_traj_header_line(r, 1) == 4 &&
                       slpi_traj_header_line(r, 2) == 0 && slpi_traj_line(r) == 5);
            TEST_CHECK(h->ncols == 2 && !strcmp(h->col[1], "y") && h->nrows == 0);
            slpi_traj_row row;
            long n = 0;
            int got;
            while ((got = slpi_traj_next(r, &row, &err)) > 0 && n < whole.nrows) {
                TEST_CHECK(row.step == whole.step[n] && slpi_traj_line(r) == 6 + n);
                TEST_CHECK(memcmp(row.mid, whole.mid + 3 * n, 3 * sizeof(double)) == 0 &&
                           memcmp(row.rad, whole.rad + 3 * n, 3 * sizeof(double)) == 0);
                n++;
            }
            TEST_CHECKF(got == 0 && n == 3 && h->nrows == 3, "streamed %ld rows, end %d: %s", n, got, err.msg);
            slpi_traj_close(r);
        }
        slpi_traj_free(&whole);
        test_temp_remove(spath);
    }
    cut_fifo("# slpi-trajectory 1\nstep\tt\tx\n0\t0\t1\n3\t0.7", "a FIFO cut inside a line");
    cut_fifo("# slpi-trajectory 1\nstep\tt\tx\n0\t0\t1\n", "a FIFO cut between lines");
    /* wide rows (su(64) states have 4096 columns and more) are read whole */
    enum { WIDE = 5000 };
    char *wide = malloc(20 * WIDE + 64), *w = wide;
    w += sprintf(w, "# slpi-trajectory 1\nstep\tt");
    for (int i = 0; i < WIDE; i++) w += sprintf(w, "\tc%d", i);
    w += sprintf(w, "\n0\t0");
    for (int i = 0; i < WIDE; i++) w += sprintf(w, "\t%d", i);
    sprintf(w, "\n");
    const char *wpath = test_temp_file(wide);
    TEST_CHECKF(slpi_traj_read(wpath, &t, &err) == SLPI_OK && t.ncols == WIDE && t.mid[WIDE] == WIDE - 1 &&
                    !strcmp(t.col[WIDE - 1], "c4999"),
                "wide file: %s", err.msg);
    slpi_traj_free(&t);
    unlink(wpath);
    /* the same wide file with its last column renamed to the 1701st's: refused, both named */
    memcpy(strstr(wide, "\tc4999\n"), "\tc1700\n", 7);
    wpath = test_temp_file(wide);
    TEST_CHECKF(slpi_traj_read(wpath, &t, &err) == SLPI_EINPUT &&
                    strstr(err.msg, ":2: columns 1703 and 5002 are both named 'c1700'"),
                "wide file, a name "
                "repeated: %s",
                err.msg);
    unlink(wpath);
    free(wide);
    TEST_END();
}
