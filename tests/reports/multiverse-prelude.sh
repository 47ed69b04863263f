# multiverse-prelude.sh — the preamble of the tests of reports/multiverse/ that run it
# with the stand-in for slpi (t-multiverse, t-commit-members), sourced from the
# repository's root as their first command: . tests/reports/multiverse-prelude.sh
# It skips (exit 77) where jq is missing; sets dir, a temporary folder removed at exit,
# holding the stand-in as $dir/slpi (tests/reports/multiverse-stand-in) and an empty
# libm library $dir/crmath.so; and fail=0.
unit=$(basename "$0" .sh)
command -v jq >/dev/null || { echo "$unit: SKIP: jq is not installed (as root: apt-get install jq)"; exit 77; }
dir=$(mktemp -d "/tmp/slpi-$unit-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
cp tests/reports/multiverse-stand-in "$dir/slpi" && chmod +x "$dir/slpi" || exit 1
: > "$dir/crmath.so"
