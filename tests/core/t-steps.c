/* t-steps.c — the stepping primitive (core/steps.h): the same steps computed two ways.
 * On the fast path (rigid body, ISOMP, a random seed and path) slpi_steps on the problem's
 * noise gives the bits of a hand loop over the noise source and slpi_fast_step, leaves each
 * step's increments in s->dW, and tallies what the hand loop counts from the step reports;
 * the same steps on given increments (the noise source's rows, handed in) give the same
 * bits; a rewind onto another path gives the bits and tally of a fresh open on it (its
 * clipped count restarted); on the certified path (3 steps) the tally's precision and
 * radius are the largest of the step reports and prec_raised counts steps above the
 * problem's precision; a failing step is reported and not tallied; a problem whose noise
 * file is missing is refused at open. */
#include <string.h>

#include "core/problem-struct.h"
#include "core/steps.h"
#include "slpi.h"
#include "testutil.h"

#define STEPS 60

/* a step function that fails at step `fail_at` (counting its calls) */
typedef struct {
    slpi_fast_at at;
    long calls, fail_at;
} failing;

static slpi_step_status failing_step(void *path, const double *dW, slpi_step_info *info)
{
    failing *f = path;
    if (f->calls++ == f->fail_at) {
        info->iterations = 1000;
        return SLPI_STEP_DIVERGED;
    }
    return slpi_fast_step_at(&f->at, dW, info);
}

static void problem(slpi_problem *p, const char *preset, long steps, uint64_t seed, uint64_t path)
{
    slpi_error err = { 0, "" };
    char buf[32];
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    TEST_CHECKF(slpi_problem_preset(p, preset, &err) == SLPI_OK, "%s", err.msg);
    snprintf(buf, sizeof buf, "%ld", steps);
    TEST_CHECK(slpi_problem_set(p, "steps", buf, &err) == SLPI_OK);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    TEST_CHECK(slpi_problem_set(p, "seed", buf, &err) == SLPI_OK);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)path);
    TEST_CHECK(slpi_problem_set(p, "path", buf, &err) == SLPI_OK);
    TEST_CHECKF(slpi_problem_finish(p, &err) == SLPI_OK, "%s", err.msg);
}

