# prelude.sh — the preamble of the shell tests of tests/reports/ that run `slpi audit` in
# a folder of their own, sourced as their first command: . "$(dirname "$0")/prelude.sh"
# It sets slpi (SLPI_BIN, else build/slpi of the calling folder), top (the calling
# folder), d (a temporary folder, removed at exit, and made the current one) and fail=0,
# and defines note MESSAGE: a line "t-<unit>: FAIL: MESSAGE" on stderr, the unit the
# script's name, and fail=1.
set -u
unit=$(basename "$0" .sh)
top=$(pwd)
slpi=${SLPI_BIN:-$top/build/slpi}
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
fail=0
note() { echo "$unit: FAIL: $*" >&2; fail=1; }
cd "$d" || exit 2
