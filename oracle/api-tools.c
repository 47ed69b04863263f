/* api-tools.c — the bindings' entry points to the verifier and the golden cases
 * (slpi-tools.h, "handle API: the tools' entries"): slpi_verify_file with its JSON,
 * slpi_golden_check_dir into a caller's buffer, a port's own increments written as a
 * noise file with `slpi noise`'s writer. Errors go to the calling
 * thread's slpi_api_last_error through slpi_api_record (api/api.h). */
#include "api/api.h"
#include "core/noise.h"
#include "slpi/errors.h"
#include "slpi/noise.h"
#include "slpi/output.h"
#include "slpi/tools.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <stddef.h>

int slpi_api_verify_json(const char *path, const char *noise_file, long max_steps, const char *json)
{
    slpi_error err = { 0 };
    slpi_verify_result *res = malloc(sizeof *res);
    if (!res) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "out of memory"));
    int rc = slpi_verify_file(path, noise_file, NULL, max_steps, NULL, res, &err);
    if (rc == SLPI_OK) rc = slpi_verify_write_json(path, res, json, &err);
    free(res);
    return slpi_api_record(&err, rc);
}

int slpi_api_verify_argv(int argc, char **argv, const char *json)
{
    slpi_error err = { 0 };
    slpi_verify_opts o;
    slpi_verify_io io;
    const char **files = malloc((size_t)(argc + 1) * sizeof *files);
    slpi_verify_result *res = malloc(sizeof *res);
    int n = 0, rc = files && res ? SLPI_OK : slpi_error_set(&err, SLPI_EINPUT, "out of memory");
    if (rc == SLPI_OK) rc = slpi_verify_parse_args(&o, &io, argc, argv, files, argc, &n, &err);
    if (rc == SLPI_OK && (io.help || io.json || io.quiet))
        rc = slpi_error_set(&err, SLPI_EINPUT, "verify: --help, --json and --quiet belong to the command line");
    slpi_output *report = NULL; /* the text report, --table's rows: replaced whole, or left as it was */
    if (rc == SLPI_OK && io.output) rc = slpi_output_open(&report, io.output, SLPI_OUTPUT_REPLACE, &err);
    if (rc == SLPI_OK) rc = slpi_verify_run_files(n, files, &o, report ? slpi_output_file(report) : NULL, res, &err);
    if (report && rc == SLPI_OK)
        rc = slpi_output_commit(report, &err);
    else if (report)
        slpi_output_abort(report);
    if (rc == SLPI_OK) rc = slpi_verify_write_json(files[0], res, json, &err);
    free(files);
    free(res);
    return slpi_api_record(&err, rc);
}

int slpi_api_golden(const char *dir, int *verdict, char *report, size_t n)
{
    slpi_error err = { 0 };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return slpi_api_record(&err, slpi_error_set(&err, SLPI_EINPUT, "out of memory"));
    slpi_verdict v = SLPI_VERDICT_UNABLE;
    int rc = slpi_golden_check_dir(dir, f, &v, &err);
    fclose(f);
    *verdict = (int)v;
    if (n > 0) snprintf(report, n, "%s", text ? text : "");
    free(text);
    return slpi_api_record(&err, rc);
}

int slpi_api_noise_write(const char *file, const double *dw, long steps, int M, double h, uint64_t seed, uint64_t path,
                         int refine, double ell, uint64_t first)
{
    slpi_error err = { 0 };
    slpi_noise_header hd = { seed,  path,  M, h, refine, ell > 0, ell, ell > 0 ? slpi_noise_threshold(h, ell) : 0,
                             first, steps, 0 };
    int rc = SLPI_OK;
    if (M < 1 || M > SLPI_NOISE_FILE_MAX_COMPONENTS || steps < 1 || steps > SLPI_NOISE_FILE_MAX_STEPS ||
        (double)steps * M > (double)SLPI_NOISE_FILE_MAX_VALUES)
        rc = slpi_error_set(&err, SLPI_EINPUT,
                            "noise file: %ld steps of %d increments: the format holds 1..%d "
                            "increments a step, 1..%ld steps, at most %ld values",
                            steps, M, SLPI_NOISE_FILE_MAX_COMPONENTS, SLPI_NOISE_FILE_MAX_STEPS,
                            SLPI_NOISE_FILE_MAX_VALUES);
    else if (!(h > 0 && h <= 1e6) || refine < 0 || refine > 40 || !(ell >= 0 && ell <= 100))
        rc = slpi_error_set(&err, SLPI_EINPUT,
                            "noise file: h = %g must lie in (0, 1e6], refine = %d in 0..40, "
                            "ell = %g in [0, 100] (0: untruncated)",
                            h, refine, ell);
    for (long i = 0; rc == SLPI_OK && i < steps * (long)M; i++)
        if (!isfinite(dw[i]) || (hd.truncated && fabs(dw[i]) > hd.threshold))
            rc =
                slpi_error_set(&err, SLPI_EINPUT, "noise file: increment %d of step %ld is %.17g: %s", (int)(i % M) + 1,
                               i / M, dw[i], isfinite(dw[i]) ? "beyond the truncation D(h, ell)" : "not finite");
    slpi_output *o = NULL;
    if (rc == SLPI_OK) rc = slpi_output_open(&o, file, SLPI_OUTPUT_REPLACE, &err);
    if (rc == SLPI_OK) {
        FILE *f = slpi_output_file(o);
        slpi_noise_file_write_header(f, &hd);
        for (long n = 0; n < steps; n++) slpi_noise_file_write_row(f, M, dw + n * M);
        rc = slpi_output_commit(o, &err);
    }
    return slpi_api_record(&err, rc);
}
