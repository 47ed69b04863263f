#!/bin/sh
# t-architecture.sh — the module rules of docs/architecture.md, read from its
# ```architecture block (so the page and the test cannot drift):
#   1. includes: a library or cli file includes slpi.h or its public headers by module
#      (slpi/NAME.h, include/slpi/), its own module's headers, and the declared interfaces
#      of the modules it may depend on, each spelled from the repository root
#      ("fast/fast.h", never "fast.h": resolved the way the compiler does, the file's
#      folder, then the root, then include/, then core/, it must name the same path);
#   2. Arb/FLINT headers only in core/slpi-flint.h, the one header that knows the two
#      FLINT generations (every other file includes slpi.h or ref/ref.h for them);
#   3. symbols: every undefined slpi_ symbol of a library or cli object (nm) is defined
#      by the object's own module or by one it may depend on; so a call through slpi.h to
#      a module the table forbids fails as well;
#   4. every "pending" line of the table still names a real violation, and every
#      "ceiling HEADER N" line (a header on its way out, docs/design.md#opaque-problem) is
#      seen by exactly N files outside its own module (included directly or through any
#      header they include): more fails, and fewer fails until the line is lowered, so the
#      count only goes down;
#   5. the libraries ("library NAME HEADER MODULE..." lines): a file includes a library's
#      public header (slpi.h, slpi-tools.h) only when its module belongs to that library
#      or may depend on one of its modules (so core/, fast/, ref/, api/ never see the
#      tools' header), every module is in exactly one library (cli in none: it is the
#      command), and the GNUmakefile builds each library from exactly the modules its
#      line names (LIB_DIRS, TOOLS_DIRS).
#   6. no circle inside a module: the files of one module form layers, a file using
#      (nm: an undefined slpi_ symbol another file of the module defines; or a call of a
#      static inline function of a module header, which nm cannot see) or including
#      (a header including a header) only files below it, so each file reads without
#      the ones above it (docs/architecture.md#layers-inside-a-module).
#   7. no process-wide model store: a model is parsed into its plan, which owns it
#      (docs/design.md#opaque-problem); the objects that parse, hold or read a model's
#      parse keep no writable data of their own (objdump: symbols in .data, .bss and their
#      thread-local kinds), core/model.o's parse counter (the tests' count) aside.
#   8. one CPU probe: cpuid, xgetbv and the compiler's CPU builtins appear in core/cpu.c
#      alone, so every kernel choice reads core/cpu.h's one meaning of each tier.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

awk '/^```architecture/ {on = 1; next} /^```/ {on = 0} on && !/^#/ && NF' docs/architecture.md > "$tmp/table"
[ -s "$tmp/table" ] || { echo "t-architecture: FAIL: no architecture block in docs/architecture.md"; exit 1; }
mods=$(awk '$1 == "module" {print $2}' "$tmp/table")
[ -n "$mods" ] || { echo "t-architecture: FAIL: the table names no module"; exit 1; }

# The facts, one line each: "inc FILE HEADER" (resolved quoted includes), "angle FILE <H>"
# (Arb headers outside their switch branch), "use FILE MODULE SYMBOL" (nm).
: > "$tmp/facts"
nfiles=0
for m in $mods; do
  for f in "$m"/*.c "$m"/*.h; do
    [ -f "$f" ] || continue
    nfiles=$((nfiles + 1))
    dir=$(dirname "$f")
    sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
      if [ -f "$dir/$inc" ]; then echo "inc $f $dir/$inc $inc"
      elif [ -f "$inc" ]; then echo "inc $f $inc $inc"
      elif [ -f "include/$inc" ]; then echo "inc $f $inc $inc"   # a public header by module (slpi/NAME.h)
      elif [ -f "core/$inc" ]; then echo "inc $f core/$inc $inc"
      else echo "unresolved $f $inc"; fi
    done >> "$tmp/facts"
  done
done
for m in $mods; do ls "$m"/*.c "$m"/*.h 2>/dev/null; done | grep -vx 'core/slpi-flint.h' | xargs awk '
  /^[ \t]*#[ \t]*include[ \t]*</ {
    h = $0; sub(/.*</, "", h); sub(/>.*/, "", h)
    if (h ~ /^flint\// || h ~ /^(arb|acb|arf|mag|fmpz|fmpq)(_[a-z0-9_]+)?\.h$/) print "angle", FILENAME, "<" h ">"
  }' >> "$tmp/facts"
