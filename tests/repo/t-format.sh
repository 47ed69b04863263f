#!/bin/sh
# t-format.sh — the C layout of .clang-format on every line changed since it was adopted:
# the base is the commit that added .clang-format (SLPI_FORMAT_BASE=commit: another), and
# every line of a .c or .h file that differs from the base (committed or not) must be as
# clang-format lays it out (clang-format-diff over `git diff -U0 BASE`). The tree before
# the base keeps its hand layout (docs/conventions.md#layout); a file is never reformatted
# wholesale by this check. The fix it prints reformats only the changed lines.
cd "$(dirname "$0")/../.." || exit 2
cf=$(command -v clang-format-diff-14 || command -v clang-format-diff)
[ -n "$cf" ] || { echo "t-format: SKIP: clang-format-diff is not installed (as root: apt-get install clang-format)"; exit 77; }
git rev-parse --git-dir > /dev/null 2>&1 || { echo "t-format: SKIP: not a git work tree (the check compares with the commit that adopted .clang-format)"; exit 77; }
base=${SLPI_FORMAT_BASE:-$(git log --diff-filter=A --format=%H -- .clang-format | tail -1)}
[ -n "$base" ] || { echo "t-format: SKIP: no commit adds .clang-format in this history (a shallow clone?)"; exit 77; }
bin=$(basename "$(command -v clang-format-14 || command -v clang-format)")
out=$(git diff -U0 --no-color -M "$base" -- '*.c' '*.h' | "$cf" -p1 -binary "$bin" 2>&1)
if [ -n "$out" ]; then
  echo "t-format: FAIL: lines changed since $(git log -1 --format=%h "$base") are not laid out as .clang-format says:"
  echo "$out" | head -60
  echo "t-format: fix: git diff -U0 --no-color -M $(git log -1 --format=%h "$base") -- '*.c' '*.h' | $(basename "$cf") -p1 -i"
  exit 1
fi
n=$(git diff --numstat -M "$base" -- '*.c' '*.h' | wc -l)
echo "t-format: the C lines of $n files changed since $(git log -1 --format=%h "$base") follow .clang-format"
