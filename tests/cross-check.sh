#!/bin/sh
# cross-check.sh ARCH — slpi built for another architecture and validated as a port
# (`make cross-check ARCH=aarch64|s390x`; not part of `make check`, see
# oracle/README.md "Another architecture"). Needs Debian's cross compiler
# (gcc-$TRIPLET), qemu-user (qemu-user-static) and the target's libraries from
# multiarch: tests/cross-deps.sh installs them first (as root; otherwise it prints the
# commands), as `make deps` does for the host. Debian 12's libflint-arb-dev and
# libflint-dev are not Multi-Arch: same, so the target's ones
# would remove the host's; the build links the target's runtime libraries by soname
# and compiles against the host's (identical, architecture-independent) Arb/FLINT
# headers instead. Steps, each timed:
#   1. build build/cross-ARCH/slpi with the cross compiler;
#   2. the canonical noise known answers (tests/kat/noise.sha256) under qemu: bit-identical;
#   3. every golden case (oracle/golden) under qemu: PASS on the target's ref and fast paths;
#   4. a long fast-path trajectory produced under qemu, verified on the host with
#      `slpi verify --local` (and the global comparison as far as it certifies).
set -u
arch=${1:-${ARCH:-aarch64}}
case $arch in
  aarch64|arm64) arch=aarch64; debarch=arm64; triplet=aarch64-linux-gnu; qemu=qemu-aarch64 ;;
  s390x) debarch=s390x; triplet=s390x-linux-gnu; qemu=qemu-s390x ;;
  ppc64el|powerpc64le) arch=ppc64el; debarch=ppc64el; triplet=powerpc64le-linux-gnu; qemu=qemu-ppc64le ;;
  *) echo "cross-check: unknown ARCH '$arch' (aarch64, s390x, ppc64el)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.." || exit 2
host=${SLPI_BIN:-build/slpi}
build=build/cross-$arch
steps=${CROSS_STEPS:-10000}
# the cross compiler, qemu-user and the target's libraries, installed as `make deps` does
sh tests/cross-deps.sh "$debarch" "$triplet" || exit 2
for q in "$qemu-static" "$qemu"; do command -v "$q" >/dev/null && { qemu=$q; break; }; done
command -v "$qemu" >/dev/null || { echo "cross-check: no $qemu(-static): apt-get install qemu-user-static" >&2; exit 2; }
command -v "$triplet-gcc" >/dev/null || { echo "cross-check: no $triplet-gcc: apt-get install gcc-$triplet" >&2; exit 2; }
[ -x "$host" ] || { echo "cross-check: no host binary $host (make all)" >&2; exit 2; }
fail=0
note() { echo "cross-check $arch: FAIL: $*"; fail=1; }
now() { date +%s.%N; }
lap() { printf '%s %.1f s\n' "$1" "$(echo "$(now) - $t0" | bc)"; t0=$(now); }

t0=$(now)
make --no-print-directory -s BUILD="$build" CC="$triplet-gcc" CFLAGS="-O2 -g" \
  ARB_LIBS="-l:libflint-arb.so.2 -l:libflint.so.17 -lmpfr -lgmp" "$build/slpi" > "$build.log" 2>&1 ||
  { tail -20 "$build.log"; echo "cross-check $arch: the cross build failed (log: $build.log)"; exit 2; }
lap "cross-check $arch: 1. build ($triplet-gcc):"
# The target's loader and libraries from multiarch (/lib/$triplet); libgomp (not in
# multiarch here) alone from the cross toolchain: its folder /usr/$triplet/lib also holds
# the cross toolchain's libc, which beside the multiarch loader aborted every s390x
# program ("*** stack smashing detected ***", even hello world). OpenBLAS's and libgomp's
# worker threads busy-wait at start-up under qemu-user (aarch64: --version never
# returned): one thread each.
mkdir -p "$build/lib"
ln -sf "/usr/$triplet/lib/libgomp.so.1" "$build/lib/libgomp.so.1"
run() { OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 QEMU_LD_PREFIX=/ LD_LIBRARY_PATH="$build/lib" "$qemu" "$build/slpi" "$@"; }
run --version > "$build/version.txt" 2>&1 || { cat "$build/version.txt"; note "the target binary does not run under $qemu"; exit 1; }
head -1 "$build/version.txt"

# 2. noise known answers, bit for bit
n=0
while read -r kind seed path m h refine nsteps want; do
  [ "$kind" = bits ] || continue
  got=$(run noise --format bits --seed "$seed" --path "$path" --components "$m" --h "$h" \
        --refine "$refine" --steps "$nsteps" | sha256sum | cut -d' ' -f1)
  n=$((n+1))
  [ "$got" = "$want" ] || note "noise KAT bits $seed $path $m $h $refine $nsteps: sha256 $got, KAT $want"
done < tests/kat/noise.sha256
lap "cross-check $arch: 2. $n noise KAT digests:"

# 3. golden cases on the target's two paths
run golden --dir oracle/golden > "$build/golden.txt" 2>&1; rc=$?
[ $rc -eq 0 ] || note "slpi golden on $arch: exit $rc: $(grep -v PASS "$build/golden.txt" | tail -5)"
lap "cross-check $arch: 3. golden cases ($(grep -c . "$build/golden.txt") report lines, $(tail -1 "$build/golden.txt")):"

# 4. a long trajectory of the target's fast path, verified on the host
for c in rigid-body/isomp manakov/rkmk-heun; do
  f=$build/$(echo "$c" | tr / _)
  "$host" golden --problem "$c" | sed "s/^steps=.*/steps=$steps/" > "$f.conf"
  run run --config "$f.conf" --quiet --output "$f.tsv" || note "$c: the target's run failed"
  "$host" run --config "$f.conf" --quiet --output "$f.host.tsv"
  grep -v '^#' "$f.tsv" > "$f.rows"; grep -v '^#' "$f.host.tsv" > "$f.host.rows"
  if cmp -s "$f.rows" "$f.host.rows"; then same="every row bit-identical to the host's"
  else same="$(diff "$f.rows" "$f.host.rows" | grep -c '^<') of $(wc -l < "$f.rows") lines (the column line and the rows) differ from the host's"; fi
  "$host" verify --local -q "$f.tsv" > "$f.verify" 2>&1; rc=$?
  [ $rc -eq 0 ] || note "$c: host verify --local of the $arch trajectory: exit $rc: $(cat "$f.verify")"
  lap "cross-check $arch: 4. $c, $steps steps on $arch ($same), host verify --local: $(sed 's/.*local/local/; s/;)$//' "$f.verify")"
done
[ $fail = 0 ] && echo "cross-check $arch: PASS"
exit $fail
