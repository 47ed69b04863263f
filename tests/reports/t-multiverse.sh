#!/bin/sh
# t-multiverse.sh — reports/multiverse/multiverse.sh, a claim decided over its declared multiverse
# (docs/claims.md#multiverse), with a stand-in for slpi whose verdict is a function of the
# member's choices: every combination of the declared values runs once, with its seed
# offset, fit and levels as options and its BLAS kernel and libm in the environment; the
# verdict over the members (docs/claims.md#labels) is CONFIRMED only when all of at least
# 4 agree (fewer: UNABLE), SEED-DEPENDENT when only the seeds move it (with shares and
# Wilson intervals), CRITERION-DEPENDENT when only another choice does (or several only
# jointly), SEED-AND-CRITERION-DEPENDENT when both do, "moved by" naming them; UNABLE
# when a member is and the others agree; a dimension whose values give one outcome counts
# its members once (rule 5); a claim without "%" lines has one member; the libm members
# mpfr-up and mpfr-down preload the library with SLPI_CRMATH_ROUND=up or down; a missing
# libm library, a missing claim and a member without a report exit 2. Resumable: --max K
# runs K members, a later run with the same folder runs only the others; a partial run is
# INCOMPLETE with the CPU the rest still needs and what moved so far; a changed rules
# digest stops it.
. tests/reports/multiverse-prelude.sh
cat > "$dir/claims.txt" <<'REG'
= X1 | s | m | p | -
% X1 | seeds | 0 1000 2000 3000 4000 5000 6000 7000 | eight noises
% X1 | blas | Haswell Prescott | two kernels
% X1 | libm | glibc mpfr | two exponentials
= X2 | s | m | p | -
= X3 | s | m | p | -
% X3 | levels | all drop-coarsest | two level ranges
= X4 | s | m | p | -
% X4 | seeds | 0 1000 | two noises
% X4 | libm | glibc mpfr mpfr-up mpfr-down | the special functions to nearest and directed
= X5 | s | m | p | -
% X5 | seeds | 0 1000 | two noises
% X5 | fit | wls ols | two fits
REG
mv() { SLPI_CRMATH=$dir/crmath.so sh reports/multiverse/multiverse.sh "$dir/slpi" "$dir/$1" "$2" --claims "$dir/claims.txt" > "$dir/$1.out" 2>&1; }
want() {   # NAME ID RULE PATTERN: the verdict line of run NAME matches PATTERN
  RULE=$3 mv "$1" "$2" || { echo "t-multiverse: FAIL: $1 exited $?: $(cat "$dir/$1.out")"; fail=1; return; }
  grep -q -- "$4" "$dir/$1/multiverse.txt" || { echo "t-multiverse: FAIL: $1: $(cat "$dir/$1/multiverse.txt") (want /$4/)"; fail=1; }
}
want all X1 'echo CONFIRMED' '^X1 CONFIRMED over 32 members: CONFIRMED 32 (share 1.00 \[0.89, 1.00\])$'
# every combination once, its choices where the member's audit sees them
[ "$(jq -r .env "$dir"/all/m*/claims.json | sort -u | wc -l)" = 32 ] || { echo "t-multiverse: FAIL: the 32 members are not 32 different runs"; fail=1; }
for e in "S=7000 F=wls L=all K=Prescott P=$dir/crmath.so" "S=0 F=wls L=all K=Haswell P="; do
  jq -r .env "$dir"/all/m*/claims.json | grep -qxF "$e" || { echo "t-multiverse: FAIL: no member ran as '$e'"; fail=1; }
done
[ "$(grep -c 'libm=mpfr' "$dir/all/members.tsv")" = 16 ] || { echo "t-multiverse: FAIL: members.tsv lacks the 16 mpfr members"; fail=1; }
grep -q "	7000\.[0-9]*5	" "$dir/all/members.tsv" || { echo "t-multiverse: FAIL: members.tsv lacks the decisive numbers"; fail=1; }
# each member's report is kept with its sha256 (members/K.json.gz, SHA256SUMS) and its row
# is generated from it (docs/claims.md#members-evidence): members.sh check passes on the
# run and fails on a verdict edited in members.tsv, an edited report, a removed report, and
# a declared seed or libm its report did not run with; a folder whose reports were not kept passes
# only as the legacy rows its manifest freezes by sha256, and fails once a row is edited
mc() { sh reports/multiverse/members.sh check "$@" > "$dir/mc.out" 2>&1; }
[ "$(ls "$dir"/all/members/*.json.gz | wc -l)" = 32 ] && [ "$(wc -l < "$dir/all/members/SHA256SUMS")" = 32 ] &&
  mc "$dir/all" && grep -q ": 32 of 32 rows evidenced by their archived reports, 0 legacy" "$dir/mc.out" ||
  { echo "t-multiverse: FAIL: the members' reports are not kept, or their rows not checked: $(cat "$dir/mc.out")"; fail=1; }
