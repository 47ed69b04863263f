#!/bin/sh
# t-format.sh — every tracked .c and .h file is laid out as .clang-format says, by the
# clang-format installed: 14 on Debian 12, 19 on Debian 13, which lay out this tree alike
# (where they did not, two casts in macros, the code is written so that both agree; a line
# the two versions lay out differently is rewritten the same way), but for what a file
# marks "clang-format off" ... "clang-format on" (hand-laid tables, generated data), which
# clang-format itself leaves as it is (docs/conventions.md#layout). The tree was laid out
# in one commit, named in .git-blame-ignore-revs so that `git blame` looks through it.
# `sh tests/repo/t-format.sh --fix` lays out the files in place.
cd "$(dirname "$0")/../.." || exit 2
bin=$(command -v clang-format-14 || command -v clang-format)
[ -n "$bin" ] || { echo "t-format: SKIP: clang-format is not installed (as root: apt-get install clang-format)"; exit 77; }
ver=$("$bin" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || { echo "t-format: SKIP: not a git work tree (the check reads its tracked files)"; exit 77; }
[ "${1:-}" = --fix ] && { printf '%s\n' $files | xargs "$bin" -i; exit; }
# one clang-format process checks every file (--dry-run --Werror: a file it would change is
# an error naming it, and the exit status is nonzero; so it is when clang-format cannot
# read a file or .clang-format); the diff is shown for the first five files
out=$(printf '%s\n' $files | xargs "$bin" --dry-run --Werror 2>&1) && rc=0 || rc=$?
bad=$(echo "$out" | sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ -n "$bad" ]; then
  echo "t-format: FAIL: $(echo "$bad" | wc -l) of $(printf '%s\n' $files | wc -l) files not laid out as .clang-format says (fix: sh tests/repo/t-format.sh --fix):"
  for f in $(echo "$bad" | head -5); do "$bin" "$f" | diff -u "$f" - | head -20; done
  echo "$bad" | tail -n +6 | sed 's/^/  /'
  exit 1
elif [ "$rc" -ne 0 ]; then
  echo "t-format: FAIL: clang-format $ver exits $rc:"; echo "$out" | head -20
  exit 1
fi
echo "t-format: $(printf '%s\n' $files | wc -l) C files follow .clang-format (clang-format $ver)"
