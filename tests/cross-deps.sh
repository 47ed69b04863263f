#!/bin/sh
# cross-deps.sh DEBARCH TRIPLET — what `make cross-check` needs, installed as `make deps`
# installs the host's packages (mk/deps.sh): Debian's cross compiler gcc-TRIPLET,
# qemu-user-static, and from the target's multiarch (dpkg --add-architecture DEBARCH) its C library
# headers (libc6-dev: the cross compiler searches /usr/include/TRIPLET first), the
# runtime libflint-arb2 and libflint17 and the -dev packages of MPFR, GMP, LAPACKE,
# OpenBLAS, Jansson and Nettle (oracle/README.md "Another architecture" says why not Arb's -dev).
# As root: adds the architecture if missing, apt-get update, installs what is missing.
# Otherwise: prints the exact commands and fails.
set -u
da=$1 triplet=$2
pkgs="gcc-$triplet qemu-user-static libc6-dev:$da libflint-arb2:$da libflint17:$da libmpfr-dev:$da libgmp-dev:$da \
liblapacke-dev:$da libopenblas-dev:$da libjansson-dev:$da nettle-dev:$da"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
have_arch=$(dpkg --print-architecture; dpkg --print-foreign-architectures)
if [ "$(id -u)" = 0 ]; then
  echo "cross-deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  echo "$have_arch" | grep -qx "$da" || dpkg --add-architecture "$da" || exit 1
  apt-get update -qq && apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=900 $missing >/dev/null || {
    echo "cross-deps: apt-get install failed for:$missing" >&2; exit 1; }
else
  echo "cross-deps: missing packages for $da. Run as root:" >&2
  echo "$have_arch" | grep -qx "$da" || echo "  dpkg --add-architecture $da" >&2
  echo "  apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
