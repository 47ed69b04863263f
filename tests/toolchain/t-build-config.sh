#!/bin/sh
# t-build-config.sh — the build's helpers in mk/ (docs/install.md):
#   1. mk/flint-probe.sh finds this machine's FLINT generation (as $SLPI_BUILD/flint.mk
#      says), and refuses, naming the version found and the version needed: a FLINT 2.8,
#      a FLINT 2.9 without Arb, an Arb 2.22 (fake headers first on the include path),
#      and a FLINT whose libraries lack the functions slpi needs (a link test);
#   2. mk/deps.sh picks FLINT's packages by the release (Debian 12: libflint-arb-dev and
#      libflint-dev; Debian 13: libflint-dev) and, as an ordinary user, prints the exact
#      apt-get line: failing for a missing core or needed package, going on for a wanted one;
#   3. a test whose tool is missing says SKIP (exit 77), and tests/run-tests.sh counts it
#      as skipped, never as passed.
set -u
build=${SLPI_BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fail=0
note() { echo "t-build-config: FAIL: $*"; fail=1; }
cc=${CC:-cc}
libs3="-lflint -lmpfr -lgmp" libs2="-lflint-arb -lflint -lmpfr -lgmp"

# 1. the probe
sh mk/flint-probe.sh "$cc" "" "$libs3" "$libs2" > "$tmp/flint.mk" 2> "$tmp/err" || note "the probe fails here: $(cat "$tmp/err")"
want=$(grep '^ARB_CPPFLAGS' "$build/flint.mk" | awk '{print $3}')
got=$(grep '^ARB_CPPFLAGS' "$tmp/flint.mk" | awk '{print $3}')
[ -n "$want" ] && [ "$got" = "$want" ] || note "the probe says '$got', the build's flint.mk '$want'"
# refuse NAME PATTERN CPPFLAGS LIBS3 LIBS2: exit 1, the message matches PATTERN and names what is needed
refuse() {
  if sh mk/flint-probe.sh "$cc" "$3" "$4" "$5" > "$tmp/out" 2> "$tmp/err"; then note "$1: accepted: $(cat "$tmp/out")"; return; fi
  grep -q "$2" "$tmp/err" || note "$1: the message does not say '$2': $(cat "$tmp/err")"
  grep -q "needs FLINT >= 3.0" "$tmp/err" || note "$1: the message does not name the version needed: $(cat "$tmp/err")"
  [ -s "$tmp/out" ] && note "$1: the probe wrote assignments although it failed"
}
fake() {   # fake DIR FLINT_RELEASE FLINT_VERSION [ARB_RELEASE ARB_VERSION]
  mkdir -p "$1/flint"
  printf '#define __FLINT_RELEASE %s\n#define FLINT_VERSION "%s"\n' "$2" "$3" > "$1/flint/flint.h"
  [ $# -gt 3 ] && printf '#define __ARB_RELEASE %s\n#define ARB_VERSION "%s"\n' "$4" "$5" > "$1/arb.h"
}
fake "$tmp/f28" 20804 2.8.4
refuse "FLINT 2.8" "FLINT 2.8.4 found" "-I$tmp/f28" "$libs3" "$libs2"
fake "$tmp/f29" 20900 2.9.0
printf '#error "no Arb here"\n' > "$tmp/f29/arb.h"
refuse "FLINT 2.9 without Arb" "FLINT 2.9.0 found without Arb" "-I$tmp/f29" "$libs3" "$libs2"
fake "$tmp/a22" 20900 2.9.0 22200 2.22.1
refuse "Arb 2.22" "Arb 2.22.1 found; slpi needs Arb 2.23" "-I$tmp/a22" "$libs3" "$libs2"
# this machine's generation, linked without Arb's functions
refuse "FLINT without Arb's functions" "does not link" "" "-lmpfr -lgmp" "-lgmp -lmpfr"
echo "t-build-config: the probe finds '$got' here and refuses FLINT 2.8, 2.9 without Arb, Arb 2.22 and a FLINT that does not link"

# 2. deps.sh, as an ordinary user
as_user() { /usr/bin/python3 tests/as-nobody.py "$@"; }
os() { printf 'ID=debian\nVERSION_ID="%s"\nPRETTY_NAME="Debian %s"\n' "$1" "$1" > "$tmp/os-$1"; }
os 12; os 13
for r in 12 13; do
  SLPI_OS_RELEASE=$tmp/os-$r as_user sh mk/deps.sh "dash" "slpi-no-such-flint12" "slpi-no-such-flint13" "" "" > "$tmp/d$r" 2>&1 &&
    note "deps.sh, Debian $r: a missing FLINT package accepted"
  grep -qx "  apt-get install -y --no-install-recommends slpi-no-such-flint$r" "$tmp/d$r" ||
    note "deps.sh, Debian $r: not the exact line for FLINT's package of Debian $r: $(cat "$tmp/d$r")"
done
SLPI_OS_RELEASE=$tmp/os-13 as_user sh mk/deps.sh "dash" "" "" "slpi-no-such-need" "slpi-no-such-want" > "$tmp/need" 2>&1 &&
  note "deps.sh: a missing needed package accepted"
grep -qx "  apt-get install -y --no-install-recommends slpi-no-such-need slpi-no-such-want" "$tmp/need" || note "deps.sh: the line for need and want: $(cat "$tmp/need")"
SLPI_OS_RELEASE=$tmp/os-13 as_user sh mk/deps.sh "dash" "" "" "" "slpi-no-such-want" > "$tmp/want" 2>&1 ||
  note "deps.sh: a missing wanted package failed: $(cat "$tmp/want")"
grep -q "will SKIP" "$tmp/want" && grep -qx "  apt-get install -y --no-install-recommends slpi-no-such-want" "$tmp/want" ||
  note "deps.sh: a missing wanted package: $(cat "$tmp/want")"
echo "t-build-config: deps.sh names Debian 12's and 13's FLINT packages and prints the exact apt-get line"

# 3. SKIP is counted as skipped
SLPI_CC2=slpi-no-such-cc sh tests/run-tests.sh tests/toolchain/t-second-compiler.sh > "$tmp/skip" 2>&1
rc=$?
grep -q "^t-second-compiler: SKIP: slpi-no-such-cc is not installed" "$tmp/skip" && grep -qx "0 passed, 0 failed, 1 skipped" "$tmp/skip" && [ $rc -eq 0 ] ||
  note "a test whose compiler is missing: exit $rc, $(cat "$tmp/skip")"
[ $fail -eq 0 ] && echo "t-build-config: ok"
exit $fail
