#!/bin/sh
# t-mpi-verify.sh — `slpi verify --local` on MPI ranks with the streaming windows
# (oracle/verify.c reads the file in windows of LOCAL_WINDOW = 8 rows per thread; in a
# window, rank r checks the rows i = r (mod ranks), and the ranks' rows are summed by
# cli/cmd-verify.c's combine before rank 0 alone reports). A 31-row rigid-body
# trajectory (four windows, the last one partial) is verified with the per-row table by
# the plain binary on 1 and 2 threads and by build/mpi/slpi under mpirun -n 1, 2 and 3
# (3 ranks do not divide a window: a rank's rows change from one window to the next),
# and every report must be the same bytes as the plain one-thread report:
#   1. every row: 31 PASS;
#   2. a sample of 13 rows (--sample 13 --sample-seed 5): the same 13 rows everywhere;
#   3. the file with row 17's x1 moved by 1e-9 (relative): rows 17 and 18 FAIL (18 is
#      checked from the moved 17), exit 1 everywhere;
#   4. two paths pooled in one call: the same report, statistics included.
# Skips (77) without Open MPI, as tests/studies/t-mpi.sh does.
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
bin="${SLPI_BIN:-$b/slpi}"
mpibin="$b/mpi/slpi"
fail=0
bad() { echo "t-mpi-verify: FAIL: $*"; fail=1; }
if ! command -v mpirun >/dev/null 2>&1 || ! command -v "${MPICC:-mpicc}" >/dev/null 2>&1; then
  echo "t-mpi-verify: SKIP: Open MPI is not installed (mpirun or mpicc missing)"
  exit 77
fi
[ -x "$mpibin" ] || { echo "t-mpi-verify: FAIL: Open MPI is installed but $mpibin is missing (make mpi builds it)"; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export OPENBLAS_NUM_THREADS=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun="mpirun --allow-run-as-root --oversubscribe --mca btl self,vader,tcp"
"$bin" run --preset iso/rigid-body/trajectories steps=30 -q -o "$d/good.tsv" || { bad "slpi run failed"; exit 1; }
"$bin" run --preset iso/rigid-body/trajectories steps=30 path=1 -q -o "$d/good1.tsv" || { bad "slpi run failed"; exit 1; }
# row 17 (step 17): x1 (third column) times 1 + 1e-9
awk -F '\t' -v OFS='\t' '$1 == "17" { $3 = sprintf("%.17g", $3 * (1 + 1e-9)) } { print }' "$d/good.tsv" > "$d/moved.tsv"
cmp -s "$d/good.tsv" "$d/moved.tsv" && bad "row 17 was not moved"

# compare CASE FILE WANT_RC GREP OPTIONS...: the reports of every run equal to the plain
# one-thread report, which holds GREP; every run exits WANT_RC
compare() {
  c=$1 f=$2 want=$3 pat=$4; shift 4
  OMP_NUM_THREADS=1 "$bin" verify --local --table --threads 1 "$@" "$f" > "$d/$c-t1.txt" 2> "$d/$c-t1.err"
  rc=$?; [ $rc -eq "$want" ] || bad "$c: plain, 1 thread: exit $rc, want $want: $(tail -c 300 "$d/$c-t1.err")"
  grep -q "$pat" "$d/$c-t1.txt" || bad "$c: the report lacks '$pat': $(grep '^local' "$d/$c-t1.txt")"
  OMP_NUM_THREADS=2 "$bin" verify --local --table --threads 2 "$@" "$f" > "$d/$c-t2.txt" 2> "$d/$c-t2.err"
  rc=$?; [ $rc -eq "$want" ] || bad "$c: plain, 2 threads: exit $rc, want $want"
  for n in 1 2 3; do
    OMP_NUM_THREADS=1 $mpirun -n $n "$mpibin" verify --local --table --threads 1 -o "$d/$c-n$n.txt" "$@" "$f" 2> "$d/$c-n$n.err"
    rc=$?; [ $rc -eq "$want" ] || bad "$c: mpirun -n $n: exit $rc, want $want: $(tail -c 300 "$d/$c-n$n.err")"
  done
  for v in t2 n1 n2 n3; do
    cmp -s "$d/$c-t1.txt" "$d/$c-$v.txt" ||
      bad "$c: $v differs from the plain one-thread report: $(diff "$d/$c-t1.txt" "$d/$c-$v.txt" | head -6)"
  done
}
compare all "$d/good.tsv" 0 "local rows: 31 PASS, 0 FAIL, 0 UNABLE"
compare sample "$d/good.tsv" 0 "local rows: 13 PASS, 0 FAIL, 0 UNABLE" --sample 13 --sample-seed 5
compare moved "$d/moved.tsv" 1 "local rows: 29 PASS, 2 FAIL, 0 UNABLE"
# two paths pooled in one call: both files proved, their rows' statistics
# summed in file order, then row order, the same on any threads and ranks
compare pooled "$d/good1.tsv" 0 "statistics: 60 rows of 2 paths" "$d/good.tsv"
for s in 17 18; do
  grep -Eq "^ +$s +$((s-1)) .* FAIL +(arb|blas|blas\+arb)$" "$d/moved-t1.txt" || bad "moved: row $s is not FAIL: $(grep -E "^ +$s " "$d/moved-t1.txt")"
done
[ $fail -eq 0 ] && echo "t-mpi-verify: ok (threads 1/2 and ranks 1/2/3 give the same report: every row, a sample, two FAIL rows, two pooled paths)"
exit $fail
