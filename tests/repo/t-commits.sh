#!/bin/sh
# t-commits.sh — CONTRIBUTING.md's commit subjects as a check: every commit that is not a
# merge, made after BASE (7ee06176, 2026-11-29 01:47 UTC, the last commit of main before
# this check landed) has a subject of at most 72 characters (counted as characters, not
# bytes). (Four commits once kept over it, named by archived evidence, were commits of
# tries whose CI failed and never landed.) Negative controls: subjects of 72 and 73
# characters run through the same judge. Outside a git work tree (a release tarball) there is no history
# to judge: exit 77 with the reason.
cd "$(dirname "$0")/../.." || exit 2
command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  { echo "t-commits: SKIP: not a git work tree (no history to judge)"; exit 77; }
BASE=7ee06176
git cat-file -e "$BASE^{commit}" 2>/dev/null ||
  { echo "t-commits: FAIL: the base $BASE is not in this clone's history (a shallow clone?)"; exit 1; }

# over72: read "HASH SUBJECT" lines, print those whose subject is over 72 characters
over72() {
  perl -CSD -ne 'chomp; my ($h, $s) = split / /, $_, 2; $s //= ""; print "$h ", length($s), " $s\n" if length($s) > 72'
}
fail=0
c72=$(printf '%s' "0000000 " && head -c 72 /dev/zero | tr '\0' 'x')
c73="${c72}y"
[ -z "$(printf '%s\n' "$c72" | over72)" ] && [ -n "$(printf '%s\n' "$c73" | over72)" ] &&
  [ -z "$(printf '0000000 %s\n' "core/é: $(head -c 64 /dev/zero | tr '\0' 'x')" | over72)" ] ||
  { echo "t-commits: FAIL: the judge's controls (72 passes, 73 fails, é counts once)"; fail=1; }

long=$(git log --no-merges --format='%h %s' --abbrev=8 "$BASE..HEAD" | over72)
n=$(git rev-list --no-merges --count "$BASE..HEAD")
[ -z "$long" ] || { printf 't-commits: FAIL: over 72 characters (hash, length, subject): %s\n' "$long"; fail=1; }
[ $fail -eq 0 ] && echo "t-commits: $n commits after $BASE, every subject at most 72 characters; controls reported"
exit $fail
