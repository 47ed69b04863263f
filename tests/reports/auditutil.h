/* auditutil.h — what the audit's tests share (tests/reports/t-audit-*.c): a claim's
 * verdict and checks by id, a registry text loaded (and run) from a temporary file, a
 * file's text, and the report folder a test runs in. */
#ifndef SLPI_TESTS_AUDITUTIL_H
#define SLPI_TESTS_AUDITUTIL_H

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/audit-checks.h"
#include "reports/audit.h"
#include "testutil.h"

static inline slpi_claim_verdict verdict_of(const slpi_audit *a, const char *id)
{
    for (int j = 0; j < a->nclaims; j++)
        if (!strcmp(a->claims[j].id, id)) return a->claims[j].verdict;
    return (slpi_claim_verdict)-1;
}

static inline const slpi_audit_check *check_of(const slpi_audit *a, const char *id, int k)
{
    for (int j = 0; j < a->nclaims; j++)
        if (!strcmp(a->claims[j].id, id)) return &a->checks[a->claims[j].first + k];
    return NULL;
}

/* Load a registry text into a (report folder dir) and evaluate it. */
static inline int load_run(const char *reg, const char *dir, slpi_audit *a)
{
    slpi_error err;
    memset(a, 0, sizeof *a);
    snprintf(a->outdir, sizeof a->outdir, "%s", dir);
    int rc = slpi_audit_load(a, test_temp_file(reg), &err);
    TEST_CHECKF(rc == SLPI_OK, "%s", err.msg);
    if (rc == SLPI_OK) slpi_audit_run(a, NULL, NULL);
    return rc;
}

/* Load a registry text at a size; 1 when it loads, else its error must contain want. */
static inline int loads(const char *reg, int full, const char *want, slpi_audit *a)
{
    slpi_error err = { 0, "" };
    memset(a, 0, sizeof *a);
    a->full = full;
    int rc = slpi_audit_load(a, test_temp_file(reg), &err);
    if (rc != SLPI_OK)
        TEST_CHECKF(want && strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want);
    else
        TEST_CHECKF(!want, "loaded; expected an error with '%s'", want);
    return rc == SLPI_OK;
}

/* The text of a file (up to 1 MB; "" if it cannot be read); free it. */
static inline char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 20);
    if (f && text) text[fread(text, 1, (1 << 20) - 1, f)] = 0;
    if (f) fclose(f);
    return text;
}

/* Make the report folder dir (a mkdtemp template) with its figures/ and data/. */
static inline void audit_test_dir(char *dir)
{
    char sub[64];
    TEST_CHECK(mkdtemp(dir) != NULL);
    snprintf(sub, sizeof sub, "%s/figures", dir);
    mkdir(sub, 0755);
    snprintf(sub, sizeof sub, "%s/data", dir);
    mkdir(sub, 0755);
}

static inline void audit_test_rmdir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    TEST_CHECK(system(cmd) == 0);
}

#endif
