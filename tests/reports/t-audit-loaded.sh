#!/bin/sh
# t-audit-loaded.sh — what ran is recorded as what ran (reports/audit-loaded.c,
# docs/claims.md#what-ran): `slpi audit --only R2`'s claims.json names, under "loaded", the
# objects that served exp and cblas_zgemm with the sha256 of their bytes (checked against
# sha256sum), and labels the libm from the object that ran:
#   - as built: glibc, and OpenBLAS's kernel;
#   - reports/crmath preloaded with SLPI_CRMATH_ROUND=down, copied to a file named
#     libm-glibc.so: mpfr-down (not the file's name);
#   - a foreign exp (forwarding to glibc's, so no verdict moves) in a file named
#     libslpi-crmath.so, the name the old substring test took for MPFR's: other;
#   - a foreign cblas_zgemm (forwarding to OpenBLAS's): that object and its sha256, and no
#     kernel name (OpenBLAS's name is not the kernel of a BLAS that is not OpenBLAS);
# and the member's words say the same libm label.
. "$(dirname "$0")/prelude.sh"
command -v cc >/dev/null || { echo "$unit: SKIP: no C compiler"; exit 77; }
command -v sha256sum >/dev/null || { echo "$unit: SKIP: no sha256sum"; exit 77; }
d=$(pwd -P)
cc -std=c11 -O2 -fPIC -shared -o libm-glibc.so "$top/reports/crmath/crmath.c" -lmpfr -lgmp ||
  { note "crmath.c does not build"; exit 1; }
cat > exp.c <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
double exp(double x)
{
    static double (*next)(double);
    if (!next) next = (double (*)(double))dlsym(RTLD_NEXT, "exp");
    return next(x);
}
EOF
cat > zgemm.c <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
typedef void zgemm_t(int, int, int, int, int, int, const void *, const void *, int, const void *, int,
                     const void *, void *, int);
void cblas_zgemm(int o, int ta, int tb, int m, int n, int k, const void *al, const void *a, int lda, const void *b,
                 int ldb, const void *be, void *c, int ldc)
{
    static zgemm_t *next;
    if (!next) next = (zgemm_t *)dlsym(RTLD_NEXT, "cblas_zgemm");
    next(o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc);
}
EOF
cc -std=c11 -O2 -fPIC -shared -o libslpi-crmath.so exp.c -ldl && cc -std=c11 -O2 -fPIC -shared -o libzgemm.so zgemm.c -ldl ||
  { note "the foreign objects do not build"; exit 1; }
# run NAME [VAR=VALUE ...]: the audit of R2 under the environment given, into NAME/
run() {
  name=$1
  shift
  (cd "$top" && env "$@" "$slpi" audit --only R2 --out "$d/$name") > "$name.log" 2>&1 ||
    { note "$name: slpi audit exited $? ($(tail -1 "$name.log"))"; return 1; }
}
# want NAME LIBM LIBM_OBJECT BLAS_OBJECT KERNEL ('-' for the system's own, '*' for any but '-')
want() {
  python3 - "$d/$1/claims.json" "$2" "$3" "$4" "$5" <<'PY' || fail=1
import hashlib, json, sys
path, libm, lobj, bobj, kernel = sys.argv[1:]
d = json.load(open(path))
l, bad = d["loaded"], []
sha = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
if l["libm"] != libm:
    bad.append("libm %s, want %s" % (l["libm"], libm))
for key, want_obj in (("libm", lobj), ("blas", bobj)):
    o = l[key + "_object"]
    if want_obj != "-" and o != want_obj:
        bad.append("%s_object %s, want %s" % (key, o, want_obj))
    if l[key + "_sha256"] != sha(o):
        bad.append("%s_sha256 %s is not sha256sum of %s" % (key, l[key + "_sha256"], o))
if (kernel == "*") != (not l["blas_kernel"].startswith("none")):
    bad.append("blas_kernel %s (want %s)" % (l["blas_kernel"], "OpenBLAS's" if kernel == "*" else "none"))
words = d["claims"][0]["multiverse"]["words"]
if "libm %s;" % libm not in words:
    bad.append("the member's words do not say libm %s: %s" % (libm, words))
for b in bad:
    print("t-audit-loaded: FAIL: %s: %s" % (path, b))
sys.exit(1 if bad else 0)
PY
}
run plain && want plain glibc - - '*'
run crmath LD_PRELOAD="$d/libm-glibc.so" SLPI_CRMATH_ROUND=down && want crmath mpfr-down "$d/libm-glibc.so" - '*'
run foreign LD_PRELOAD="$d/libslpi-crmath.so" && want foreign other "$d/libslpi-crmath.so" - '*'
run blas LD_PRELOAD="$d/libzgemm.so" && want blas glibc - "$d/libzgemm.so" none
[ $fail = 0 ] && echo "$unit: ok"
exit $fail
