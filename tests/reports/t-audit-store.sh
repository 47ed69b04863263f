#!/bin/sh
# t-audit-store.sh — the audit's store of studies (`slpi audit --cache DIR`,
# reports/audit-studies.c): a study run once is reloaded by a later run that differs only
# in its fit or level range (the multiverse's fit and levels members), and that run's
# checks are those of the same member run without a store, number for number; a store
# entry that cannot be read is recomputed without it and left as it was, and a study that
# cannot run without it either is UNABLE with its own error, the store not blamed; another BLAS
# kernel or seed offset is another study; a folder too long for the entry's path (but not
# for the claim's cache entry) runs unstored and says so. Each run is a separate process,
# so the audit's in-process memo of studies cannot stand in for the store.
. "$(dirname "$0")/prelude.sh"
cat > reg.txt <<'EOF'
# test registry: one so(3) weak-exact study read three ways
= X1 | s | m | p | -
X1 | t | CONFIRMED | claim | iso/so3/weak-exact | slope weak 1 4 7 400 0.7 inf phi=x1 | -
X1 | t | CONFIRMED | passes | iso/so3/weak-exact | slope weak 1 4 7 400 0.7 1.6 phi=x1 | -
X1 | t | CONFIRMED | fails | iso/so3/weak-exact | slope weak 1 4 7 400 1.5 inf phi=x1 | -
EOF
# the checks' numbers, every field but the time
nums() { jq -c '[.claims[].checks[] | del(.seconds, .figure)]' "$1/claims.json"; }
audit() { out=$1; shift; "$slpi" audit --claims reg.txt --out "$out" "$@" > "$out.log" 2>&1 || note "audit $*: exit $?: $(tail -2 "$out.log")"; }
member="--fit ols --levels drop-coarsest"
audit a --cache c
n=$(ls c | grep -c '^study-.*\.ckpt$')
[ "$n" = 1 ] || note "the first run stored $n studies, not 1: $(ls c | tr '\n' ' ')"
grep -q 'reloaded' a.log && note "the first run reloaded a study: $(grep reloaded a.log)"
rm -f c/X1-*.json   # the claims' cache entries: only the store is under test
audit b --cache c $member
grep -q '^audit: claim X1: 400 of 400 paths of its study reloaded from c/study-' b.log ||
  note "the fit member did not reload the study: $(grep -v '^ ' b.log | head -3 | tr '\n' ' ')"
audit fresh $member
[ "$(nums b)" = "$(nums fresh)" ] || note "the member's checks from the store differ from a run without it: $(nums b | cut -c1-300) against $(nums fresh | cut -c1-300)"
[ "$(nums a)" != "$(nums fresh)" ] || note "the wls member and the ols member give the same checks: the test cannot tell them apart"
# an unreadable entry: recomputed without the store, the entry left byte for byte
e=$(ls c/study-*.ckpt)
printf 'garbage\n' > "$e"; cp "$e" kept
rm -f c/X1-*.json   # the claims' cache entries: only the store is under test
audit g --cache c $member
grep -q "^audit: claim X1: the study store $e: .*: recomputed without it" g.log ||
  note "an unreadable store entry was not reported: $(grep -v '^ ' g.log | head -2 | tr '\n' ' ')"
cmp -s "$e" kept || note "the unreadable store entry was replaced"
[ "$(nums g)" = "$(nums fresh)" ] || note "the run past an unreadable entry differs from a run without the store"
# a study that cannot run, store or not (a reference level past the 2 GiB noise limit): its
# own error makes the check UNABLE, and the store (its own folder: the control's study is
# X1's, whose entry above is garbage) is not blamed for it
cat > big.txt <<'EOF'
= X2 | s | m | p | -
X2 | t | CONFIRMED | claim | iso/so3/weak-exact | slope weak 1 4 30 400 0.7 inf phi=x1 | -
X2 | t | CONFIRMED | fails | iso/so3/weak-exact | slope weak 1 4 7 400 1.5 inf phi=x1 | -
EOF
"$slpi" audit --claims big.txt --out big --cache c2 > big.log 2>&1
grep -q "study store" big.log && note "a study that cannot run blamed the store: $(grep 'study store' big.log)"
[ "$(jq -r '.claims[0].checks[0].outcome' big/claims.json 2>/dev/null)" = unable ] &&
  jq -r '.claims[0].checks[0].evidence' big/claims.json | grep -q -- "--ref 30" ||
  note "the study's own error is not the check's: $(jq -r '.claims[0].checks[0].evidence' big/claims.json 2>/dev/null | cut -c1-200)"
# another kernel, another seed offset: other studies, stored beside it
rm -f c/X1-*.json
OPENBLAS_CORETYPE=Prescott audit k --cache c $member
rm -f c/X1-*.json
audit s --cache c --seed-offset 1000 $member
grep -q 'reloaded' k.log s.log && note "another kernel or seed offset reloaded a study: $(grep reloaded k.log s.log)"
n=$(ls c | grep -c '^study-.*\.ckpt$')
[ "$n" = 3 ] || note "$n studies stored after the kernel and the seed offset, not 3"
# a folder whose claim entry fits in PATH_MAX but whose study entry does not
max=$(getconf PATH_MAX . 2>/dev/null || echo 4096)
L=$((max - 1 - 1 - 27 - 13 + 1))   # DIR/study-KEY.ckpt plus its temporary file's 13 bytes: one byte over
dir=$(awk -v n=$L 'BEGIN { s = ""; while (n > 0) { k = n > 200 ? 200 : n; if (n - k == 1) k--;
                   c = sprintf("%" k "s", ""); gsub(/ /, "c", c); s = s (s == "" ? "" : "/") c; n -= k + (n > k) }
                   print s }')
mkdir -p "$dir" || note "mkdir of a $L-byte path failed"
audit l --cache "$dir" $member
grep -q "^audit: claim X1: its study's store path ($L bytes of folder) does not fit in $max bytes: not stored" l.log ||
  note "the long folder's study was not said to be unstored: $(grep -v '^ ' l.log | head -2 | tr '\n' ' ')"
[ -z "$(ls "$dir" | grep '^study-')" ] || note "a study was stored in the long folder"
[ "$(ls "$dir" | grep -c '^X1-.*\.json$')" = 1 ] || note "the long folder lacks the claim's cache entry"
[ "$(nums l)" = "$(nums fresh)" ] || note "the unstored run differs from a run without the store"
cd "$top" || exit 2
[ $fail -eq 0 ] && echo "t-audit-store: a fit member reloads its study (checks equal to an unstored run's); an unreadable entry is recomputed and kept; another kernel or seed is another study; a $L-byte folder is not stored, said"
exit $fail
