#!/bin/sh
# t-stop-reports.sh — SIGINT, SIGTERM and SIGHUP at random progress points into verify,
# golden and audit (a reduced --only claim set), and SIGKILL into the commands that keep
# files for a later run (core/interrupt.c, docs/conventions.md#interrupt); the sibling of
# t-stop-signals.sh (run, ensemble, converge). Each stop is sent once the command's own
# progress (its report's bytes, its progress line's count, its cache's entries: never a
# fixed delay, the machine may be busy) reaches a point drawn from the printed seed, with
# a signal drawn from the three. Checks:
#   - exit 130 and "interrupted" (the command's own poll, not the fallback);
#   - every output that existed before and was not written is untouched (verify's --json,
#     an -o report stopped before its first byte, audit's old report folder);
#   - a written output is a byte prefix of the uninterrupted one (verify's report), or
#     the uninterrupted file itself (golden --write's files, each written whole);
#   - nothing a later run mistakes for complete: audit's cache holds whole claims (a
#     second run finishes with the uninterrupted verdicts, reusing them), no temporary
#     or lock file is left by a caught signal;
#   - SIGKILL, which nothing catches: run -o F leaves no F; run and ensemble --resume
#     from what a SIGKILL left give the uninterrupted bytes; golden --write's folder
#     holds only whole files; audit's cache only whole claims.
set -u
cd "$(dirname "$0")/../.." || exit 2
b="${SLPI_BUILD:-build}"
slpi="${SLPI_BIN:-$b/slpi}"
seed=${SLPI_TEST_SEED:-$(date +%s)}
echo "t-stop-reports: seed $seed (replay with SLPI_TEST_SEED=$seed)"
tmp=$(mktemp -d)
fail=0
bad() { echo "t-stop-reports: FAIL: $*" >&2; fail=1; }
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
me=t-stop-reports
. tests/cli/stopping.sh
# prefix NAME FULL PART: PART is a byte prefix of FULL
prefix() {
  n=$(wc -c < "$3" 2>/dev/null || echo -1)
  [ "$n" -ge 0 ] || { bad "$1: $3 is gone"; return; }
  head -c "$n" "$2" | cmp -s - "$3" || bad "$1: $3 is not a prefix of the uninterrupted output"
}
# untouched NAME FILE TEXT: FILE still holds TEXT
untouched() {
  [ "$(cat "$2" 2>/dev/null)" = "$3" ] || bad "$1: $2 was replaced (it held '$3')"
}
# leftovers NAME DIR: no temporary or lock file of core/output.c in DIR
leftovers() {
  left=$(find "$2" -name '.*.slpi-*' -o -name '*.lock' | head -3)
  [ -z "$left" ] || bad "$1: left behind: $left"
}

# ---- verify --global --table -o F --json J over existing F and J: F a prefix, J as it was
"$slpi" run --preset rkmk/heavy-top/stoch-421-realization --steps 300 -o "$tmp/ht.tsv" -q || bad "no trajectory"
"$slpi" verify --global --table "$tmp/ht.tsv" -o "$tmp/vg.txt" > /dev/null || bad "verify: the uninterrupted run failed"
full=$(wc -c < "$tmp/vg.txt")
signal
draw $((full * 4 / 5))
echo "old report" > "$tmp/vgp.txt"
echo "old json" > "$tmp/vgp.json"
stop verify-global $sig "bytes '$tmp/.vgp.txt.slpi-*'" $r \
  "$slpi" verify --global --table "$tmp/ht.tsv" -o "$tmp/vgp.txt" --json "$tmp/vgp.json"
if [ $sent = 1 ]; then
  prefix verify-global "$tmp/vg.txt" "$tmp/vgp.txt"
  untouched verify-global "$tmp/vgp.json" "old json"
fi
leftovers verify-global "$tmp"

# ---- verify --local (its report comes at the end): stopped at a drawn row count, the
# -o report and the --json are as they were
signal
draw 100
echo "old report" > "$tmp/vlp.txt"
echo "old json" > "$tmp/vlp.json"
stop verify-local $sig "count rows '$tmp/verify-local.err'" $r \
  "$slpi" verify --local --progress "$tmp/ht.tsv" -o "$tmp/vlp.txt" --json "$tmp/vlp.json"
if [ $sent = 1 ]; then
  untouched verify-local "$tmp/vlp.txt" "old report"
  untouched verify-local "$tmp/vlp.json" "old json"
fi
leftovers verify-local "$tmp"

# ---- golden --check -o G over an existing G: G as it was or a prefix of the whole report
"$slpi" golden -o "$tmp/golden.txt" || bad "golden: the uninterrupted check failed"
signal
draw 45
echo "old report" > "$tmp/goldenp.txt"
stop golden $sig "count cases '$tmp/golden.err'" $r "$slpi" golden --progress -o "$tmp/goldenp.txt"
# (the report so far: the finished pairs' lines, then the legend; compared without the
# legend and the last column, each pair's seconds)
untimed() { awk '/^ratios:/ { exit } { $NF = ""; print }' "$1"; }
if [ $sent = 1 ] && [ "$(cat "$tmp/goldenp.txt")" != "old report" ]; then
  [ -s "$tmp/goldenp.txt" ] || bad "golden: an empty report replaced the old one"
  untimed "$tmp/golden.txt" > "$tmp/golden.u"
  untimed "$tmp/goldenp.txt" > "$tmp/goldenp.u"
  prefix golden "$tmp/golden.u" "$tmp/goldenp.u"
fi
leftovers golden "$tmp"

