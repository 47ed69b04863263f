#!/bin/sh
# t-api-doc.sh — docs/api.md's two references are what mk/api-doc.py makes from the comments
# of slpi.h and of slpi-tools.h (every function has its entry with its NULL, ownership and
# thread lines; none is stale), every NULL tag names a parameter, and the NULL test of each
# header (tests/api/t-api-null.c, tests/api/t-api-null-tools.c) has one NULL_CASE for each
# (function, parameter) a NULL tag allows and none for another. Regenerate with
#   python3 mk/api-doc.py slpi.h docs/api.md; python3 mk/api-doc.py slpi-tools.h docs/api.md
set -u
cd "$(dirname "$0")/../.." || exit 2
py=${SLPI_PYTHON:-/usr/bin/python3}
fail=0
"$py" mk/api-doc.py --check --null-cases tests/api/t-api-null.c slpi.h docs/api.md || fail=1
"$py" mk/api-doc.py --check --null-cases tests/api/t-api-null-tools.c slpi-tools.h docs/api.md || fail=1
[ $fail = 0 ] || { echo "t-api-doc: FAIL" >&2; exit 1; }
echo "t-api-doc: ok"
