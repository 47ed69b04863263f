#!/bin/sh
# t-sizes.sh — the size rules of docs/architecture.md#large-files as a check: a source
# file (.c .h .py .sh, as git tracks them; in a copy git does not track, those found outside
# build*/ and hidden folders) stays at or under 600 lines and a C function
# (in a .c or .h file, from the line of its name to its closing brace) at or under 150.
# Each one above is a row of that section's table, with its reason; a row whose file or
# function is no longer above (or no longer exists) fails too, so the table stays true.
# Functions are found on the source with comments, strings and preprocessor lines blanked:
# a brace at file level after `name(...)` opens one (not after `=`, struct, enum, union).
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
for b in bad:
    print("t-sizes: FAIL: " + b)
if not bad:
    print("t-sizes: %d files at most %d lines and %d functions at most %d lines, %d rows of exceptions"
          % (len(files), FILE_MAX, nfunc, FUNC_MAX, len(allowed)))
sys.exit(1 if bad else 0)
PY
