#!/bin/sh
# t-api-doc.sh — docs/api.md's reference is what mk/api-doc.py makes from slpi.h's comments
# (every function has its entry with its NULL, ownership and thread lines; none is stale),
# every NULL tag of slpi.h names a parameter, and tests/t-api-null.c has one NULL_CASE for
# each (function, parameter) a NULL tag allows and none for another. Regenerate with
#   python3 mk/api-doc.py slpi.h docs/api.md
set -u
cd "$(dirname "$0")/.." || exit 2
py=${SLPI_PYTHON:-/usr/bin/python3}
"$py" mk/api-doc.py --check --null-cases tests/t-api-null.c slpi.h docs/api.md || { echo "t-api-doc: FAIL" >&2; exit 1; }
echo "t-api-doc: ok"