for e in verdict report removed seed libm legacy legacyedit; do cp -r "$dir/all" "$dir/$e"; done
sed -i '5s/\tCONFIRMED\t/\tDISCREPANCY\t/' "$dir/verdict/members.tsv"
gzip -dc "$dir/report/members/3.json.gz" | sed 's/CONFIRMED/DISCREPANCY/' | gzip -n > "$dir/report/members/3.json.gz.new" &&
  command mv "$dir/report/members/3.json.gz.new" "$dir/report/members/3.json.gz"
rm "$dir/removed/members/7.json.gz"
sed -i '2s/^1\tseeds=0 /1\tseeds=1000 /' "$dir/seed/members.tsv"
sed -i '3s/ libm=mpfr\t/ libm=glibc\t/' "$dir/libm/members.tsv"
rm -r "$dir/legacy/members" "$dir/legacyedit/members"
printf 'folder\trows\tsha256\twhy\n%s/legacy\t32\t%s\ttest\n%s/legacyedit\t32\t%s\ttest\n' "${dir##*/}" "$(sha256sum < "$dir/all/members.tsv" | cut -d' ' -f1)" \
  "${dir##*/}" "$(sha256sum < "$dir/all/members.tsv" | cut -d' ' -f1)" > "$dir/legacy.tsv"
sed -i '9s/\tCONFIRMED\t/\tDISCREPANCY\t/' "$dir/legacyedit/members.tsv"
for e in "verdict:member 4's row is not the one its archived report gives" "report:member 3's archived report is not the one of its SHA256SUMS line" \
         "removed:member 7's row has no archived report and is not a legacy row" "seed:member 1 declares seeds=1000, its report ran with seeds=0 " \
         "libm:member 2 declares libm=glibc, its report ran with seeds=0 fit=wls levels=all blas=Haswell libm=mpfr" \
         "legacyedit:its 32 legacy rows (no member's report archived) differ from the rows frozen by sha256"; do
  mc --legacy "$dir/legacy.tsv" "$dir/${e%%:*}"; [ $? = 1 ] && grep -qF "${e#*:}" "$dir/mc.out" ||
    { echo "t-multiverse: FAIL: members.sh check misses the ${e%%:*} edit: $(cat "$dir/mc.out")"; fail=1; }
done
mc --legacy "$dir/legacy.tsv" "$dir/legacy" && grep -q ": 0 of 32 rows evidenced by their archived reports, 32 legacy (reports not kept" "$dir/mc.out" ||
  { echo "t-multiverse: FAIL: an unedited legacy folder: $(cat "$dir/mc.out")"; fail=1; }
# two seeds of eight disagree: SEED-DEPENDENT, 8 of 32 members DISCREPANCY
want seeds X1 '[ $S = 1000 ] || [ $S = 5000 ] && echo DISCREPANCY || echo CONFIRMED' \
  '^X1 SEED-DEPENDENT over 32 members: CONFIRMED 24 (share 0.75 \[0.58, 0.87\]) DISCREPANCY 8 (share 0.25 \[0.13, 0.42\]); moved by: seeds$'
# members that cannot differ (rule 5): a decisive number the seeds do not reach counts the
# 8 seed members once; one reached by no choice leaves one distinct member; members UNABLE
# without a number are not taken for identical
VAL=1.5 want same X1 'echo CONFIRMED' \
  '^X1 CONFIRMED over 1 distinct member of 32 (seeds, blas, libm: every value gives the same outcome, so these dimensions do not apply): CONFIRMED 1 (share 1.00 \[0.21, 1.00\])$'
RULE='echo CONFIRMED' SLPI_CRMATH=$dir/crmath.so sh reports/multiverse/multiverse.sh "$dir/slpi" "$dir/noseeds" X1 --claims "$dir/claims.txt" > /dev/null 2>&1
awk -F'\t' -v OFS='\t' 'NR > 1 { sub(/^[0-9]+/, "0", $4) } { print }' "$dir/noseeds/members.tsv" > "$dir/noseeds.tsv"
sh reports/multiverse/multiverse-verdict.sh X1 "$dir/noseeds.tsv" 32 | grep -q '^X1 CONFIRMED over 4 distinct members of 32 (seeds: every value gives the same outcome, so the dimension does not apply): CONFIRMED 4 (share 1.00 \[0.51, 1.00\])$' ||
  { echo "t-multiverse: FAIL: seeds that reach no number: $(sh reports/multiverse/multiverse-verdict.sh X1 "$dir/noseeds.tsv" 32)"; fail=1; }
