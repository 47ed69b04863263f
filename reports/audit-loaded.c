/* audit-loaded.c — what ran, recorded as what ran (docs/claims.md#what-ran): the shared
 * objects that served the process's exp (its libm) and cblas_zgemm (its BLAS), found by
 * the dynamic linker's own lookup (dlsym of the default scope, as the audit's calls bind)
 * and dladdr, each by its path and the sha256 of its bytes (nettle), with the kernel
 * OpenBLAS runs; and the libm's label from the object that ran, never from an environment
 * variable or a name: "glibc" when exp is the one the C library's libm.so.6 defines,
 * "mpfr", "mpfr-up" or "mpfr-down" when it is reports/crmath's (its rounding read from the
 * library itself), and "other" for any other object (a substituted libm, whatever its
 * name). The kernel is OpenBLAS's own report only when the object that serves
 * cblas_zgemm is the OpenBLAS that reports it: a substituted BLAS is recorded by its path
 * and bytes, and as reporting no kernel. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "core/blas.h"
#include "reports/audit-checks.h"

/* The object that defines symbol in the process's default scope, by its real path (and its
 * address into *addr), or -1 when none does. */
static int object_of(const char *symbol, char *path, size_t n, void **addr)
{
    void *s = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    *addr = s;
    if (!s || !dladdr(s, &info) || !info.dli_fname) return -1;
    char real[PATH_MAX];
    snprintf(path, n, "%s", realpath(info.dli_fname, real) ? real : info.dli_fname);
    return 0;
}

/* sha256 of a file into hex (64 digits), or -1 when it cannot be read. */
static int sha256_file(char hex[65], const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    struct sha256_ctx c;
    sha256_init(&c);
    unsigned char buf[1 << 16], d[SHA256_DIGEST_SIZE];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) sha256_update(&c, k, buf);
    int bad = ferror(f);
    fclose(f);
    if (bad) return -1;
    sha256_digest(&c, sizeof d, d);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return 0;
}

/* The label of the libm whose object (at path) serves exp (exp_ran): reports/crmath's when
 * that object also defines slpi_crmath_rounding, which says how it rounds; glibc's when exp
 * is the C library's libm.so.6's exp of symbol version GLIBC_2.29 (glibc's exp since 2.29);
 * else "other". */
static const char *libm_label(const char *path, void *exp_ran)
{
    char where[PATH_MAX];
    void *r;
    if (!object_of("slpi_crmath_rounding", where, sizeof where, &r) && !strcmp(where, path)) {
        const char *round = ((const char *(*)(void))r)();
        return !strcmp(round, "up") ? "mpfr-up" : !strcmp(round, "down") ? "mpfr-down" : "mpfr";
    }
    void *libm = dlopen("libm.so.6", RTLD_LAZY | RTLD_NOLOAD);
    const int glibc = libm && dlvsym(libm, "exp", "GLIBC_2.29") == exp_ran;
    if (libm) dlclose(libm);
    return glibc ? "glibc" : "other";
}

static void loaded(slpi_audit_ran *out)
{
    void *exp_ran, *zgemm;
    memset(out, 0, sizeof *out);
    if (object_of("exp", out->libm, sizeof out->libm, &exp_ran) || sha256_file(out->libm_sha256, out->libm))
        snprintf(out->libm_sha256, sizeof out->libm_sha256, "unreadable");
    snprintf(out->libm_label, sizeof out->libm_label, "%s", out->libm[0] ? libm_label(out->libm, exp_ran) : "other");
    if (object_of("cblas_zgemm", out->blas, sizeof out->blas, &zgemm) || sha256_file(out->blas_sha256, out->blas))
        snprintf(out->blas_sha256, sizeof out->blas_sha256, "unreadable");
    char named[PATH_MAX];
    void *core;
    const int same = !object_of("openblas_get_corename", named, sizeof named, &core) && !strcmp(named, out->blas);
    snprintf(out->blas_kernel, sizeof out->blas_kernel, "%s",
             same && slpi_blas_core() ? slpi_blas_core() : "none reported (the BLAS that ran is not OpenBLAS)");
}

const slpi_audit_ran *slpi_audit_loaded_once(void)
{
    static slpi_audit_ran l;
    static int done;
    if (!done) loaded(&l), done = 1;
    return &l;
}

void slpi_audit_loaded_record(json_t *root)
{
    const slpi_audit_ran *l = slpi_audit_loaded_once();
    json_t *o = json_object();
    json_object_set_new(o, "libm", json_string(l->libm_label));
    json_object_set_new(o, "libm_object", json_string(l->libm));
    json_object_set_new(o, "libm_sha256", json_string(l->libm_sha256));
    json_object_set_new(o, "blas_object", json_string(l->blas));
    json_object_set_new(o, "blas_sha256", json_string(l->blas_sha256));
    json_object_set_new(o, "blas_kernel", json_string(l->blas_kernel));
    json_object_set_new(root, "loaded", o);
}

void slpi_audit_loaded_write(FILE *f)
{
    const slpi_audit_ran *l = slpi_audit_loaded_once();
    fprintf(f, "libm_ran=%s %s sha256 %s\nblas_ran=%s sha256 %s kernel %s\n", l->libm_label, l->libm, l->libm_sha256,
            l->blas, l->blas_sha256, l->blas_kernel);
}