# ---- golden --write into a folder of earlier files: each file the whole of its case
mkdir "$tmp/gw" "$tmp/gw0"
"$slpi" golden --write --dir "$tmp/gw0" -o /dev/null || bad "golden --write: the uninterrupted run failed"
cp "$tmp"/gw0/*.golden "$tmp/gw/"
for sig in $(signal && echo $sig) KILL; do
  draw 45
  stop golden-write-$sig $sig "count cases '$tmp/golden-write-$sig.err'" $r \
    "$slpi" golden --write --progress --dir "$tmp/gw" -o /dev/null
  for f in "$tmp"/gw0/*.golden; do
    cmp -s "$f" "$tmp/gw/$(basename "$f")" || bad "golden-write-$sig: $(basename "$f") is not the whole of its case"
  done
  [ "$(files "$tmp/gw/*.golden")" = "$(files "$tmp/gw0/*.golden")" ] || bad "golden-write-$sig: files added or lost"
  [ $sig = KILL ] || leftovers golden-write-$sig "$tmp/gw"
done
"$slpi" golden --write --dir "$tmp/gw" -o /dev/null || bad "golden --write after a SIGKILL: refused ($(tail -1 "$tmp/golden-write-KILL.err"))"

# ---- audit --only (a reduced claim set) with --cache and an old report folder: stopped
# after a drawn number of cached claims, the old report stays; the second run finishes
# with the uninterrupted verdicts, reusing the cache
claims=R1,R3,R4,I1,I2 # (five claims, about 0.5 s each)
verdicts() { grep -E '^[A-Z]+[0-9]+ ' "$1" | awk '{ print $1, $2 }'; }
"$slpi" audit --only $claims --out "$tmp/audit0" > "$tmp/audit0.out" 2>&1 || bad "audit: the uninterrupted run failed"
for sig in $(signal && echo $sig) KILL; do
  rm -rf "$tmp/cache" "$tmp/audit"
  mkdir "$tmp/audit"
  echo "old report" > "$tmp/audit/index.html"
  draw 4
  stop audit-$sig $sig "files '$tmp/cache/*.json'" $r \
    "$slpi" audit --only $claims --cache "$tmp/cache" --out "$tmp/audit"
  [ $sent = 1 ] && untouched audit-$sig "$tmp/audit/index.html" "old report"
  n=$(files "$tmp/cache/*.json")
  "$slpi" audit --only $claims --cache "$tmp/cache" --out "$tmp/audit" > "$tmp/audit-$sig-2.out" 2>&1 ||
    bad "audit-$sig: the second run failed: $(tail -2 "$tmp/audit-$sig-2.out")"
  [ "$(verdicts "$tmp/audit-$sig-2.out")" = "$(verdicts "$tmp/audit0.out")" ] ||
    bad "audit-$sig: the resumed verdicts differ from the uninterrupted run's"
  reused=$(grep -c "(cached)" "$tmp/audit-$sig-2.out")
  [ "$reused" = "$n" ] || bad "audit-$sig: $n claims cached, the second run reused $reused"
  echo "t-stop-reports: audit-$sig: $n claims cached, reused"
done

# ---- SIGKILL into run -o F: no F; with --checkpoint, --resume gives the uninterrupted bytes
run="--preset iso/rigid-body/trajectories --steps 2000000 output_every=1000"
"$slpi" run $run -o "$tmp/full.tsv" -q || bad "run: the uninterrupted run failed"
full=$(wc -c < "$tmp/full.tsv")
draw $((full * 4 / 5))
stop run-KILL KILL "bytes '$tmp/.part.tsv.slpi-*'" $r "$slpi" run $run -o "$tmp/part.tsv" -q
[ $sent = 1 ] && [ -e "$tmp/part.tsv" ] && bad "run-KILL: a killed run left part.tsv, which a later run would take as whole"
rm -f "$tmp"/.part.tsv.slpi-*
draw $((full * 4 / 5))
stop run-ck-KILL KILL "bytes '$tmp/ck.tsv'" $r \
  "$slpi" run $run -o "$tmp/ck.tsv" --checkpoint "$tmp/run.ck" --checkpoint-every 100000 -q
if [ -e "$tmp/run.ck" ]; then
  "$slpi" run $run -o "$tmp/ck.tsv" --resume "$tmp/run.ck" -q 2> "$tmp/resume.err" ||
    bad "run-ck-KILL: --resume failed: $(cat "$tmp/resume.err")"
  cmp -s "$tmp/full.tsv" "$tmp/ck.tsv" || bad "run-ck-KILL: the resumed output differs from the uninterrupted run"
fi

# ---- SIGKILL into ensemble --checkpoint: --resume gives the uninterrupted report
E="--preset iso/rigid-body/trajectories steps=200 --save-every 50 --paths 100000 --threads 1"
"$slpi" ensemble $E -o "$tmp/ens.tsv" || bad "ensemble: the uninterrupted run failed"
draw 2
stop ens-KILL KILL "bytes '$tmp/ens.ck'" 1 \
  "$slpi" ensemble $E -o "$tmp/ensp.tsv" --checkpoint "$tmp/ens.ck" --checkpoint-every $((r * 8192))
[ -e "$tmp/ensp.tsv" ] && [ $sent = 1 ] && bad "ens-KILL: a killed ensemble left its report"
if [ -e "$tmp/ens.ck" ]; then
  "$slpi" ensemble $E -o "$tmp/ensp.tsv" --resume "$tmp/ens.ck" 2> "$tmp/ens-resume.err" ||
    bad "ens-KILL: --resume failed: $(cat "$tmp/ens-resume.err")"
  cmp -s "$tmp/ens.tsv" "$tmp/ensp.tsv" || bad "ens-KILL: the resumed report differs from the uninterrupted run"
fi

[ $fail = 0 ] && echo "t-stop-reports: ok ($(uptime | sed 's/.*load/load/'))"
exit $fail