VAL=null want blind X1 'echo UNABLE' '^X1 UNABLE over 32 members: UNABLE 32 '
# the kernel decides, the seeds do not
want kernel X1 '[ $K = Prescott ] && echo DISCREPANCY || echo CONFIRMED' '^X1 CRITERION-DEPENDENT over 32 .*; moved by: blas$'
# the libm decides in one seed group only: both the seeds and the libm move the verdict,
# and the label says both (not SEED-DEPENDENT alone, which hid the libm)
want mixed X1 '[ $S = 3000 ] && [ -n "$P" ] && echo DISCREPANCY || echo CONFIRMED' '^X1 SEED-AND-CRITERION-DEPENDENT over 32 .*; moved by: seeds, libm$'
# I10's case: the fit decides on one seed set
want fitseed X5 '[ $S = 1000 ] && [ $F = ols ] && echo DISCREPANCY || echo CONFIRMED' '^X5 SEED-AND-CRITERION-DEPENDENT over 4 members: CONFIRMED 3 .* DISCREPANCY 1 .*; moved by: seeds, fit$'
# members that differ only across two dimensions at once (the others between UNABLE)
want joint X5 '[ $S = 0 ] && [ $F = wls ] && echo CONFIRMED || { [ $S = 1000 ] && [ $F = ols ] && echo DISCREPANCY || echo UNABLE; }' \
  '^X5 CRITERION-DEPENDENT over 4 members: .*; moved by: several dimensions jointly$'
# the declared share: all alike, but fewer than 4 members (the 95% lower bound of 2/2 is 0.34)
want two X3 'echo CONFIRMED' '^X3 UNABLE over 2 members: CONFIRMED 2 (share 1.00 \[0.34, 1.00\])$'
want four X4 'echo CONFIRMED' '^X4 CONFIRMED over 8 members: CONFIRMED 8 '
# the directed libms: the library preloaded, its rounding set, each value once per seed
[ "$(jq -r '"\(.env | sub(".* P="; "P=")) \(.round)"' "$dir"/four/m*/claims.json | sort | uniq -c | awk '{ $1 = $1; print }' | tr '\n' ,)" = \
  "2 P= near,2 P=$dir/crmath.so down,2 P=$dir/crmath.so near,2 P=$dir/crmath.so up," ] ||
  { echo "t-multiverse: FAIL: the libm members: $(jq -r '"\(.env) \(.round)"' "$dir"/four/m*/claims.json | tr '\n' ,)"; fail=1; }
want updown X4 '[ "${SLPI_CRMATH_ROUND:-}" = up ] && echo CONFIRMED || echo DISCREPANCY' '^X4 CRITERION-DEPENDENT over 8 .*; moved by: libm$'
# one member UNABLE, the others alike
want unable X1 '[ $S = 2000 ] && [ $K = Haswell ] && [ -z "$P" ] && echo UNABLE || echo DISCREPANCY' \
  '^X1 UNABLE over 32 members: DISCREPANCY 31 .* UNABLE 1 '
# a claim without "%" lines: one member, run in the environment's kernel
OPENBLAS_CORETYPE=Sandybridge want one X2 'echo DISCREPANCY' '^X2 DISCREPANCY over 1 member: DISCREPANCY 1 '
grep -q "blas(Sandybridge)" "$dir/one/members.tsv" || { echo "t-multiverse: FAIL: the kernel in force is not recorded"; fail=1; }
# no kernel declared nor set: none is forced on the member, and the one it ran on (its
# report's openblas=) is recorded
ob=${OPENBLAS_CORETYPE-}; unset OPENBLAS_CORETYPE
want found X2 'echo DISCREPANCY' '^X2 DISCREPANCY over 1 member'
[ -z "$ob" ] || export OPENBLAS_CORETYPE="$ob"
[ "$(jq -r .env "$dir/found/m1/claims.json")" = "S=0 F=wls L=all K= P=" ] || { echo "t-multiverse: FAIL: a kernel was forced on the member: $(jq -r .env "$dir/found/m1/claims.json")"; fail=1; }
grep -q "blas(Autodetected)" "$dir/found/members.tsv" || { echo "t-multiverse: FAIL: the kernel the member ran on is not recorded: $(cat "$dir/found/members.tsv")"; fail=1; }
# resumed: 5 members, then the 27 others, each run once; the partial verdict is INCOMPLETE
# with the CPU the rest needs, and the dimensions seen to move so far
rv() { n=$1; shift; SLPI_CRMATH=$dir/crmath.so CALLS=$dir/calls sh reports/multiverse/multiverse.sh "$dir/slpi" "$dir/$n" X1 --claims "$dir/claims.txt" "$@" > "$dir/$n.out" 2>&1; }
: > "$dir/calls"
RULE='echo CONFIRMED' rv part --max 5 || { echo "t-multiverse: FAIL: --max 5: $(cat "$dir/part.out")"; fail=1; }
grep -q '^X1 INCOMPLETE over 5 of 32 members: CONFIRMED 5 (share 1.00 \[0.57, 1.00\]); 27 not run (about 0.00 CPU-hours' "$dir/part/multiverse.txt" ||
  { echo "t-multiverse: FAIL: a partial run: $(cat "$dir/part/multiverse.txt")"; fail=1; }
