#!/bin/sh
# t-crmath.sh — reports/crmath/crmath.c, the multiverse's libm members (docs/claims.md#multiverse):
# preloaded, exp, sin, cos and sincos are served by MPFR; to nearest they are correctly
# rounded (within half an ulp of a 200-bit MPFR value), with SLPI_CRMATH_ROUND=up every
# result lies at or above the exact value and with down at or below it, the three differ
# by at most one ulp, and up and down differ wherever the value is not exact; sincos
# agrees with sin and cos; an unknown rounding stops the process (exit 2). The arguments:
# 2000 drawn from a printed seed (SLPI_TEST_SEED overrides) over [-20, 20], and a few fixed.
command -v cc >/dev/null || { echo "t-crmath: SKIP: no C compiler"; exit 77; }
dir=$(mktemp -d /tmp/slpi-t-crmath-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
printf '#include <mpfr.h>\n' | cc -E - > /dev/null 2>&1 || { echo "t-crmath: SKIP: no mpfr.h (make deps installs libmpfr-dev)"; exit 77; }
seed=${SLPI_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "t-crmath: seed $seed (SLPI_TEST_SEED=$seed reruns it)"
cc -std=c11 -O2 -fPIC -shared -o "$dir/crmath.so" reports/crmath/crmath.c -lmpfr -lgmp || { echo "t-crmath: FAIL: crmath.c does not build"; exit 1; }
# the probe: each argument's exp, sin, cos and sincos, in hex (the library under test)
cat > "$dir/probe.c" <<'EOF'
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    unsigned long s = strtoul(argv[1], NULL, 10);
    (void)argc;
    for (int i = 0; i < 2006; i++) {
        double x;
        if (i < 6) {
            static const double fixed[6] = { 0.1, 1.0, -3.5, 1e-8, 700.0, 0.0 };
            x = fixed[i];
        } else {
            s = s * 6364136223846793005UL + 1442695040888963407UL;
            x = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 40;
        }
        volatile double v = x;
        double sn, cs;
        sincos(v, &sn, &cs);
        printf("%a %a %a %a %a %a\n", x, exp(v), sin(v), cos(v), sn, cs);
    }
    return 0;
}
EOF
# the judge: each value against MPFR at 200 bits (not the library under test)
cat > "$dir/judge.c" <<'EOF'
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* stdin: "x exp sin cos sincos_s sincos_c" rows of each of near, up, down (in that order);
 * prints the faults, exit 1 when any */
typedef int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
static int cmp_exact(fn f, double x, double y) /* sign of y - f(x) */
{
    mpfr_t a, e;
    mpfr_init2(a, 53);
    mpfr_init2(e, 200);
    mpfr_set_d(a, x, MPFR_RNDN);
    int exact = f(e, a, MPFR_RNDN) == 0;
    int c = mpfr_cmp_d(e, y);
    mpfr_clear(a);
    mpfr_clear(e);
    return exact && c == 0 ? 0 : c < 0 ? 1 : c > 0 ? -1 : 2; /* 2: equal to 200 bits, not exact */
}
int main(int argc, char **argv)
{
    int n = atoi(argv[1]), bad = 0, differ = 0;
    double (*r)[6] = malloc(sizeof *r * 3 * n);
    for (int k = 0; k < 3 * n; k++)
        for (int j = 0; j < 6; j++)
            if (scanf("%la", &r[k][j]) != 1) return printf("short input\n"), 1;
    fn f[5] = { mpfr_exp, mpfr_sin, mpfr_cos, mpfr_sin, mpfr_cos };
    for (int i = 0; i < n; i++)
        for (int j = 1; j < 6; j++) {
            double x = r[i][0], near = r[i][j], up = r[n + i][j], down = r[2 * n + i][j];
            int cu = cmp_exact(f[j - 1], x, up), cd = cmp_exact(f[j - 1], x, down);
            if (cu < 0 || cd > 0) bad++, printf("x %a f%d: up %a below or down %a above the exact value\n", x, j, up, down);
            if (nextafter(down, INFINITY) < up || down > near || near > up)
                bad++, printf("x %a f%d: down %a near %a up %a not within one ulp in order\n", x, j, down, near, up);
            mpfr_t a, e;
            mpfr_init2(a, 53);
            mpfr_init2(e, 53);
            mpfr_set_d(a, x, MPFR_RNDN);
            f[j - 1](e, a, MPFR_RNDN);
            if (mpfr_get_d(e, MPFR_RNDN) != near) bad++, printf("x %a f%d: near %a is not correctly rounded\n", x, j, near);
            mpfr_clear(a);
            mpfr_clear(e);
            differ += up != down;
            if (j >= 4 && (r[i][j] != r[i][j - 2] || up != r[n + i][j - 2]))
                bad++, printf("x %a: sincos differs from sin and cos\n", x);
        }
    if (differ < n) bad++, printf("up and down differ on %d values of %d: the rounding is not directed\n", differ, 5 * n);
    return bad != 0;
}
EOF
cc -std=c11 -O0 -fno-builtin -o "$dir/probe" "$dir/probe.c" -lm && cc -std=c11 -O2 -o "$dir/judge" "$dir/judge.c" -lmpfr -lgmp -lm ||
  { echo "t-crmath: FAIL: the probe or the judge does not build"; exit 1; }
fail=0
for r in near up down; do
  SLPI_CRMATH_ROUND=$r SLPI_CRMATH_COUNT=1 LD_PRELOAD=$dir/crmath.so "$dir/probe" "$seed" > "$dir/$r" 2> "$dir/$r.err" ||
    { echo "t-crmath: FAIL: the probe with $r exited $?"; fail=1; }
  grep -q "crmath: 10030 calls" "$dir/$r.err" || { echo "t-crmath: FAIL: $r: not every call went to MPFR: $(cat "$dir/$r.err")"; fail=1; }
done
cat "$dir/near" "$dir/up" "$dir/down" | "$dir/judge" 2006 > "$dir/judged" ||
  { echo "t-crmath: FAIL: $(head -5 "$dir/judged")"; fail=1; }
SLPI_CRMATH_ROUND=sideways LD_PRELOAD=$dir/crmath.so "$dir/probe" 1 > /dev/null 2> "$dir/bad.err"
[ $? = 2 ] && grep -q "SLPI_CRMATH_ROUND='sideways' is not near, up or down" "$dir/bad.err" ||
  { echo "t-crmath: FAIL: an unknown rounding was not refused: $(cat "$dir/bad.err")"; fail=1; }
[ $fail = 0 ] && echo "t-crmath: ok (2006 arguments x exp, sin, cos, sincos: to nearest correctly rounded, up at or above, down at or below, within one ulp, directed; an unknown rounding refused)"
exit $fail