int main(void)
{
    test_start("t-steps", 25);
    slpi_error err = { 0, "" };
    slpi_problem p;
    uint64_t seed = test_rand_u64() >> 1, path = test_rand_u64() >> 33;
    problem(&p, "iso/rigid-body/trajectories", STEPS, seed, path);
    int dim = slpi_problem_state_dim(&p), M = slpi_problem_noise_count(&p);
    TEST_CHECK(dim == 3 && M >= 1 && M <= 3);

    /* way 1: the hand loop; way 2: slpi_steps on the noise; way 3: slpi_steps on given rows */
    slpi_fast *f1 = NULL, *f2 = NULL, *f3 = NULL;
    double x1[3], x2[3], x3[3], rows[STEPS][3];
    TEST_CHECK(slpi_fast_create(&f1, &p, &err) == SLPI_OK && slpi_fast_create(&f2, &p, &err) == SLPI_OK &&
               slpi_fast_create(&f3, &p, &err) == SLPI_OK);
    TEST_CHECK(slpi_fast_initial_state(f1, x1, &err) == SLPI_OK);
    memcpy(x2, x1, sizeof x1);
    memcpy(x3, x1, sizeof x1);
    slpi_noise_source *src = NULL;
    TEST_CHECK(slpi_noise_source_open(&src, &p, &err) == SLPI_OK);
    slpi_fast_at a2 = { f2, x2 }, a3 = { f3, x3 };
    slpi_steps s2, s3;
    TEST_CHECKF(slpi_steps_open(&s2, &p, slpi_fast_step_at, &a2, 1, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(slpi_steps_open(&s3, &p, slpi_fast_step_at, &a3, 0, &err) == SLPI_OK && s3.noise == NULL);
    slpi_step_tally want = { 0 };
    int same = 1, same_dW = 1;
    for (long n = 0; n < STEPS; n++) {
        slpi_step_info info = { 0 };
        TEST_CHECK(slpi_noise_source_step(src, n, rows[n], &err) == SLPI_OK);
        slpi_step_status st1 = slpi_fast_step(f1, x1, rows[n], &info), st2, st3;
        TEST_CHECK(slpi_steps_take(&s2, n, NULL, &st2, &err) == SLPI_OK);
        TEST_CHECK(slpi_steps_take(&s3, n, rows[n], &st3, &err) == SLPI_OK);
        same &= st1 == st2 && st1 == st3 && memcmp(x1, x2, sizeof x1) == 0 && memcmp(x1, x3, sizeof x1) == 0;
        same &= s2.info.iterations == info.iterations && s2.info.residual == info.residual;
        same_dW &= memcmp(s2.dW, rows[n], (size_t)M * sizeof(double)) == 0;
        want.steps++;
        want.iterations += info.iterations;
        if (info.iterations > want.max_iterations) want.max_iterations = info.iterations;
        want.stagnated += st1 == SLPI_STEP_STAGNATED;
        want.capped += st1 == SLPI_STEP_CAPPED;
    }
    TEST_CHECKF(same, "slpi_steps differs from the hand loop (x1 = %a, x2 = %a, x3 = %a)", x1[0], x2[0], x3[0]);
    TEST_CHECK(same_dW);
    TEST_CHECKF(memcmp(&s2.tally, &want, sizeof want) == 0 && memcmp(&s3.tally, &want, sizeof want) == 0,
                "tally: %ld steps, %ld iterations (want %ld, %ld)", s2.tally.steps, s2.tally.iterations, want.steps,
                want.iterations);
    TEST_CHECK(want.iterations > STEPS); /* ISOMP iterates: the tally has something to count */
    TEST_CHECK(slpi_steps_clipped(&s2) == slpi_noise_source_clipped(src) && slpi_steps_clipped(&s3) == 0);
    slpi_noise_source_close(src);

    /* a rewind onto another path: a fresh open's bits and tally */
    slpi_problem q = p;
    q.noise.path = path + 1;
    double y[3], z[3];
    TEST_CHECK(slpi_fast_initial_state(f1, y, &err) == SLPI_OK);
    memcpy(x2, y, sizeof y);
    memcpy(z, y, sizeof y);
    slpi_fast_at az = { f1, z };
    slpi_steps fresh;
    TEST_CHECK(slpi_steps_rewind(&s2, &q, &err) == SLPI_OK && s2.tally.steps == 0 && slpi_steps_clipped(&s2) == 0);
    TEST_CHECK(slpi_steps_open(&fresh, &q, slpi_fast_step_at, &az, 1, &err) == SLPI_OK);
    for (long n = 0; n < STEPS; n++) {
        slpi_step_status a, b;
        TEST_CHECK(slpi_steps_take(&s2, n, NULL, &a, &err) == SLPI_OK &&
                   slpi_steps_take(&fresh, n, NULL, &b, &err) == SLPI_OK);
    }
    TEST_CHECK(memcmp(x2, z, sizeof z) == 0 && memcmp(x2, x1, sizeof z) != 0);
    TEST_CHECK(memcmp(&s2.tally, &fresh.tally, sizeof fresh.tally) == 0 && s2.tally.steps == STEPS);
    slpi_steps_close(&fresh);

    /* a failing step: reported, not tallied; the steps before it are */
    failing fl = { { f1, z }, 0, 5 };
    slpi_steps sf;
    TEST_CHECK(slpi_steps_open(&sf, &p, failing_step, &fl, 1, &err) == SLPI_OK);
    slpi_step_status st = SLPI_STEP_CONVERGED;
    long n = 0;
    while (n < STEPS && !slpi_step_failed(st)) TEST_CHECK(slpi_steps_take(&sf, n++, NULL, &st, &err) == SLPI_OK);
    TEST_CHECK(st == SLPI_STEP_DIVERGED && n == 6 && sf.tally.steps == 5 && sf.info.iterations == 1000);
    TEST_CHECK(sf.tally.max_iterations > 0 && sf.tally.max_iterations < 1000 && sf.tally.iterations < 1000);
    slpi_steps_close(&sf);
    slpi_steps_close(&s2);
    slpi_steps_close(&s3);
    slpi_fast_free(f1);
    slpi_fast_free(f2);
    slpi_fast_free(f3);

    /* the certified path: largest precision and radius, steps above the problem's precision */
    slpi_problem r;
    problem(&r, "iso/rigid-body/trajectories", 3, seed, path);
    slpi_ref *ref = NULL;
    arb_ptr bx = _arb_vec_init(3);
    TEST_CHECKF(slpi_ref_create(&ref, &r, &err) == SLPI_OK && slpi_ref_initial_state(ref, bx, &err) == SLPI_OK, "%s",
                err.msg);
    slpi_ref_at ra = { ref, bx };
    slpi_steps sr;
    TEST_CHECK(slpi_steps_open(&sr, &r, slpi_ref_step_at, &ra, 1, &err) == SLPI_OK);
    long maxprec = 0, raised = 0;
    double maxrad = 0;
    for (long k = 0; k < 3; k++) {
        TEST_CHECK(slpi_steps_take(&sr, k, NULL, &st, &err) == SLPI_OK && !slpi_step_failed(st));
        if (sr.info.prec > maxprec) maxprec = sr.info.prec;
        if (sr.info.radius > maxrad) maxrad = sr.info.radius;
        raised += sr.info.prec > r.cert.prec;
    }
    TEST_CHECK(maxprec >= r.cert.prec && maxrad > 0);
    TEST_CHECK(sr.tally.max_prec == maxprec && sr.tally.max_radius == maxrad && sr.tally.prec_raised == raised);
    slpi_steps_close(&sr);
    _arb_vec_clear(bx, 3);
    slpi_ref_free(ref);

    /* a missing noise file is refused at open, not at the first step */
    slpi_problem b = p;
    slpi_steps sb;
    TEST_CHECK(slpi_problem_set(&b, "noise_file", "/nonexistent/slpi-t-steps.noise", &err) == SLPI_OK);
    err.msg[0] = 0;
    TEST_CHECK(slpi_steps_open(&sb, &b, slpi_fast_step_at, &a2, 1, &err) == SLPI_EINPUT &&
               strstr(err.msg, "slpi-t-steps.noise"));
    slpi_steps_close(&sb);
    TEST_END();
}
