# prelude.sh — the preamble of the shell tests of tests/oracle/ that run Python, sourced
# as their first command after resolving paths given relative to the caller:
#   . "$(dirname "$0")/prelude.sh"
# It goes to the top of the source tree, sets py (/usr/bin/python3, else the python3 on
# PATH), d (a temporary folder, removed at exit) and fail=0, and defines note MESSAGE: a
# line "t-<unit>: FAIL: MESSAGE" on stderr, the unit the script's name, and fail=1.
unit=$(basename "$0" .sh)
cd "$(dirname "$0")/../.." || exit 2
py=/usr/bin/python3
[ -x $py ] || py=python3
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
fail=0
note() { echo "$unit: FAIL: $*" >&2; fail=1; }
