#!/bin/sh
# t-native.sh — python/slpi/_native.py's C declarations (the cdef cffi reads in ABI mode,
# where nothing compares them with the library) are the headers' own: every slpi_
# function it declares is declared by slpi.h or slpi-tools.h (tests/api-names.sh), and any
# other (a C library function such as fopen) by the system headers slpi.h includes; each
# of its prototypes is repeated after those headers in a C file that the compiler must
# accept (a redeclaration with another return or parameter type is an error, and each
# name is used before it, so an undeclared one is an error too), and every struct it lays
# out has the size and member offsets cffi computes for it (_Static_assert).
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
py=/usr/bin/python3
"$py" -c 'import cffi' 2>/dev/null || { echo "t-native: SKIP: python3-cffi is not installed (as root: apt-get install python3-cffi)"; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
{ sh tests/api-names.sh slpi.h; sh tests/api-names.sh slpi-tools.h; } | sort -u > "$tmp/declared"
"$py" - "$tmp" <<'PY' || { echo "t-native: FAIL: cannot read the cdef of python/slpi/_native.py"; exit 1; }
import ast, re, sys
import cffi
tmp = sys.argv[1]
tree = ast.parse(open("python/slpi/_native.py").read())
cdefs = [n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call)
         and getattr(n.func, "attr", "") == "cdef" and n.args and isinstance(n.args[0], ast.Constant)]
assert len(cdefs) == 1, "expected one ffi.cdef(...) string"
text = cdefs[0]
ffi = cffi.FFI()
ffi.cdef(text)
stmts, depth, cur = [], 0, ""
for ch in re.sub(r"/\*.*?\*/", " ", text, flags=re.S):   # statements: ';' outside braces
    depth += (ch == "{") - (ch == "}")
    if ch == ";" and depth == 0:
        stmts.append(" ".join(cur.split()))
        cur = ""
    else:
        cur += ch
stmts = [s for s in stmts if s]
protos = [s for s in stmts if not s.startswith("typedef")]
names = []
for s in protos:
    m = re.match(r"[^(]*?\b(\w+)\s*\(", s)
    assert m, "not a prototype: " + s
    names.append(m.group(1))
checks = []
for s in stmts:
    m = re.match(r"typedef struct \{(.*)\} (\w+)$", s)
    if not m:
        continue
    t = m.group(2)
    checks.append("_Static_assert(sizeof(%s) == %d, \"sizeof(%s): cffi lays it out in %d bytes\");"
                  % (t, ffi.sizeof(t), t, ffi.sizeof(t)))
    for field, f in ffi.typeof(t).fields:
        checks.append("_Static_assert(offsetof(%s, %s) == %d, \"%s.%s: cffi puts it at offset %d\");"
                      % (t, field, f.offset, t, field, f.offset))
with open(tmp + "/names", "w") as fp:
    fp.write("\n".join(sorted(names)) + "\n")
with open(tmp + "/native.c", "w") as fp:
    fp.write('#include <stddef.h>\n#include "slpi.h"\n#include "slpi-tools.h"\n')
    fp.write("/* every name declared before _native.py's prototype of it */\n")
    fp.write("".join("static void (*const seen_%d)(void) = (void (*)(void))%s;\n" % (i, n) for i, n in enumerate(names)))
    fp.write("/* the prototypes of python/slpi/_native.py, verbatim */\n")
    fp.write("".join(s + ";\n" for s in protos))
    fp.write("".join(c + "\n" for c in checks))
print("%d prototypes, %d layout checks" % (len(protos), len(checks)), file=open(tmp + "/count", "w"))
PY
fail=0
undeclared=$(grep '^slpi_' "$tmp/names" | LC_ALL=C comm -23 - "$tmp/declared")
[ -z "$undeclared" ] || { echo "t-native: FAIL: _native.py declares functions no public header declares:" $undeclared; fail=1; }
arb=$(sed -n 's/^ARB_CPPFLAGS *= *//p' "$build/flint.mk" 2>/dev/null)
if ! ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -I. -Iinclude -Icore $arb -fsyntax-only "$tmp/native.c" 2> "$tmp/cc.log"; then
  echo "t-native: FAIL: _native.py's declarations disagree with the headers:"
  grep -E 'error' "$tmp/cc.log" | sed "s|$tmp/native.c|_native.c|" | head -20
  fail=1
fi
[ $fail -eq 0 ] && echo "t-native: python/slpi/_native.py agrees with slpi.h and slpi-tools.h: $(cat "$tmp/count")"
exit $fail
