/* api-tools.c — the bindings' entry points to the verifier and the golden cases
 * (slpi-tools.h, "handle API: the tools' entries"): slpi_verify_file with its JSON,
 * slpi_golden_check_dir into a caller's buffer. Errors go to the calling
 * thread's slpi_api_last_error through slpi_api_record (api/api.h). */
#include "api/api.h"
#include "slpi-tools.h"

#include <stdio.h>
#include <stdlib.h>

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
    if (rc == SLPI_OK && (io.help || io.json || io.output || io.quiet))
        rc = slpi_error_set(&err, SLPI_EINPUT, "verify: --help, --json, --output and --quiet belong to the command line");
    if (rc == SLPI_OK) rc = slpi_verify_run_files(n, files, &o, NULL, res, &err);
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
    int rc = slpi_golden_check_dir(dir ? dir : slpi_golden_dir(), f, &v, &err);
    fclose(f);
    *verdict = (int)v;
    if (n > 0) snprintf(report, n, "%s", text ? text : "");
    free(text);
    return slpi_api_record(&err, rc);
}
