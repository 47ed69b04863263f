#!/bin/sh
# flint-probe.sh CC CPPFLAGS FLINT3_LIBS FLINT2_LIBS — which FLINT generation the compiler
# finds (docs/install.md#flint), written to standard output as make assignments:
#   FLINT_VERSION, ARB_VERSION, ARB_CPPFLAGS (-DSLPI_FLINT3 for FLINT >= 3) and ARB_LIBS.
# FLINT >= 3.0 (Arb inside FLINT) is taken first; else FLINT 2.9 with Arb >= 2.23 beside
# it (Arb's library is -lflint-arb on Debian, -larb upstream: the first that links). The
# headers are read through the compiler's preprocessor (with `pkg-config --cflags flint`
# and its -L folders where pkg-config knows FLINT), and a link test calls the Arb
# functions slpi relies on, so a FLINT too old, or built without one of them, stops here
# with the version found and the version needed: exit 1, the reason on standard error.
cc=$1; cppflags=$2; libs3=$3; libs2=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pc=$(pkg-config --cflags flint 2>/dev/null)
fail() {
  echo "slpi: $*" >&2
  echo "slpi: slpi needs FLINT >= 3.0 (Arb inside), or FLINT 2.9 with Arb >= 2.23; 'make deps' installs it on Debian 12 and 13, docs/install.md names the packages elsewhere" >&2
  exit 1
}
# macro NAME HEADER: the value of a macro after including HEADER, or nothing
macro() {
  printf '#include <%s>\nSLPI_PROBE_VALUE %s\n' "$2" "$1" > "$tmp/m.c"
  $cc $cppflags $pc -E -P "$tmp/m.c" 2>/dev/null | sed -n 's/^SLPI_PROBE_VALUE *//p' | tr -d '"() ' | tail -1
}
frel=$(macro __FLINT_RELEASE flint/flint.h)
fver=$(macro FLINT_VERSION flint/flint.h)
case "$frel" in ''|*[!0-9*+]*) fail "FLINT's header <flint/flint.h> was not found by '$cc $cppflags $pc'" ;; esac
frel=$(($frel))
# The Arb functions slpi's certified path needs, through slpi's own compatibility header.
cat > "$tmp/l.c" <<'C'
#include "core/slpi-flint.h"
int main(void)
{
    arb_mat_t a; acb_mat_t b; arb_t x; fmpq_t q;
    arb_mat_init(a, 1, 1); acb_mat_init(b, 1, 1); arb_init(x); fmpq_init(q);
    arb_mat_mul(a, a, a, 53); acb_mat_mul(b, b, b, 53); acb_mat_exp(b, b, 53);
    arb_sin_cos_pi_fmpq(x, x, q, 53); arb_hypgeom_erf(x, x, 53); flint_set_num_threads(1);
    arb_mat_clear(a); acb_mat_clear(b); arb_clear(x); fmpq_clear(q);
    return 0;
}
C
link() {   # link FLAGS LIBS: 0 when the test program links
  $cc $cppflags $pc $1 -I. -o "$tmp/l" "$tmp/l.c" $2 2> "$tmp/link.log"
}
missing() { grep -o "undefined reference to [^ ]*" "$tmp/link.log" | head -3 | tr '\n' ' '; }
if [ "$frel" -ge 30000 ]; then
  libs=$(echo $(pkg-config --libs-only-L flint 2>/dev/null) $libs3)
  link -DSLPI_FLINT3 "$libs" || fail "FLINT $fver found, but a program using it does not link with '$libs': $(missing)$(head -c 300 "$tmp/link.log")"
  echo "# mk/flint-probe.sh, $(date -u '+%Y-%m-%d %H:%M UTC'): FLINT $fver, Arb inside FLINT"
  echo "FLINT_VERSION = $fver"
  echo "ARB_VERSION = flint $fver"
  echo "ARB_CPPFLAGS = -DSLPI_FLINT3 $pc"
  echo "ARB_LIBS = $libs"
  exit 0
fi
[ "$frel" -ge 20900 ] || fail "FLINT $fver found (needs 3.0 or later, or 2.9 with Arb 2.23)"
arel=$(macro __ARB_RELEASE arb.h)
aver=$(macro ARB_VERSION arb.h)
case "$arel" in ''|*[!0-9*+]*) fail "FLINT $fver found without Arb (<arb.h> not found): Arb 2.23 is needed beside FLINT 2.9 (Debian 12: libflint-arb-dev), or FLINT >= 3.0" ;; esac
arel=$(($arel))
[ "$arel" -ge 22300 ] || fail "FLINT $fver with Arb $aver found; slpi needs Arb 2.23 or later beside FLINT 2.9"
libs2=$(echo $(pkg-config --libs-only-L flint 2>/dev/null) $libs2)
for libs in "$libs2" "$(echo "$libs2" | sed 's/-lflint-arb/-larb/')"; do
  if link -DSLPI_FLINT2 "$libs"; then
    echo "# mk/flint-probe.sh, $(date -u '+%Y-%m-%d %H:%M UTC'): FLINT $fver with Arb $aver"
    echo "FLINT_VERSION = $fver"
    echo "ARB_VERSION = $aver"
    echo "ARB_CPPFLAGS = -DSLPI_FLINT2 $pc"
    echo "ARB_LIBS = $libs"
    exit 0
  fi
done
fail "FLINT $fver with Arb $aver found, but a program using them does not link with '$libs2' (nor -larb): $(missing)"
