#!/bin/sh
# t-mpi.sh — `slpi converge` prints the same bytes for any OpenMP thread count and any
# MPI rank count (studies/converge.c: batches of paths, fixed-order sums, exact rank
# combination). Runs a weak study with an independent reference (all columns, the
# bootstrap CIs and the MLMC check) and a sup-norm strong study: the plain binary with
# 1 and 2 threads, and build/mpi/slpi under mpirun -n 1 and -n 2 (oversubscribed,
# loopback), and compares the reports byte for byte. Under mpirun the report is rank 0's
# own file (-o): Open MPI's forwarding of standard output lost 52 bytes mid-line once
# on Debian 13 (Open MPI 5), so the ranks' bytes are compared without it. The same for `slpi ensemble`
# (cli/cmd-ensemble.c: each rank's blocks as subtrees of the statistics' tree, imported
# by rank 0): the rigid body on the lanes and the heavy top on the general route, a path
# count that ends inside a block, a --grid, the plain binary on 1 and 2 threads against
# mpirun -n 1, 2 and 3 (3 ranks: block ranges that are no powers of two), and a failing
# path exits 3 under 2 ranks as on one.
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
bin="${SLPI_BIN:-$b/slpi}"
mpibin="$b/mpi/slpi"
out="$b/t-mpi"
mkdir -p "$out"
fail=0
# MPI is optional (the library and the plain binary never need it): without Open MPI
# the test says so and is counted as skipped (exit 77); with it, it must run.
if ! command -v mpirun >/dev/null 2>&1 || ! command -v "${MPICC:-mpicc}" >/dev/null 2>&1; then
  echo "t-mpi: SKIP: Open MPI is not installed (mpirun or mpicc missing): ranks 1/2 not compared"
  exit 77
fi
if [ ! -x "$mpibin" ]; then
  echo "t-mpi: FAIL: Open MPI is installed but $mpibin is missing (make mpi builds it)"
  exit 1
fi
export OPENBLAS_NUM_THREADS=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp"
i=0
for study in "--preset iso/rigid-body/weak --kind weak --levels 2..5 --ref 8 --paths 90 --batches 9 --indep svi" \
             "--preset svi/rigid-body/strong-n3 --kind sup --levels 2..5 --ref 8 --paths 40 --batches 7"; do
  i=$((i+1))
  OMP_NUM_THREADS=1 "$bin" converge $study --threads 1 > "$out/s$i-t1.txt" 2>/dev/null || { echo "t-mpi: FAIL: study $i, 1 thread"; fail=1; }
  OMP_NUM_THREADS=2 "$bin" converge $study --threads 2 > "$out/s$i-t2.txt" 2>/dev/null || { echo "t-mpi: FAIL: study $i, 2 threads"; fail=1; }
  OMP_NUM_THREADS=1 $mpirun -n 1 "$mpibin" converge $study -o "$out/s$i-n1.txt" 2>"$out/s$i-n1.err" || { echo "t-mpi: FAIL: study $i, mpirun -n 1"; cat "$out/s$i-n1.err"; fail=1; }
  OMP_NUM_THREADS=1 $mpirun -n 2 "$mpibin" converge $study -o "$out/s$i-n2.txt" 2>"$out/s$i-n2.err" || { echo "t-mpi: FAIL: study $i, mpirun -n 2"; cat "$out/s$i-n2.err"; fail=1; }
  [ -s "$out/s$i-t1.txt" ] || { echo "t-mpi: FAIL: study $i printed nothing"; fail=1; }
  for v in t2 n1 n2; do
    if ! cmp -s "$out/s$i-t1.txt" "$out/s$i-$v.txt"; then
      echo "t-mpi: FAIL: study $i: $v differs from 1 thread:"; diff "$out/s$i-t1.txt" "$out/s$i-$v.txt" | head -5; fail=1
    fi
  done
done
i=0
for ens in "--preset iso/rigid-body/trajectories steps=30 --paths 1000 --first-path 5 --save-every 7" \
           "--preset rkmk/heavy-top/stoch-421-realization steps=12 --paths 300 --save-every 5 --grid h=0.01,0.02"; do
  i=$((i+1))
  OMP_NUM_THREADS=1 "$bin" ensemble $ens --threads 1 > "$out/e$i-t1.txt" 2>/dev/null || { echo "t-mpi: FAIL: ensemble $i, 1 thread"; fail=1; }
  "$bin" ensemble $ens --threads 2 > "$out/e$i-t2.txt" 2>/dev/null || { echo "t-mpi: FAIL: ensemble $i, 2 threads"; fail=1; }
  for n in 1 2 3; do
    $mpirun -n $n "$mpibin" ensemble $ens --threads 1 -o "$out/e$i-n$n.txt" 2>"$out/e$i-n$n.err" || { echo "t-mpi: FAIL: ensemble $i, mpirun -n $n"; cat "$out/e$i-n$n.err"; fail=1; }
  done
  [ -s "$out/e$i-t1.txt" ] || { echo "t-mpi: FAIL: ensemble $i printed nothing"; fail=1; }
  for v in t2 n1 n2 n3; do
    if ! cmp -s "$out/e$i-t1.txt" "$out/e$i-$v.txt"; then
      echo "t-mpi: FAIL: ensemble $i: $v differs from 1 thread:"; diff "$out/e$i-t1.txt" "$out/e$i-$v.txt" | head -5; fail=1
    fi
  done
done
$mpirun -n 2 "$mpibin" ensemble --preset iso/rigid-body/trajectories steps=4 h=8 maxit=5 on_cap=fail --paths 200 \
  > /dev/null 2> "$out/efail.err"
rc=$?
if [ "$rc" -ne 3 ] || ! grep -q "noise path" "$out/efail.err"; then
  echo "t-mpi: FAIL: a failing ensemble under mpirun exits $rc:"; cat "$out/efail.err"; fail=1
fi
# a failure on one rank is reported, with the path and level, and the exit code is 3
$mpirun -n 2 "$mpibin" converge --preset iso/rigid-body/strong maxit=2 --levels 2..3 --ref 5 --paths 8 \
  > /dev/null 2> "$out/fail.err"
rc=$?
if [ "$rc" -ne 3 ] || ! grep -q "path" "$out/fail.err"; then
  echo "t-mpi: FAIL: a failing study under mpirun exits $rc:"; cat "$out/fail.err"; fail=1
fi
[ "$fail" -eq 0 ] && echo "t-mpi: ok (threads 1/2 and ranks 1/2 byte-identical)"
exit $fail
