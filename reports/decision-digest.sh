#!/bin/sh
# decision-digest.sh [REV] — the decision digest frozen at revision REV (default: the work
# tree), recomputed from the sources themselves: REV:docs/claims.md's "Decision sources"
# line names the files (what the decision path's objects were compiled from and make
# audit's scripts: mk/src-digest.sh, mk/rules-digest.sh); their listing "SHA256  PATH"
# gives the sources' digest, FNV-1a of the listing, and FNV-1a of "SOURCES\nCASES\n" and
# REV:reports/claims.txt the decision digest, CASES as REV freezes it in its "Decision
# cases" line (the cases' problems need the command: t-audit-docs compares the command's
# with it). A revision before that line (2026-11-28) froze sha256 of the listing and
# FNV-1a of "SOURCES\n" and the registry (docs/claims.md#decision-digest). Prints
# "DECISION SOURCES" (16 hex digits each), as recomputed; exit 1 when they are not the
# digests REV:docs/claims.md freezes (the message says which), 2 when REV has no Decision
# lines or a file is missing.
rev=${1:-}
show() {   # the file $1 at REV, or in the work tree
  if [ -n "$rev" ]; then git show "$rev:$1" 2>/dev/null; else cat "$1" 2>/dev/null; fi
}
doc=$(show docs/claims.md) || { echo "decision-digest: ${rev:-.}:docs/claims.md missing" >&2; exit 2; }
line=$(printf '%s\n' "$doc" | sed -n 's/^Decision sources (\([0-9a-f]\{16\}\)): //p')
fsrc=$(printf '%s\n' "$doc" | sed -n 's/^Decision sources (\([0-9a-f]\{16\}\)): .*/\1/p')
fdec=$(printf '%s\n' "$doc" | sed -n 's/^Decision digest (.*): \([0-9a-f]\{16\}\)$/\1/p')
cases=$(printf '%s\n' "$doc" | sed -n 's/^Decision cases (\([0-9a-f]\{16\}\)): .*/\1/p')
[ -n "$line" ] && [ -n "$fdec" ] || { echo "decision-digest: ${rev:-.}:docs/claims.md has no Decision lines" >&2; exit 2; }
listing=$(for f in $line; do
  h=$(show "$f" | sha256sum | cut -c1-64)
  show "$f" > /dev/null || { echo "decision-digest: ${rev:-.}:$f missing" >&2; exit 2; }
  printf '%s  %s\n' "$h" "$f"
done) || exit 2
fnv() { /usr/bin/python3 -c 'import sys
h = 0xcbf29ce484222325
for b in sys.stdin.buffer.read(): h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
print("%016x" % h)'; }
if [ -n "$cases" ]; then
  src=$(printf '%s\n' "$listing" | fnv)
  dec=$( { printf '%s\n%s\n' "$src" "$cases"; show reports/claims.txt; } | fnv)
else
  src=$(printf '%s\n' "$listing" | sha256sum | cut -c1-16)
  dec=$( { printf '%s\n' "$src"; show reports/claims.txt; } | fnv)
fi
echo "$dec $src"
[ "$src" = "$fsrc" ] || { echo "decision-digest: ${rev:-.}: the sources' digest is $src, docs/claims.md freezes $fsrc" >&2; exit 1; }
[ "$dec" = "$fdec" ] || { echo "decision-digest: ${rev:-.}: the decision digest is $dec, docs/claims.md freezes $fdec" >&2; exit 1; }
exit 0
