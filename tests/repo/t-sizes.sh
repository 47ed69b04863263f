#!/bin/sh
# t-sizes.sh — the size rules of docs/architecture.md#large-files as a check: a source
# file (.c .h .py .sh, as git tracks them; in a copy git does not track, those found outside
# build*/ and hidden folders) stays at or under 600 lines and a C function
# (in a .c or .h file, from the line of its name to its closing brace) at or under 150.
# Each one above is a row of that section's table, with its reason; a row whose file or
# function is no longer above (or no longer exists) fails too, so the table stays true.
# Functions are found on the source with comments, strings and preprocessor lines blanked:
# a brace at file level after `name(...)` opens one (not after `=`, struct, enum, union).
# Sizes are kept by splitting files, never by dropping includes (CONTRIBUTING.md): every C
# file outside tests/ and bench/ includes a standard header for each name of the C library
# it uses (the table STD below: types and macros by name, functions where called) instead of
# relying on a header of the tree that happens to include it (fast/cmplx.h stands for
# <complex.h>, its one concern). PENDING lists the files that still rely on one, with the
# reason; a listed file that no longer does fails too.
cd "$(dirname "$0")/../.." || exit 2
exec /usr/bin/python3 - <<'PY'
import os, re, subprocess, sys

FILE_MAX, FUNC_MAX = 600, 150
doc = open("docs/architecture.md").read()
sec = doc[doc.index('<a id="large-files"></a>'):]
sec = sec[:sec.index("<a id=", 10)]
allowed = {}                       # (path, function or None) -> the row
for row in re.findall(r"^\| (`[^|]*`) \|", sec, re.M):
    names = re.findall(r"`([^`]+)`", row)
    allowed[(names[0], names[1] if len(names) > 1 else None)] = row

def blank(src):
    """comments, strings, character constants and preprocessor lines as spaces, lines kept"""
    pat = r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*'
    return re.sub(pat, lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S | re.M)

def functions(src):
    """(name, first line, lines) of every function defined at file level"""
    src = blank(src)
    depth, start, head_from = 0, None, 0
    for m in re.finditer(r"[{};]", src):
        t = m.group(0)
        if t == "{":
            if depth == 0:
                head = src[head_from:m.start()]
                name = list(re.finditer(r"(\w+)\s*\([^;{}]*\)\s*$", head, re.S))
                start = None
                if name and "=" not in head[:name[-1].start()] and \
                        not re.search(r"\b(struct|enum|union)\b[^;{}()]*$", head):
                    start = (name[-1].group(1), src.count("\n", 0, head_from + name[-1].start()) + 1)
            depth += 1
        elif t == "}":
            depth -= 1
            if depth == 0:
                if start:
                    yield start[0], start[1], src.count("\n", 0, m.start()) + 1 - start[1] + 1
                start, head_from = None, m.end()
        elif depth == 0:
            head_from = m.end()

git = subprocess.run(["git", "ls-files", "*.c", "*.h", "*.py", "*.sh"], capture_output=True, text=True)
files = git.stdout.split() if git.returncode == 0 else []
if not files:   # a copy git does not track (the mutation runner's scratch tree, a tarball):
    files = sorted(os.path.relpath(os.path.join(d, f)) for d, dirs, names in os.walk(".")
                   for f in names if f.endswith((".c", ".h", ".py", ".sh")))
    files = [f for f in files if not re.match(r"(build[^/]*|\.[^/]*)/", f)]   # its own files, not builds
bad, above, nfunc = [], set(), 0
for f in files:
    try:
        src = open(f, errors="replace").read()
    except FileNotFoundError:      # deleted in the work tree, not yet in git
        continue
    n = src.count("\n")
    if n > FILE_MAX:
        above.add((f, None))
        if (f, None) not in allowed:
            bad.append("%s: %d lines, over %d: split it by concern (or add a row with the reason "
                       "to docs/architecture.md#large-files)" % (f, n, FILE_MAX))
    if f.endswith((".c", ".h")):
        for name, line, length in functions(src):
            nfunc += 1
            if length > FUNC_MAX:
                above.add((f, name))
                if (f, name) not in allowed:
                    bad.append("%s:%d: %s is %d lines, over %d: split it (or add a row with the "
                               "reason to docs/architecture.md#large-files)" % (f, line, name, length, FUNC_MAX))
for key, row in sorted(allowed.items(), key=lambda kv: str(kv[0])):
    if key not in above:
        bad.append("docs/architecture.md#large-files: the row %s is no longer above its limit: remove it" % row)
