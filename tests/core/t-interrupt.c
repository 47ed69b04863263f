/* t-interrupt.c — stopping a long call (core/interrupt.c, docs/conventions.md#interrupt):
 *   1. the flag: request raises it, clear lowers it, pending reads it;
 *   2. the poll of the stepping primitive (core/steps.c): with the flag raised a step is
 *      refused with SLPI_EINTR naming the step, the state and the tally untouched; once
 *      cleared, the same step gives the bits of a stepper that was never interrupted
 *      (the same steps two ways), for a random seed and path;
 *   3. the `slpi` command's stop handler (slpi_interrupt_catch), each in a child process,
 *      once with SIGINT and once with SIGTERM:
 *      a. one signal raises the flag; work that never polls is ended by that signal
 *         through the fallback after a second of its CPU time (the child would otherwise
 *         finish, after 10 s of CPU time, and exit 0), and the temporary file of an output
 *         not yet committed is removed, the old file left as it was; with SIGTERM, a child
 *         that waits without computing is ended by the fallback's ten seconds of wall time;
 *      b. a second signal (SIGHUP after SIGTERM) ends the process at once, by the first
 *         signal (the fallback cancelled first, so only the second signal can end it);
 *         with the fallback cancelled and no second signal, the child goes on, the flag
 *         raised (a signal not caught would have ended it);
 *      c. where SIGINT is ignored (a script's background job) nothing is installed and
 *         the signal stays ignored.
 *   The children of a and b start from the default action of SIGINT, SIGTERM and SIGHUP
 *   (in_child sets it), as a command started in the foreground does: this test itself may
 *   inherit SIGINT or SIGHUP ignored (`nohup make check &`), which its children would
 *   inherit in turn and then, rightly, keep (c). So a and b run twice: as this test
 *   was started, then with SIGINT and SIGHUP ignored here, as a background job's test
 *   is started (under `nohup make check &` the children used to keep SIGINT ignored,
 *   and a SIGTERM was never caught). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/problem-struct.h"
#include "core/steps.h"
#include "slpi.h"
#include "testutil.h"
#include "core/command.h"

#define STEPS 40

static void problem(slpi_problem *p, uint64_t seed, uint64_t path)
{
    char steps[32], sd[32], pa[32];
    snprintf(steps, sizeof steps, "%d", STEPS);
    snprintf(sd, sizeof sd, "%llu", (unsigned long long)seed);
    snprintf(pa, sizeof pa, "%llu", (unsigned long long)path);
    char *keys[] = { "steps", "seed", "path" }, *vals[] = { steps, sd, pa };
    slpi_error err = { 0, "" };
    TEST_CHECKF(slpi_problem_build(p, "iso/rigid-body/trajectories", NULL, 3, keys, vals, NULL, &err) == SLPI_OK &&
                    slpi_problem_finish(p, &err) == SLPI_OK,
                "%s", err.msg);
}

/* Steps 0..STEPS-1 on two steppers; the first is interrupted before step `at`. */
static void poll_two_ways(uint64_t seed, uint64_t path, long at)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    problem(&p, seed, path);
    slpi_fast *f1 = NULL, *f2 = NULL;
    double x1[3], x2[3];
    TEST_CHECK(slpi_fast_create(&f1, &p, &err) == SLPI_OK && slpi_fast_create(&f2, &p, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_initial_state(f1, x1, &err) == SLPI_OK);
    memcpy(x2, x1, sizeof x1);
    slpi_fast_at a1 = { f1, x1 }, a2 = { f2, x2 };
    slpi_steps s1, s2;
    TEST_CHECK(slpi_steps_open(&s1, &p, slpi_fast_step_at, &a1, 1, &err) == SLPI_OK);
    TEST_CHECK(slpi_steps_open(&s2, &p, slpi_fast_step_at, &a2, 1, &err) == SLPI_OK);
    for (long n = 0; n < STEPS; n++) {
        slpi_step_status st1, st2;
        if (n == at) {
            double keep[3];
            memcpy(keep, x1, sizeof keep);
            long taken = s1.tally.steps;
            slpi_interrupt_request();
            slpi_error e = { 0, "" };
            char want[64];
            snprintf(want, sizeof want, "interrupted before step %ld", n);
            TEST_CHECKF(slpi_steps_take(&s1, n, NULL, &st1, &e) == SLPI_EINTR && e.code == SLPI_EINTR &&
                            strcmp(e.msg, want) == 0,
                        "step %ld: '%s'", n, e.msg);
            TEST_CHECK(memcmp(keep, x1, sizeof keep) == 0 && s1.tally.steps == taken);
            slpi_interrupt_clear();
        }
        TEST_CHECK(slpi_steps_take(&s1, n, NULL, &st1, &err) == SLPI_OK);
        TEST_CHECK(slpi_steps_take(&s2, n, NULL, &st2, &err) == SLPI_OK);
        TEST_CHECK(st1 == st2);
    }
    TEST_CHECKF(memcmp(x1, x2, sizeof x1) == 0 && s1.tally.steps == STEPS && s2.tally.steps == STEPS,
                "seed %llu path %llu, interrupted at %ld: %.17g vs %.17g", (unsigned long long)seed,
                (unsigned long long)path, at, x1[0], x2[0]);
    slpi_steps_close(&s1);
    slpi_steps_close(&s2);
    slpi_fast_free(f1);
    slpi_fast_free(f2);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Busy work that never polls, for up to 10 s of CPU time (however busy the machine);
 * then exit 0 (the fallback never came). */
static void spin(void)
{
    double t0 = cpu_seconds();
    volatile double s = 0;
    while (cpu_seconds() - t0 < 10)
        for (int i = 0; i < 100000; i++) s += i;
    _exit(0);
}

/* Cancel both clocks of the fallback. */
static void no_fallback(void)
{
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_PROF, &off, NULL);
    alarm(0);
}

