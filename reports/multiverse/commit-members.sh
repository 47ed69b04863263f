#!/bin/sh
# commit-members.sh SLPI OUT ID [--count K] [multiverse.sh's options: --full, --cache DIR, ...]
# — claim ID's multiverse run into OUT one member at a time (reports/multiverse/multiverse.sh
# --max 1), each finished member committed before the next starts, in the git work tree
# that holds OUT (docs/claims.md#members-committed). What is committed is the member's
# evidence: OUT/members.tsv, OUT/members/ (its report, gzipped, and SHA256SUMS),
# OUT/multiverse.txt (INCOMPLETE until the last member) and OUT/checks.tsv
# (multiverse-evidence.sh); the members' folders, logs and the cache stay out of git
# (OUT/.gitignore). A run of hours so spans sessions: an interruption loses at most the
# member running, and the next call resumes after the last one committed. The tree that
# runs (the current folder: its registry, its frozen digest) need not be the one that
# holds OUT, so a later session resumes from a checkout at the run's revision (the
# members' rules digest must stay the rows'; multiverse.sh refuses another).
# --count K commits at most K members (default: until every member has run).
# Exit 0 when K members were committed or none is left, 2 on a bad argument, a member
# that failed (multiverse.sh's exit) or a commit refused.
usage="usage: commit-members.sh SLPI OUT ID [--count K] [multiverse.sh options]"
slpi=${1:?$usage}; out=${2:?$usage}; id=${3:?$usage}
shift 3
count=-1; pass=""
while [ $# -gt 0 ]; do
  case $1 in
    --count) count=${2:?--count K}; shift
             case $count in *[!0-9]* | "") echo "commit-members: --count wants a count, not '$count'" >&2; exit 2 ;; esac ;;
    --max) echo "commit-members: --max is its own (one member a commit); use --count" >&2; exit 2 ;;
    --full) pass="$pass --full" ;;
    --claims | --cache | --tests) pass="$pass $1 ${2:?$1 wants a value}"; shift ;;
    *) echo "commit-members: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out" || exit 2
git -C "$out" rev-parse --show-toplevel > /dev/null 2>&1 ||
  { echo "commit-members: $out is not inside a git work tree" >&2; exit 2; }
printf '/m[0-9]*/\n/m[0-9]*.log\n/members.txt\n/cache/\n' > "$out/.gitignore" || exit 2
rows() { [ -f "$out/members.tsv" ] && awk 'END { print NR - 1 }' "$out/members.tsv" || echo 0; }
done=0
while [ "$count" -lt 0 ] || [ "$done" -lt "$count" ]; do
  before=$(rows)
  # shellcheck disable=SC2086
  sh "$(dirname "$0")/multiverse.sh" "$slpi" "$out" "$id" --max 1 $pass > /dev/null || exit 2
  [ "$(rows)" -gt "$before" ] || break
  sh "$(dirname "$0")/multiverse-evidence.sh" "$out" || exit 2
  row=$(tail -1 "$out/members.tsv")
  k=$(printf '%s\n' "$row" | cut -f1); coords=$(printf '%s\n' "$row" | cut -f2)
  verdict=$(printf '%s\n' "$row" | cut -f3); cpu=$(printf '%s\n' "$row" | cut -f5)
  n=$(wc -l < "$out/members.txt")
  git -C "$out" add -- .gitignore members.tsv members multiverse.txt checks.tsv &&
    git -C "$out" commit -q -m "$id multiverse: member $k of $n, $verdict" \
      -m "Member $k ($coords) of claim $id's multiverse$pass, $cpu CPU-s, run by
reports/multiverse/commit-members.sh with $slpi; its report is archived in
members/$k.json.gz. Now: $(cat "$out/multiverse.txt")" -- . ||
    { echo "commit-members: git refused member $k's commit" >&2; exit 2; }
  echo "$id: member $k of $n committed ($verdict, $cpu CPU-s)"
  done=$((done + 1))
done
cat "$out/multiverse.txt"
