#!/bin/sh
# check-debian13.sh — `make check-debian13` (docs/install.md#debian13): slpi on a fresh
# Debian 13 system, for real. As root, on a Debian (12 or later) host with debootstrap:
#   1. a minimal Debian 13 root, made anew by `debootstrap --variant=minbase trixie` from
#      Debian's registry into $SLPI_BUILD/debian13/root (downloaded packages are kept in
#      the cache folder $SLPI_DEBIAN_CACHE, default /var/cache/slpi-debian: a rerun
#      installs the same packages again, without fetching them again);
#   2. in it, the README's prerequisites (make, and git to clone) and a clean clone of
#      this tree's HEAD in /srv/slpi;
#   3. an ordinary user's `make demo` there, before anything is installed: it must fail,
#      printing the exact apt-get line for Debian 13 (libflint-dev, no libflint-arb-dev);
#   4. the README's two commands as written, as root (chroot): `make demo` must succeed
#      and build with no compiler warning (clang's build is t-second-compiler's, -Werror),
#      `make check` must end "N passed, 0 failed" with nothing skipped, and `slpi golden`
#      must PASS (FLINT 3's certified balls intersect the stored ones);
#   5. the ordinary user again: `make demo` in their own clone (the core is installed
#      now), `make install PREFIX=$HOME/.local` and `python3 -c "import slpi"`;
#   6. which outputs differ in their bits between this host's build and Debian 13's
#      (tests/compare-bits.sh: the noise, every preset on both paths), written to
#      $SLPI_BUILD/debian13/bits/bits.txt.
# Each step's output is in $SLPI_BUILD/debian13/*.log; the closing line is
# "check-debian13: PASS" or "check-debian13: FAIL: ...". The root's mounts (proc, sys,
# dev, the package cache) are undone on every exit, and the root is removed only when
# nothing is mounted under it.
set -u
src=$(pwd)
[ "$(id -u)" = 0 ] || { echo "check-debian13: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "check-debian13: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
suite=trixie
mirror=${SLPI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${SLPI_DEBIAN_CACHE:-/var/cache/slpi-debian}
mkdir -p "${SLPI_BUILD:-build}/debian13"
dir=$(cd "${SLPI_BUILD:-build}/debian13" && pwd)
root=$dir/root
host_slpi=$(cd "${SLPI_BUILD:-build}" && pwd)/slpi
[ -x "$host_slpi" ] || { echo "check-debian13: no host build $host_slpi (make all)" >&2; exit 2; }
t0=$(date +%s)
fail() { echo "check-debian13: FAIL: $*"; exit 1; }
lap() { echo "check-debian13: $1 ($(( $(date +%s) - t0 )) s)"; }
mounted() { awk -v r="$root" 'index($2, r "/") == 1 || $2 == r' /proc/mounts | grep -q .; }
unmount() {
  for m in var/cache/apt/archives dev proc sys; do
    mountpoint -q "$root/$m" 2>/dev/null && umount -R "$root/$m" 2>/dev/null
  done
  ! mounted
}
trap 'unmount' EXIT
trap 'exit 130' INT TERM
unmount || fail "cannot unmount the old root's file systems under $root"
rm -rf --one-file-system "$root" "$dir"/*.log "$dir/bits"
mkdir -p "$root" "$cache/debootstrap" "$cache/apt"

# 1. the root
debootstrap --variant=minbase --cache-dir="$cache/debootstrap" "$suite" "$root" "$mirror" > "$dir/debootstrap.log" 2>&1 ||
  fail "debootstrap $suite: $(tail -3 "$dir/debootstrap.log") (log: $dir/debootstrap.log)"
grep -q '^VERSION_ID="13"' "$root/etc/os-release" || fail "the root is not Debian 13: $(grep PRETTY "$root/etc/os-release")"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc" && mount -t sysfs sys "$root/sys" && mount --rbind /dev "$root/dev" &&
  mount --make-rslave "$root/dev" && mount --bind "$cache/apt" "$root/var/cache/apt/archives" ||
  fail "mounting proc, sys, dev and the package cache in the root"
lap "1. $(sed -n 's/^PRETTY_NAME="\(.*\)"/\1/p' "$root/etc/os-release") made by debootstrap in $root"

# in the root, with a login's environment (and this machine's OpenBLAS settings, where set)
in_root() {   # in_root USERSPEC COMMAND
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb \
    HOME="$([ "$1" = root ] && echo /root || echo /home/slpiuser)" \
    ${OPENBLAS_CORETYPE:+OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE} ${OPENBLAS_L2_SIZE:+OPENBLAS_L2_SIZE=$OPENBLAS_L2_SIZE} \
    chroot --userspec="$1" "$root" sh -c "$2"
}

# 2. make and git, the tree's HEAD, an ordinary user
in_root root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends make git ca-certificates' \
  > "$dir/prerequisites.log" 2>&1 || fail "apt-get install make git: $(tail -3 "$dir/prerequisites.log")"
rev=$(git -C "$src" rev-parse HEAD)
git clone -q --no-checkout "$src" "$root/srv/slpi" && git -C "$root/srv/slpi" checkout -q "$rev" || fail "cloning $src"
in_root root 'useradd -m -s /bin/sh slpiuser && git config --system --add safe.directory /srv/slpi && git config --system --add safe.directory /srv/slpi/.git' || fail "useradd"
in_root slpiuser:slpiuser 'git clone -q /srv/slpi ~/slpi' || fail "the user's clone"
lap "2. make and git installed; /srv/slpi at $(git -C "$src" rev-parse --short HEAD); the user slpiuser"

# 3. an ordinary user before anything is installed: the exact install line
in_root slpiuser:slpiuser 'cd ~/slpi && make demo' > "$dir/user-demo-bare.log" 2>&1 &&
  fail "an ordinary user's make demo succeeded with no packages installed"
line=$(grep -A1 'Run as root' "$dir/user-demo-bare.log" | tail -1)
case $line in *"apt-get install -y --no-install-recommends"*" libflint-dev"*) ;; *) fail "no Debian 13 install line: $(cat "$dir/user-demo-bare.log")" ;; esac
case $line in *libflint-arb-dev*) fail "the install line names libflint-arb-dev, which Debian 13 lacks: $line" ;; esac
lap "3. an ordinary user's make demo stops with the line: $line"

# 4. the README's two commands, as written, as root
in_root root 'cd /srv/slpi && make demo' > "$dir/demo.log" 2>&1 || fail "make demo: $(tail -5 "$dir/demo.log") (log: $dir/demo.log)"
grep -q 'warning:' "$dir/demo.log" && fail "the build warns on Debian 13: $(grep 'warning:' "$dir/demo.log" | head -5)"
lap "4a. make demo: OK, built with no warning ($(grep -c '' "$dir/demo.log") lines; $(grep '^plots:' "$dir/demo.log"))"
in_root root 'cd /srv/slpi && make check' > "$dir/check.log" 2>&1; rc=$?
summary=$(tail -1 "$dir/check.log")
echo "$summary" | grep -qE '^[0-9]+ passed, 0 failed$' && [ $rc -eq 0 ] ||
  fail "make check (exit $rc): $(grep -E '^(FAIL|SKIP):|^failed tests|^skipped tests|^    ' "$dir/check.log" | head -100); $summary (log: $dir/check.log)"
lap "4b. make check: $summary"
in_root root 'cd /srv/slpi && ./build/slpi golden' > "$dir/golden.log" 2>&1 && tail -1 "$dir/golden.log" | grep -q '^golden: PASS' ||
  fail "slpi golden on FLINT 3: $(tail -3 "$dir/golden.log")"
lap "4c. slpi golden: PASS on $(in_root root 'cd /srv/slpi && ./build/slpi --version' | sed -n 's/^  \(arb=\|flint=\)/\1/p' | paste -s -d, -)"

# 5. the ordinary user, with the core installed
in_root slpiuser:slpiuser 'cd ~/slpi && make demo && make install PREFIX=$HOME/.local && cd /tmp &&
  python3 -c "import slpi; print(slpi.__file__, slpi.run(\"iso/rigid-body/trajectories\", steps=10).states.shape)"' \
  > "$dir/user.log" 2>&1 || fail "an ordinary user's make demo, make install PREFIX=~/.local, import slpi: $(tail -5 "$dir/user.log")"
lap "5. an ordinary user: make demo, make install PREFIX=~/.local, $(tail -1 "$dir/user.log")"

# 6. bits: this host's build against Debian 13's (tests/compare-bits.sh)
env="env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 ${OPENBLAS_CORETYPE:+OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE} ${OPENBLAS_L2_SIZE:+OPENBLAS_L2_SIZE=$OPENBLAS_L2_SIZE}"
sh "$src/tests/compare-bits.sh" "$dir/bits" "$env $host_slpi" "$env chroot $root /srv/slpi/build/slpi" ||
  fail "an output's exit code differs between the builds: $(grep '	exit ' "$dir/bits/bits.txt")"
lap "6. bits ($dir/bits/bits.txt): $(grep -c '	identical' "$dir/bits/bits.txt") outputs identical, $(grep -c '	differ' "$dir/bits/bits.txt") differ: $(grep '	differ' "$dir/bits/bits.txt" | cut -f1 | tr '\n' ' ')"
echo "check-debian13: PASS ($(( $(date +%s) - t0 )) s)"