RULE='echo CONFIRMED' rv part || { echo "t-multiverse: FAIL: resumed: $(cat "$dir/part.out")"; fail=1; }
[ "$(wc -l < "$dir/calls")" = 32 ] && [ "$(sort -u "$dir/calls" | wc -l)" = 32 ] ||
  { echo "t-multiverse: FAIL: resumed: $(wc -l < "$dir/calls") member runs, not the 32 members once each"; fail=1; }
grep -q '^X1 CONFIRMED over 32 members: CONFIRMED 32 ' "$dir/part/multiverse.txt" ||
  { echo "t-multiverse: FAIL: resumed: $(cat "$dir/part/multiverse.txt")"; fail=1; }
[ "$(awk -F'\t' 'NR > 1 && $5 ~ /^[0-9.]+$/ && $6 == "d1"' "$dir/part/members.tsv" | wc -l)" = 32 ] ||
  { echo "t-multiverse: FAIL: members.tsv lacks the CPU seconds or the rules digest"; fail=1; }
# members 1..8 are seeds 0 and 1000 (kernel, libm vary fastest): the seeds already differ,
# but the label waits for every member (another dimension may move too)
RULE='[ $S = 1000 ] && echo DISCREPANCY || echo CONFIRMED' rv settled --max 8
grep -q '^X1 INCOMPLETE over 8 of 32 members: CONFIRMED 4 .* DISCREPANCY 4 .*; moved so far by: seeds; 24 not run' "$dir/settled/multiverse.txt" ||
  { echo "t-multiverse: FAIL: a partial run whose seeds differ: $(cat "$dir/settled/multiverse.txt")"; fail=1; }
# the unit tests' results reach every member (a claim decided by a "test" check)
RULE='echo CONFIRMED' rv withtests --tests /the/tests.tsv --max 2
[ "$(cat "$dir"/withtests/m1/tests "$dir"/withtests/m2/tests 2>/dev/null | sort -u)" = /the/tests.tsv ] ||
  { echo "t-multiverse: FAIL: --tests did not reach the members"; fail=1; }
# a changed rule (its digest) is a new multiverse, not a continuation
DIGEST=d2 RULE='echo CONFIRMED' rv settled --max 1; [ $? = 2 ] && grep -q "rules digest d2.*listed under d1" "$dir/settled.out" ||
  { echo "t-multiverse: FAIL: a changed rules digest was not refused: $(cat "$dir/settled.out")"; fail=1; }
[ "$(grep -c . "$dir/settled/members.tsv")" = 9 ] || { echo "t-multiverse: FAIL: the refused member was listed"; fail=1; }
# refusals: a missing libm library, a missing claim, a member without its report
RULE='echo CONFIRMED' SLPI_CRMATH=$dir/none.so sh reports/multiverse/multiverse.sh "$dir/slpi" "$dir/bad1" X1 --claims "$dir/claims.txt" > "$dir/bad1.out" 2>&1
[ $? = 2 ] && grep -q "none.so missing" "$dir/bad1.out" || { echo "t-multiverse: FAIL: a missing libm library: $(cat "$dir/bad1.out")"; fail=1; }
RULE='echo CONFIRMED' mv bad2 X9; [ $? = 2 ] && grep -q "has no claim X9" "$dir/bad2.out" || { echo "t-multiverse: FAIL: a missing claim: $(cat "$dir/bad2.out")"; fail=1; }
NOREPORT=4000 RULE='echo CONFIRMED' mv bad3 X1; [ $? = 2 ] && grep -q "seeds=4000 .*wrote no report" "$dir/bad3.out" || { echo "t-multiverse: FAIL: a member without a report: $(cat "$dir/bad3.out")"; fail=1; }
[ $fail = 0 ] && echo "t-multiverse: ok (members, their reports as evidence, environment, directed libms, SEED-/CRITERION-/SEED-AND-CRITERION-DEPENDENT, moved by, the share, UNABLE, distinct members, one member, resumed, --tests, refusals)"
exit $fail