# ---- standard headers included where used, not transitively
STD = [   # header, types/macros/objects, functions (when called), the headers that declare them
 ("stdint.h", r"u?int(8|16|32|64)_t|u?intptr_t|u?intmax_t|U?INT(8|16|32|64)_(MAX|MIN)|SIZE_MAX|U?INT64_C", "", "stdint.h inttypes.h"),
 ("stddef.h", r"size_t|ptrdiff_t|NULL", "offsetof", "stddef.h stdlib.h string.h stdio.h time.h wchar.h locale.h"),
 ("stdlib.h", r"EXIT_SUCCESS|EXIT_FAILURE", r"malloc|calloc|realloc|free|qsort|bsearch|abort|exit|getenv|strto[a-z]+|atoi|atol|atof|abs|labs|llabs|aligned_alloc|posix_memalign|mkstemp|mkdtemp|setenv|unsetenv|realpath", "stdlib.h"),
 ("string.h", "", r"mem(cpy|move|set|cmp|chr)|str(len|n?cmp|r?chr|str|n?cpy|n?cat|error|c?spn|n?dup|nlen|tok_r|pbrk|signal)", "string.h"),
 ("stdio.h", r"FILE|stderr|stdout|stdin|EOF|BUFSIZ", r"v?f?s?n?printf|fopen|fclose|fputs|fgets|f?putc|fwrite|fread|fflush|perror|puts|putchar|getline|fseek|ftell|rewind|remove|rename|feof|ferror|fdopen|fileno|s?f?scanf|tmpfile|setvbuf|open_memstream|f?getc|ungetc|popen|pclose", "stdio.h"),
 ("math.h", r"INFINITY|NAN|HUGE_VAL|M_PI", r"sqrt|fabs|expm?1?|log(2|10|1p)?|a?sinh?|a?cosh?|a?tanh?|atan2|pow|floor|ceil|l?l?round|fmod|isfinite|isnan|isinf|hypot|cbrt|frexp|ldexp|nextafter|copysign|fma|fmax|fmin|trunc|rint|nearbyint|signbit|erfc?|tgamma|lgamma|scalbn|ilogb|logb|modf|remainder|exp2|fpclassify", "math.h tgmath.h"),
 ("stdbool.h", r"bool|true|false", "", "stdbool.h"),
 ("errno.h", r"errno|E(INTR|NOENT|EXIST|RANGE|AGAIN|INVAL|NOMEM|ACCES)", "", "errno.h"),
 ("limits.h", r"U?L?L?ONG_M(AX|IN)|U?INT_M(AX|IN)|CHAR_BIT|SHRT_MAX|PATH_MAX", "", "limits.h"),
 ("float.h", r"DBL_(EPSILON|MAX|MIN|MANT_DIG|TRUE_MIN|MAX_EXP|MIN_EXP)|FLT_EPSILON", "", "float.h"),
 ("ctype.h", "", r"is(space|digit|alpha|alnum|upper|lower|xdigit|print|punct|graph|cntrl)|to(upper|lower)", "ctype.h"),
 ("stdarg.h", r"va_list", r"va_(start|end|arg|copy)", "stdarg.h"),
 ("time.h", r"time_t|CLOCK_MONOTONIC|CLOCK_REALTIME|CLOCKS_PER_SEC", r"clock_gettime|nanosleep|localtime_r|gmtime_r|strftime|difftime|mktime", "time.h"),
 ("assert.h", "", r"assert", "assert.h"),
]
PROVIDES = {"fast/cmplx.h": "complex.h"}
PENDING = {   # file: why it still relies on a transitive include
 "reports/audit-freeze.c": "the audit's decision path (mk/rules-digest.sh): an edit changes the rules' digest; with its next docs/claims.md entry",
 "reports/audit-registry.c": "the audit's decision path, as above",
 "reports/audit-studies.c": "the audit's decision path, as above",
}
def std_missing(src):
    inc = set(re.findall(r"^\s*#\s*include\s*<([^>]+)>", src, re.M))
    inc |= {PROVIDES[h] for h in re.findall(r'^\s*#\s*include\s*"([^"]+)"', src, re.M) if h in PROVIDES}
    body = blank(src)
    for h, names, funcs, hs in STD:
        if inc & set(hs.split()):
            continue
        pats = ([r"(?<![\w.>])(%s)(?!\w)" % names] if names else []) + ([r"(?<![\w.>])(%s)\s*\(" % funcs] if funcs else [])
        for pat in pats:
            m = re.search(pat, body)
            if m:
                yield h, m.group(1), body.count("\n", 0, m.start()) + 1
                break
nstd = 0
for f in files:
    if not f.endswith((".c", ".h")) or f.startswith(("tests/", "bench/")) or not os.path.exists(f):
        continue
    nstd += 1
    miss = list(std_missing(open(f, errors="replace").read()))
    if miss and f not in PENDING:
        bad += ["%s:%d: %s without <%s>: include it where it is used, not through another header"
                % (f, line, name, h) for h, name, line in miss]
    if not miss and f in PENDING:
        bad.append("%s: no longer relies on a transitive include: remove it from PENDING" % f)
for b in bad:
    print("t-sizes: FAIL: " + b)
if not bad:
    print("t-sizes: %d files at most %d lines and %d functions at most %d lines, %d rows of exceptions; "
          "%d C files include the standard headers they use (%d pending)"
          % (len(files), FILE_MAX, nfunc, FUNC_MAX, len(allowed), nstd, len(PENDING)))
sys.exit(1 if bad else 0)
PY
