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
bad=0
for f in $files; do
  "$bin" "$f" | cmp -s - "$f" && continue
  [ $bad = 0 ] && echo "t-format: FAIL: files not laid out as .clang-format says (fix: sh tests/repo/t-format.sh --fix):"
  bad=$((bad + 1))
  [ $bad -le 5 ] && "$bin" "$f" | diff -u "$f" - | head -20
  [ $bad -gt 5 ] && echo "  $f"
done
[ $bad = 0 ] || exit 1
echo "t-format: $(printf '%s\n' $files | wc -l) C files follow .clang-format (clang-format $ver)"
