#!/bin/sh
# tests/private-names.sh [BUILD] — libslpi's private interface, one name a line (sorted): the
# functions the declared interfaces of libslpi's modules declare (the `interface` lines of
# docs/architecture.md's architecture table, for the modules of its `library libslpi` line)
# and libslpi's objects define, slpi.h's own left out. libslpi.so exports them under the
# version node SLPI_PRIVATE (as glibc's GLIBC_PRIVATE): libslpi-tools.so links against them,
# so a process holds one copy of the mathematics; no header a program includes declares
# them. The GNUmakefile makes the version script from it; tests/toolchain/t-symbols.sh checks it.
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^```architecture/ {on = 1; next} /^```/ {on = 0} on && !/^#/ && NF' docs/architecture.md > "$tmp/table"
mods=$(awk '$1 == "library" && $2 == "libslpi" { for (i = 4; i <= NF; i++) print $i }' "$tmp/table")
[ -n "$mods" ] || { echo "private-names: no 'library libslpi' line in docs/architecture.md" >&2; exit 1; }
hdrs=$(for m in $mods; do awk -v m="$m" '$1 == "interface" && $2 == m { for (i = 3; i <= NF; i++) print $i }' "$tmp/table"; done)
sh tests/api-names.sh $hdrs > "$tmp/declared"
sh tests/api-names.sh slpi.h > "$tmp/public"
for m in $mods; do ls "$build/$m"/*.o; done | xargs nm -g --defined-only | awk 'NF == 3 && $2 == "T" {print $3}' | sort -u > "$tmp/defined"
comm -12 "$tmp/declared" "$tmp/defined" | comm -23 - "$tmp/public"