/* Fork, run child(arg) in the child from the default action of the three stop signals
 * (whatever this test inherited), and return its wait status. */
static int in_child(void (*child)(const char *), const char *arg)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        child(arg);
        _exit(0);
    }
    int status = 0;
    TEST_CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    return status;
}

/* the signal the children of a and b are sent first */
static int stop_sig = SIGINT;

static void child_fallback(const char *file)
{
    if (!slpi_interrupt_catch()) _exit(4);
    slpi_output *o;
    slpi_error err = { 0, "" };
    if (slpi_output_open(&o, file, SLPI_OUTPUT_REPLACE, &err) != SLPI_OK) _exit(5);
    fputs("new, never committed\n", slpi_output_file(o));
    fflush(slpi_output_file(o));
    if (slpi_interrupt_pending()) _exit(6);
    raise(stop_sig);
    if (!slpi_interrupt_pending()) _exit(7);
    spin();
}

static void child_second(const char *unused)
{
    (void)unused;
    if (!slpi_interrupt_catch()) _exit(4);
    raise(stop_sig);
    no_fallback(); /* only the second signal may end it */
    if (!slpi_interrupt_pending()) _exit(7);
    raise(stop_sig == SIGINT ? SIGINT : SIGHUP);
    _exit(0);
}

/* Raise stop_sig, then wait without computing for up to 60 s (then exit 0). */
static void child_waits(const char *unused)
{
    (void)unused;
    if (!slpi_interrupt_catch()) _exit(4);
    raise(stop_sig);
    for (double t0 = seconds(); seconds() - t0 < 60;) {
        struct timespec nap = { 0, 100000000 };
        nanosleep(&nap, NULL);
    }
    _exit(0);
}

static void child_flag(const char *unused)
{
    (void)unused;
    if (!slpi_interrupt_catch()) _exit(4);
    raise(stop_sig);
    no_fallback(); /* the flag is raised and the child goes on */
    _exit(slpi_interrupt_pending() ? 0 : 7);
}

static void child_ignored(const char *unused)
{
    (void)unused;
    signal(SIGINT, SIG_IGN);
    if (slpi_interrupt_catch()) _exit(4);
    raise(SIGINT);
    _exit(slpi_interrupt_pending() ? 7 : 0);
}

/* Files in folder dir other than . , .. and keep. */
static int others_in(const char *dir, const char *keep)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, keep);
    if (d) closedir(d);
    return n;
}

/* a, b and c of the header, in folder dir (file: the output the fallback's child leaves
 * untouched); how: the dispositions this test holds, for the messages. */
static void stop_handler(const char *dir, const char *file, const char *how)
{
    static const int stops[] = { SIGINT, SIGTERM };
    for (int k = 0; k < 2; k++) {
        stop_sig = stops[k];
        const char *name = stop_sig == SIGINT ? "SIGINT" : "SIGTERM";
        FILE *f = fopen(file, "w");
        TEST_CHECK(f && fputs("old\n", f) >= 0 && fclose(f) == 0);
        double t0 = seconds();
        int st = in_child(child_fallback, file);
        TEST_CHECKF(WIFSIGNALED(st) && WTERMSIG(st) == stop_sig, "%s: fallback after %s: status %#x (exit %d)", how,
                    name, st, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        printf("t-interrupt: %s: work that never polls ended %.2f s after %s (the fallback: 1 s of CPU time)\n", how,
               seconds() - t0, name);
        char buf[16] = "";
        f = fopen(file, "r");
        TEST_CHECK(f && fgets(buf, sizeof buf, f) && strcmp(buf, "old\n") == 0);
        if (f) fclose(f);
        TEST_CHECKF(others_in(dir, "out.tsv") == 0, "%s: the temporary output of the killed child is left in %s", how,
                    dir);
        st = in_child(child_second, NULL);
        TEST_CHECKF(WIFSIGNALED(st) && WTERMSIG(st) == stop_sig, "%s: second signal after %s: status %#x", how, name,
                    st);
        st = in_child(child_flag, NULL);
        TEST_CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: one %s: status %#x (not caught: the flag not raised)",
                    how, name, st);
    }
    stop_sig = SIGTERM;
    double t0 = seconds();
    int st = in_child(child_waits, NULL);
    TEST_CHECKF(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "%s: a waiting child after SIGTERM: status %#x", how, st);
    printf("t-interrupt: %s: work that waits ended %.2f s after SIGTERM (the fallback: 10 s of wall time)\n", how,
           seconds() - t0);
    st = in_child(child_ignored, NULL);
    TEST_CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: ignored SIGINT: status %#x", how, st);
}

int main(void)
{
    test_start("t-interrupt", 44);
    TEST_CHECK(slpi_interrupt_pending() == 0);
    slpi_interrupt_request();
    TEST_CHECK(slpi_interrupt_pending() == 1);
    slpi_interrupt_clear();
    TEST_CHECK(slpi_interrupt_pending() == 0);

    long cases = test_iters(4);
    for (long c = 0; c < cases; c++) poll_two_ways(test_rand_u64() >> 1, test_rand_u64() >> 33, test_rand_int(STEPS));

    char dir[] = "/tmp/t-interrupt-XXXXXX", file[64];
    TEST_CHECK(mkdtemp(dir) != NULL);
    snprintf(file, sizeof file, "%s/out.tsv", dir);
    stop_handler(dir, file, "as started");
    signal(SIGINT, SIG_IGN); /* a background job's test: `nohup make check &` */
    signal(SIGHUP, SIG_IGN);
    stop_handler(dir, file, "SIGINT and SIGHUP ignored");

    unlink(file);
    rmdir(dir);
    TEST_END();
}
