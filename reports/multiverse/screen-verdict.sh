#!/bin/sh
# screen-verdict.sh ID FILE — the kernel and libm screen's decision for claim ID from its
# members' checks, FILE (screen.json, written by reports/multiverse/screen.sh), one tab-separated row,
# by the rule committed before the screen ran (docs/claims.md#screen). The rule is C, on
# the audit's decision path and under its digest (reports/audit-verdict.c,
# docs/claims.md#decision-digest): this runs `SLPI audit --screen-verdict ID FILE`, SLPI the
# slpi command ($SLPI_BIN, default build/slpi). Exit 2 on a bad argument.
slpi=${SLPI_BIN:-$(dirname "$0")/../../build/slpi}
[ -x "$slpi" ] || { echo "screen-verdict: $slpi missing (make builds it; or set SLPI_BIN)" >&2; exit 2; }
exec "$slpi" audit --screen-verdict "$@"
