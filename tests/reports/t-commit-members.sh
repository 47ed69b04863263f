#!/bin/sh
# t-commit-members.sh — reports/multiverse/commit-members.sh, a multiverse run member by
# member with each finished member committed (docs/claims.md#members-committed), with the
# stand-in for slpi (tests/reports/multiverse-stand-in) and OUT in a scratch git repository:
# --count K makes K commits, one member each, holding its row, its archived report and the
# verdict so far (INCOMPLETE), and nothing of the members' folders, logs or cache; the rows
# check against the archived reports (members.sh check); a member that fails stops the
# run with the members before it committed and its own not; the next call resumes after
# the last commit and runs each member once; a finished run commits nothing more; bad
# arguments and an OUT outside git exit 2.
command -v git >/dev/null || { echo "t-commit-members: SKIP: git is not installed"; exit 77; }
. tests/reports/multiverse-prelude.sh
cat > "$dir/claims.txt" <<'REG'
= X4 | s | m | p | -
% X4 | seeds | 0 1000 | two noises
% X4 | libm | glibc mpfr mpfr-up mpfr-down | the special functions to nearest and directed
REG
git init -q "$dir/repo" && git -C "$dir/repo" config user.email t@slpi && git -C "$dir/repo" config user.name t &&
  git -C "$dir/repo" commit -q --allow-empty -m base || exit 1
out=$dir/repo/full/X4
cm() { name=$1; shift; SLPI_CRMATH=$dir/crmath.so CALLS=$dir/calls sh reports/multiverse/commit-members.sh \
  "$dir/slpi" "$out" X4 --claims "$dir/claims.txt" --cache "$dir/cache" "$@" > "$dir/$name.out" 2>&1; }
commits() { git -C "$dir/repo" rev-list --count HEAD; }
: > "$dir/calls"
RULE='[ $S = 1000 ] && echo DISCREPANCY || echo CONFIRMED' cm three --count 3 ||
  { echo "t-commit-members: FAIL: --count 3 exited $?: $(cat "$dir/three.out")"; fail=1; }
[ "$(commits)" = 4 ] || { echo "t-commit-members: FAIL: --count 3 made $(($(commits) - 1)) commits"; fail=1; }
# each commit adds one member: its row, its report and SHA256SUMS line, the verdict so far
for k in 1 2 3; do
  c=$(git -C "$dir/repo" rev-list --reverse HEAD | sed -n "$((k + 1))p")
  git -C "$dir/repo" show -s --format=%s "$c" | grep -q "^X4 multiverse: member $k of 8, CONFIRMED$" ||
    { echo "t-commit-members: FAIL: commit $k's subject: $(git -C "$dir/repo" show -s --format=%s "$c")"; fail=1; }
  [ "$(git -C "$dir/repo" show "$c:full/X4/members.tsv" | awk 'END { print NR - 1 }')" = "$k" ] &&
    git -C "$dir/repo" cat-file -e "$c:full/X4/members/$k.json.gz" &&
    [ "$(git -C "$dir/repo" show "$c:full/X4/members/SHA256SUMS" | wc -l)" = "$k" ] &&
    git -C "$dir/repo" show "$c:full/X4/multiverse.txt" | grep -q "^X4 INCOMPLETE over $k of 8 members" &&
    [ "$(git -C "$dir/repo" show "$c:full/X4/checks.tsv" | cut -f1 | sort -u | grep -c '^[0-9]')" = "$k" ] ||
    { echo "t-commit-members: FAIL: commit $k does not hold member $k's evidence: $(git -C "$dir/repo" show --stat "$c")"; fail=1; }
done
[ -z "$(git -C "$dir/repo" status --porcelain)" ] ||
  { echo "t-commit-members: FAIL: left outside git: $(git -C "$dir/repo" status --porcelain | head -3)"; fail=1; }
git -C "$dir/repo" ls-files | grep -q -e '/m[0-9]*/' -e '\.log$' -e cache -e members.txt &&
  { echo "t-commit-members: FAIL: the members' folders, logs or cache were committed"; fail=1; }
sh reports/multiverse/members.sh check "$out" > "$dir/check.out" 2>&1 ||
  { echo "t-commit-members: FAIL: the committed rows do not check against their reports: $(cat "$dir/check.out")"; fail=1; }
# member 5 (seeds=1000 libm=glibc) fails: members 1-4 committed, 5 not, exit 2
NOREPORT=1000 RULE='echo CONFIRMED' cm broken; rc=$?
[ $rc = 2 ] && [ "$(commits)" = 5 ] && [ "$(git -C "$dir/repo" show HEAD:full/X4/members.tsv | awk 'END { print NR - 1 }')" = 4 ] ||
  { echo "t-commit-members: FAIL: a failing member: exit $rc, $(commits) commits: $(cat "$dir/broken.out")"; fail=1; }
# resumed: the four others, each once; the last commit's verdict is the whole multiverse's
RULE='[ $S = 1000 ] && echo DISCREPANCY || echo CONFIRMED' cm rest ||
  { echo "t-commit-members: FAIL: resumed: $(cat "$dir/rest.out")"; fail=1; }
# (the stand-in logs a call only when it writes a report: the failed member's is not logged)
[ "$(commits)" = 9 ] && [ "$(grep -c . "$dir/calls")" = 8 ] && [ "$(git -C "$dir/repo" show HEAD:full/X4/members.tsv | cut -f1 | grep '^[0-9]' | sort -un | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 " ] ||
  { echo "t-commit-members: FAIL: resumed: $(commits) commits, $(grep -c . "$dir/calls") reports (want 8, one a member)"; fail=1; }
git -C "$dir/repo" show HEAD:full/X4/multiverse.txt | grep -q '^X4 SEED-DEPENDENT over 8 members: CONFIRMED 4 .* DISCREPANCY 4 ' ||
  { echo "t-commit-members: FAIL: the final verdict: $(git -C "$dir/repo" show HEAD:full/X4/multiverse.txt)"; fail=1; }
RULE='echo CONFIRMED' cm again && [ "$(commits)" = 9 ] ||
  { echo "t-commit-members: FAIL: a finished run committed again: $(cat "$dir/again.out")"; fail=1; }
# refusals
RULE='echo CONFIRMED' cm badcount --count x; [ $? = 2 ] && grep -q "wants a count" "$dir/badcount.out" ||
  { echo "t-commit-members: FAIL: --count x: $(cat "$dir/badcount.out")"; fail=1; }
RULE='echo CONFIRMED' cm badmax --max 2; [ $? = 2 ] || { echo "t-commit-members: FAIL: --max was accepted"; fail=1; }
mkdir -p "$dir/nogit" && RULE='echo CONFIRMED' SLPI_CRMATH=$dir/crmath.so GIT_CEILING_DIRECTORIES=$dir sh reports/multiverse/commit-members.sh \
  "$dir/slpi" "$dir/nogit/X4" X4 --claims "$dir/claims.txt" > "$dir/nogit.out" 2>&1
[ $? = 2 ] && grep -q "not inside a git work tree" "$dir/nogit.out" && [ ! -e "$dir/nogit/X4/members.tsv" ] ||
  { echo "t-commit-members: FAIL: an OUT outside git: $(cat "$dir/nogit.out")"; fail=1; }
[ $fail = 0 ] && echo "t-commit-members: ok (one member a commit, its evidence, nothing else, a failed member, resumed, finished, refusals)"
exit $fail
