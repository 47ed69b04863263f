/* api.c — a small handle-based C API for bindings (the Python package python/slpi uses
 * it through cffi): opaque problems set up by key names, integration of the fast path
 * into a caller's buffer, ensembles of final states, and the last error of the calling
 * thread as a string. No struct of slpi.h has to be mirrored by a caller. It lives in
 * oracle/ because it drives the fast path (core/ must not depend on fast/). */
#include "oracle/oracle.h"
#include "slpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[512];

int slpi_api_record(const slpi_error *err, int rc)
{
    if (rc != SLPI_OK) snprintf(last_error, sizeof last_error, "%s", err->msg[0] ? err->msg : "error");
    return rc;
}

long slpi_problem_text(const slpi_problem *p, char *buf, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        snprintf(last_error, sizeof last_error, "out of memory");
        return -1;
    }
    slpi_problem_write(p, f, "");
    fclose(f);
    if (n > 0) snprintf(buf, n, "%s", text);
    free(text);
    return (long)len;
}

const char *slpi_api_last_error(void)
{
    return last_error;
}

slpi_problem *slpi_problem_new(const char *preset)
{
    slpi_problem *p = malloc(sizeof *p);
    slpi_error err = { 0 };
    if (!p) {
        snprintf(last_error, sizeof last_error, "out of memory");
        return NULL;
    }
    slpi_problem_init(p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
    if (preset && preset[0] && slpi_api_record(&err, slpi_problem_preset(p, preset, &err)) != SLPI_OK) {
        free(p);
        return NULL;
    }
    return p;
}

void slpi_problem_free(slpi_problem *p)
{
    free(p);
}

int slpi_problem_set_key(slpi_problem *p, const char *key, const char *value)
{
    slpi_error err = { 0 };
    return slpi_api_record(&err, slpi_problem_set(p, key, value, &err));
}

/* The finished copy a run uses (h, steps from T and level; validated). */
static int finished(const slpi_problem *p, slpi_problem *q)
{
    slpi_error err = { 0 };
    *q = *p;
    int rc = slpi_problem_finish(q, &err);
    if (rc == SLPI_OK) rc = slpi_problem_validate(q, &err);
    return slpi_api_record(&err, rc);
}

int slpi_problem_shape(const slpi_problem *p, int *dim, int *noises, long *steps, long *rows, double *h,
                       int *every)
{
    slpi_problem q;
    int rc = finished(p, &q);
    if (rc != SLPI_OK) return rc;
    *dim = slpi_problem_state_dim(&q);
    *noises = slpi_problem_noise_count(&q);
    *steps = q.steps;
    *rows = q.steps / q.output_every + 1 + (q.steps % q.output_every != 0);
    *h = q.h;
    *every = q.output_every;
    return SLPI_OK;
}

int slpi_problem_state_label(const slpi_problem *p, int i, char *buf, size_t n)
{
    slpi_problem q;
    int rc = finished(p, &q);
    if (rc != SLPI_OK) return rc;
    slpi_problem_state_name(&q, i, buf, n);
    return SLPI_OK;
}

/* One path from step 0: rows of states (every output_every-th step and the last) when
 * states != NULL, else only the final state into final; counters[SLPI_FAST_NCOUNTERS]. */
static int integrate(const slpi_problem *q, double *states, double *final, long counters[SLPI_FAST_NCOUNTERS])
{
    slpi_error err = { 0 };
    slpi_fast *s = NULL;
    slpi_noise_source *noise = NULL;
    int dim = slpi_problem_state_dim(q), M = slpi_problem_noise_count(q);
    double *x = malloc((size_t)dim * sizeof *x), *dW = malloc((size_t)(M > 0 ? M : 1) * sizeof *dW);
    int rc = x && dW ? SLPI_OK : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) rc = slpi_fast_create(&s, q, &err);
    if (rc == SLPI_OK) {
        int given = slpi_problem_explicit_x0(q, x, &err);
        rc = given < 0 ? SLPI_EINPUT : given ? SLPI_OK : slpi_fast_initial_state(s, x, &err);
    }
    if (rc == SLPI_OK) rc = slpi_noise_source_open(&noise, q, &err);
    long row = 0;
    if (rc == SLPI_OK && states) memcpy(states + row++ * dim, x, (size_t)dim * sizeof *x);
    for (long n = 0; rc == SLPI_OK && n < q->steps; n++) {
        if ((rc = slpi_noise_source_step(noise, n, dW, &err)) != SLPI_OK) break;
        slpi_step_info info = { 0 };
        slpi_step_status st = slpi_fast_step(s, x, dW, &info);
        if (slpi_step_failed(st)) {
            rc = slpi_error_set(&err, SLPI_ENUMERIC, "step %ld: %s after %d iterations, residual %.3g", n,
                                slpi_step_status_name(st), info.iterations, info.residual);
            break;
        }
        if (states && ((n + 1) % q->output_every == 0 || n + 1 == q->steps))
            memcpy(states + row++ * dim, x, (size_t)dim * sizeof *x);
    }
    if (rc == SLPI_OK && final) memcpy(final, x, (size_t)dim * sizeof *x);
    if (s && counters) slpi_fast_counters(s, counters);
    if (noise) slpi_noise_source_close(noise);
    if (s) slpi_fast_free(s);
    free(x);
    free(dW);
    return slpi_api_record(&err, rc);
}

int slpi_integrate(const slpi_problem *p, double *states, long counters[SLPI_FAST_NCOUNTERS])
{
    slpi_problem q;
    int rc = finished(p, &q);
    return rc != SLPI_OK ? rc : integrate(&q, states, NULL, counters);
}

int slpi_integrate_ensemble(const slpi_problem *p, uint64_t first_path, long npaths, double *finals)
{
    slpi_problem q;
    int rc = finished(p, &q);
    if (rc != SLPI_OK) return rc;
    int dim = slpi_problem_state_dim(&q);
    slpi_progress *pg = slpi_progress_begin("ensemble, paths", npaths);
    for (long r = 0; rc == SLPI_OK && r < npaths; r++) {
        q.path = first_path + (uint64_t)r;
        rc = integrate(&q, NULL, finals + r * dim, NULL);
        slpi_progress_add(pg, 1);
    }
    slpi_progress_end(pg);
    return rc;
}

int slpi_api_verify(const char *path, const char *noise_file, long max_steps, int *verdict)
{
    slpi_error err = { 0 };
    slpi_verify_result *res = malloc(sizeof *res);
    if (!res) {
        snprintf(last_error, sizeof last_error, "out of memory");
        return SLPI_EINPUT;
    }
    int rc = slpi_verify_file(path, noise_file, NULL, max_steps, NULL, res, &err);
    if (rc == SLPI_OK) *verdict = (int)res->verdict;
    free(res);
    return slpi_api_record(&err, rc);
}
