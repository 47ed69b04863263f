#!/bin/sh
# deps.sh CORE FLINT12 FLINT13 NEED WANT — the Debian packages a make target needs
# (config.mk names them; docs/install.md#debian):
#   CORE      the library, the slpi command and the Python package, on every release;
#   FLINT12   FLINT 2.9 + Arb 2.23, on Debian 12 (and Ubuntu before 24.04);
#   FLINT13   FLINT >= 3, Arb inside, on Debian 13 and later (and Ubuntu 24.04 and later);
#   NEED      what this target cannot run without (the audit's Chromium, coverage's lcov);
#   WANT      the tools of some tests (clang, Open MPI, cmake, ...): their tests SKIP without.
# As root, everything missing is installed with apt-get. As another user, nothing is
# installed: missing CORE, FLINT or NEED packages print the exact apt-get line for this
# system and fail; missing WANT packages print the line and go on. On a system without
# dpkg, nothing is checked (docs/install.md names the packages of other systems).
# SLPI_DEPS_CHECK=1 (python/setup.py, as pip runs it): only check and print, even as root.
core=$1; flint12=$2; flint13=$3; need=$4; want=$5
command -v dpkg-query >/dev/null 2>&1 || {
  echo "deps: no dpkg here: install the packages that docs/install.md names for this system" >&2; exit 0; }
ID=; VERSION_ID=; PRETTY_NAME="this system"
os_release=${SLPI_OS_RELEASE:-/etc/os-release}   # (the tests name another)
[ -r "$os_release" ] && . "$os_release"
pretty=$PRETTY_NAME
major=${VERSION_ID%%.*}
case "$ID:$major" in
  debian:1[0-2]|ubuntu:2[0-3]) flint=$flint12 ;;
  *) flint=$flint13 ;;      # Debian 13, testing and unstable, Ubuntu 24.04 and later
esac
missing() {
  m=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || m="$m $p"
  done
  echo "$m"
}
must=$(missing $core $flint $need)
may=$(missing $want)
[ -z "$must$may" ] && exit 0
if [ "$(id -u)" = 0 ] && [ -z "${SLPI_DEPS_CHECK:-}" ]; then
  echo "deps ($pretty): installing$must$may"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || { echo "deps: apt-get update failed" >&2; exit 1; }
  apt-get install -y -qq --no-install-recommends $must $may >/dev/null && exit 0
  # One call failed: what this target needs must install; a wanted tool that this
  # release or architecture lacks (python3-numba is built for amd64 and arm64 only)
  # is named, and its tests SKIP.
  if [ -n "$must" ]; then
    apt-get install -y -qq --no-install-recommends $must >/dev/null || {
      echo "deps: apt-get install failed for:$must" >&2; exit 1; }
  fi
  for p in $may; do
    apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
      echo "deps ($pretty): $p does not install here; the tests that use it will SKIP" >&2
  done
  exit 0
fi
if [ -n "$must" ]; then
  echo "deps ($pretty): missing Debian packages:$must. Run as root:" >&2
  echo "  apt-get install -y --no-install-recommends$must$may" >&2
  exit 1
fi
echo "deps ($pretty): the tests that use these tools will SKIP without them; as root:" >&2
echo "  apt-get install -y --no-install-recommends$may" >&2
exit 0