# The static inline functions of the modules' headers, with the files that call them:
# "inline FILE OWNER NAME" (OWNER: the header's own .c, else the header), an edge nm cannot
# see (an inline function is no symbol: its caller's object holds its code).
for m in $mods; do
  for h in "$m"/*.h; do
    [ -f "$h" ] || continue
    own=${h%.h}.c; [ -f "$own" ] || own=$h
    sed -n 's/^static inline [^(]*[^a-z_0-9]\(slpi_[a-z_0-9]*\)(.*/\1/p' "$h" | while read -r fn; do
      grep -l "\b$fn(" "$m"/*.c "$m"/*.h 2>/dev/null | grep -vx "$h" | sed "s|^|inline |; s|\$| $own $fn|"
    done
  done
done >> "$tmp/facts"
objs=$(for m in $mods; do ls "$build/$m"/*.o 2>/dev/null; done)
[ -n "$objs" ] || { echo "t-architecture: FAIL: no objects under $build (run make first)"; exit 1; }
nm -A -g --defined-only $objs 2>/dev/null | awk 'NF == 3 {print "def", $3, $1}' >> "$tmp/facts"
nm -A -u $objs 2>/dev/null | awk '{print "undef", $NF, $1}' >> "$tmp/facts"

# One pass: the table first, then the facts.
awk -v build="$build/" '
  function modof(p) { sub(/^\.\//, "", p); sub(/\/.*/, "", p); return p }
  function srcof(o) { sub(/:.*/, "", o); o = substr(o, length(build) + 1); sub(/\.o$/, ".c", o); return o }
  function allowed(f, n,   d) { d = (f in filedeps) ? filedeps[f] : deps[modof(f)]; return index(" " d " ", " " n " ") > 0 }
  # f includes h, directly or through the headers it includes (memo: seen_[f, h])
  function sees(f, h,   n, a, i) {
    if ((f, h) in seen_) return seen_[f, h]
    seen_[f, h] = 0
    n = split(incs[f], a, " ")
    for (i = 1; i <= n; i++) if (a[i] == h || (a[i] ~ /\.h$/ && sees(a[i], h))) { seen_[f, h] = 1; break }
    return seen_[f, h]
  }
  function depsof(f) { return (f in filedeps) ? filedeps[f] : deps[modof(f)] }
  function violation(f, h, msg) {
    if ((f " " h) in pending) { seen[f " " h] = 1; return }
    print "t-architecture: FAIL: " msg; fail = 1
  }
  FNR == NR {
    if ($1 == "module") { d = ""; for (i = 3; i <= NF; i++) d = d (d ? " " : "") $i; deps[$2] = d; ismod[$2] = 1 }
    if ($1 == "file") { d = ""; for (i = 3; i <= NF; i++) d = d (d ? " " : "") $i; filedeps[$2] = d }
    if ($1 == "interface") for (i = 3; i <= NF; i++) iface[$i] = $2
    if ($1 == "pending") pending[$2 " " $3] = 1
    if ($1 == "ceiling") ceiling[$2] = $3 + 0
    if ($1 == "library") { pub[$3] = $2; for (i = 4; i <= NF; i++) { if ($i in libof) dup[$i] = 1; libof[$i] = $2 } }
    next
  }
  $1 == "unresolved" { print "t-architecture: FAIL: " $2 " includes \"" $3 "\", which resolves to no file"; fail = 1 }
  $1 == "inc" {
    ninc++; f = $2; h = $3; sub(/^\.\//, "", h)
    incs[f] = incs[f] " " h
    if (h != $4) { print "t-architecture: FAIL: " f " includes \"" $4 "\": spell it from the root, \"" h "\""; fail = 1 }
    m = modof(f)
    if (h == "slpi/tools.h") h = "slpi-tools.h"; else if (h ~ /^slpi\//) h = "slpi.h"   # a header by module counts as its umbrella
    if (h in pub) {
      ok = libof[m] == pub[h]
      nd = split(depsof(f), dd, " "); for (i = 1; i <= nd; i++) if (libof[dd[i]] == pub[h]) ok = 1
      if (!ok) violation(f, h, f " includes " h ", the header of " pub[h] ", which " m " may not depend on")
      next
    }
    n = modof(h)
    if (n == m) next
    if (allowed(f, n) && iface[h] == n) next
    violation(f, h, f " includes " h ": " m " may include only slpi.h, its own headers and the interfaces of: " (depsof(f) ? depsof(f) : "(none)"))
  }
  $1 == "angle" { violation($2, $3, $2 " includes " $3 ": Arb/FLINT headers only through core/slpi-flint.h") }
  $1 == "def" { if ($2 ~ /^slpi_/) defmod[$2] = modof(substr($3, length(build) + 1)) }
  $1 == "undef" { if ($2 ~ /^slpi_/) { nuse++; use[++nu] = $2; usefile[nu] = srcof($3) } }
  END {
    for (m in ismod) if (m != "cli" && !(m in libof)) { print "t-architecture: FAIL: module " m " is in no library"; fail = 1 }
    for (m in dup) { print "t-architecture: FAIL: module " m " is in two libraries"; fail = 1 }
    for (i = 1; i <= nu; i++) {
      s = use[i]; f = usefile[i]; if (!(s in defmod)) continue
      n = defmod[s]; m = modof(f)
      if (n != m && !allowed(f, n)) {
        print "t-architecture: FAIL: " f " uses " s " of module " n "; " f " may depend on: " (depsof(f) ? depsof(f) : "(none)"); fail = 1
      }
    }
    for (k in pending)
      if (!(k in seen)) { print "t-architecture: FAIL: pending \"" k "\" no longer occurs: remove it from docs/architecture.md"; fail = 1 }
      else { print "t-architecture: known violation (pending): " k; np++ }
    for (f in incs)
      for (h in ceiling)
        if (modof(f) != modof(h) && sees(f, h)) below[h]++
    for (h in ceiling)
      if (below[h] + 0 != ceiling[h]) {
        print "t-architecture: FAIL: " h " is included by " below[h] + 0 " files outside " modof(h) "/, its ceiling says " ceiling[h] (below[h] + 0 > ceiling[h] ? ": it may only go down" : ": lower the ceiling in docs/architecture.md"); fail = 1
      } else print "t-architecture: " h ": " ceiling[h] " files outside " modof(h) "/ include it (its ceiling)"
    printf "t-architecture: %d includes and %d slpi_ symbol uses checked; %d pending\n", ninc, nuse, np
    exit fail
  }' "$tmp/table" "$tmp/facts" || fail=1
# 5. the build makes each library from the modules its line names
for lib in libslpi:LIB_DIRS libslpi-tools:TOOLS_DIRS; do
  name=${lib%%:*} var=${lib#*:}
  want=$(awk -v l="$name" '$1 == "library" && $2 == l { for (i = 4; i <= NF; i++) print $i }' "$tmp/table" | sort | tr '\n' ' ')
  got=$(sed -n "s/^$var *:= *//p" GNUmakefile | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
  if [ -n "$want" ] && [ "$want" = "$got" ]; then echo "t-architecture: $name: $want"
  else echo "t-architecture: FAIL: $name: the table names modules '$want', the GNUmakefile's $var '$got'"; fail=1; fi
done

# 6. Circles inside a module. The edges: "use" (f.c -> g.c, the file defining a symbol f's
# object leaves undefined, same module), "inline" (f -> the file of the header whose static
# inline function f calls) and "inc" (a header including a header of the same module). Files on no circle are peeled off (repeatedly, every file nothing of the rest
# uses, then every file that uses nothing of the rest); what stays lies on a circle (or
# between two) and is reported, edge by edge, with the names that tie it.
awk -v build="$build/" '
  function modof(p) { sub(/^\.\//, "", p); sub(/\/.*/, "", p); return p }
  function srcof(o) { sub(/:.*/, "", o); o = substr(o, length(build) + 1); sub(/\.o$/, ".c", o); return o }
  function edge(a, b, why) { if (a == b || modof(a) != modof(b)) return; k = a SUBSEP b
    if (!(k in E)) { E[k] = why; node[a] = 1; node[b] = 1 } else if (index(" " E[k] " ", " " why " ") == 0) E[k] = E[k] " " why }
  $1 == "inc" { h = $3; sub(/^\.\//, "", h); if ($2 ~ /\.h$/ && h != "slpi.h") edge($2, h, "#include") }
  $1 == "inline" { ninl++; edge($2, $3, "inline " $4) }
  $1 == "def" && $2 ~ /^slpi_/ { def[$2] = srcof($3) }
  $1 == "undef" && $2 ~ /^slpi_/ { nu++; us[nu] = $2; uf[nu] = srcof($3) }
  END {
    for (i = 1; i <= nu; i++) if (us[i] in def) edge(uf[i], def[us[i]], us[i])
    do {
      changed = 0
      for (v in node) { hasin[v] = 0; hasout[v] = 0 }
      for (k in E) { split(k, ab, SUBSEP); if ((ab[1] in node) && (ab[2] in node)) { hasout[ab[1]] = 1; hasin[ab[2]] = 1 } }
      for (v in node) if (!hasin[v] || !hasout[v]) { delete node[v]; changed = 1 }
    } while (changed)
    n = 0
    for (k in E) { split(k, ab, SUBSEP); if ((ab[1] in node) && (ab[2] in node)) { print "t-architecture: FAIL: circle inside " modof(ab[1]) ": " ab[1] " -> " ab[2] " (" E[k] ")"; n++ } }
    ne = 0; for (k in E) ne++
    printf "t-architecture: %d file-level edges inside modules (%d calls of inline functions) checked for circles; %d on a circle\n", ne, ninl, n
    exit n > 0
  }' "$tmp/facts" || fail=1
# 7. no process-wide model store (gcov's counters, __gcov*, are the coverage build's, not slpi's)
for o in core/model core/plan core/expr core/problem-validate fast/model fast/model-tape ref/model ref/model-tape; do
  [ -f "$build/$o.o" ] || { echo "t-architecture: FAIL: $build/$o.o not built"; fail=1; continue; }
  w=$(objdump -t "$build/$o.o" | awk -F'\t' -v o="$o" 'NF == 2 { n = split($1, a, " "); sec = a[n]; split($2, b, " ")
        if ((sec ~ /^\.(data|bss|tdata|tbss)(\.rel(\.local)?)?$/ || sec == "*COM*") && b[2] !~ /^\./ && b[2] !~ /^__gcov/ &&
            !(o == "core/model" && b[2] == "parse_count")) printf " %s", b[2] }')
  if [ -n "$w" ]; then echo "t-architecture: FAIL: $o.o keeps process-wide state:$w (a model belongs to its plan)"; fail=1; fi
done
# 8. one CPU probe: what the processor offers is read in core/cpu.c alone (core/cpu.h's
# tiers), so "AVX-512" means one thing to the noise, the lanes, the BLAS kernel and the
# provenance (docs/architecture.md, "the machine")
for m in $mods; do
  for f in "$m"/*.c "$m"/*.h; do
    [ -f "$f" ] && [ "$f" != core/cpu.c ] || continue
    w=$(grep -n '__get_cpuid\|__cpuid\|cpuid\.h\|xgetbv\|__builtin_cpu_supports\|__builtin_cpu_is\|getauxval' "$f" | head -1)
    [ -z "$w" ] || { echo "t-architecture: FAIL: $f:${w%%:*} probes the CPU itself; read core/cpu.h's probe"; fail=1; }
  done
done
echo "t-architecture: $nfiles files"
exit $fail
