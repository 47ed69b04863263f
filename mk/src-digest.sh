#!/bin/sh
# mk/src-digest.sh OBJ — what OBJ was compiled from, carried in OBJ (docs/claims.md#decision-digest):
# run by the compile rule right after the compiler, it reads the compiler's dependency file
# (OBJ's .d, -MMD) and adds to OBJ the section slpi_src holding "= SOURCE" and one
# "SHA256  PATH" line per file the compiler read from the tree (the source and every header
# it listed, wherever it lives; system headers, by absolute path, are left out: the
# compiler and the distribution are recorded by version, docs/claims.md#decision-digest).
# The linker joins the sections of the objects it links, so a program carries the sources
# of exactly what it linked, as they were when each object was compiled: an object left
# stale after its source was restored still names the bytes it was compiled from.
# Exit 2 when the dependency file is missing or objcopy fails.
o=${1:?usage: src-digest.sh OBJ}; d=${o%.o}.d
[ -f "$d" ] || { echo "src-digest: $d missing (objects are compiled with -MMD)" >&2; exit 2; }
files=$(sed 's/\\$//; s/^[^ ]*://' "$d" | tr ' ' '\n' | grep -v '^/' | grep .)
src=$(echo "$files" | head -n 1)
# shellcheck disable=SC2086
{ echo "= $src"; sha256sum $(echo "$files" | LC_ALL=C sort -u); } > "$o.src" &&
  objcopy --add-section slpi_src="$o.src" --set-section-flags slpi_src=alloc,readonly,contents,data "$o" ||
  { rm -f "$o.src"; exit 2; }
rm -f "$o.src"
