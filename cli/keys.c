/* keys.c — a command's problem from a key file and command-line keys, one rule for every
 * command that takes both (run, converge): a preset, system or scheme given on the command
 * line resets defaults first, then the file's keys apply (--config FILE, '#' comments;
 * a model file, docs/models.md), then the remaining command-line keys. */
#include <string.h>

#include "cli/cli.h"

int slpi_cli_problem_keys(slpi_problem *p, const char *config, int nk, char **keys, char **vals,
                          slpi_error *err)
{
    int rc = SLPI_OK;
    if (config) {
        int nreset = 0;
        char *rk[256] = { NULL }, *rv[256] = { NULL };
        for (int i = 0; i < nk && nreset < 256; i++)
            if (!strcmp(keys[i], "preset") || !strcmp(keys[i], "system") || !strcmp(keys[i], "scheme")) {
                rk[nreset] = keys[i];
                rv[nreset] = vals[i];
                nreset++;
            }
        rc = slpi_problem_set_all(p, nreset, rk, rv, NULL, err);
        if (rc == SLPI_OK) rc = slpi_problem_load(p, config, err);
        int m = 0;
        for (int i = 0; i < nk; i++)
            if (strcmp(keys[i], "preset") && strcmp(keys[i], "system") && strcmp(keys[i], "scheme")) {
                keys[m] = keys[i];
                vals[m] = vals[i];
                m++;
            }
        nk = m;
    }
    if (rc == SLPI_OK && nk) rc = slpi_problem_set_all(p, nk, keys, vals, NULL, err);
    return rc;
}
