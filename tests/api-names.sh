#!/bin/sh
# tests/api-names.sh HEADER... — the functions the public headers declare, one name a line
# (sorted): every slpi_NAME( outside comments, apart from static inline helpers. The
# umbrellas slpi.h and slpi-tools.h stand for the public headers by module they include
# (include/slpi/*.h; slpi-tools.h's own: slpi/tools.h, slpi.h apart).
# The GNUmakefile makes the shared libraries' version scripts from it (they export exactly
# these), and tests/toolchain/t-symbols.sh checks the libraries against it.
files=
for h in "$@"; do
  files="$files $h"
  case $(basename "$h") in slpi.h | slpi-tools.h) ;; *) continue ;; esac
  for i in $(sed -n 's/^#include "\(slpi\/[a-z0-9-]*\.h\)".*/\1/p' "$h"); do files="$files $(dirname "$h")/include/$i"; done
done
# shellcheck disable=SC2086
awk '
  { line = $0
    out = ""
    while (line != "") {                    # drop /* ... */ comments, across lines too
      if (incomment) { k = index(line, "*/"); if (!k) { line = ""; break } line = substr(line, k + 2); incomment = 0 }
      k = index(line, "/*")
      if (!k) { out = out line; break }
      out = out substr(line, 1, k - 1); line = substr(line, k + 2); incomment = 1
    }
    if (out ~ /^[ \t]*static[ \t]/) next
    while (match(out, /slpi_[a-z0-9_]+\(/)) {
      name = substr(out, RSTART, RLENGTH); sub(/\($/, "", name); print name
      out = substr(out, RSTART + RLENGTH)
    }
  }' $files | sort -u
