#!/bin/sh
# multiverse-verdict.sh ID MEMBERS N — the verdict over claim ID's multiverse from its
# members' rows (MEMBERS: the members.tsv of reports/multiverse/multiverse.sh; N: the members its
# declared choices make), one line on stdout, by the rule fixed before the runs
# (docs/claims.md#multiverse). The rule is C, on the audit's decision path and under its
# digest (reports/audit-verdict.c, docs/claims.md#decision-digest): this runs
# `SLPI audit --multiverse-verdict ID MEMBERS N`, SLPI the slpi command ($SLPI_BIN, default
# build/slpi). Exit 2 on a bad argument.
slpi=${SLPI_BIN:-$(dirname "$0")/../../build/slpi}
[ -x "$slpi" ] || { echo "multiverse-verdict: $slpi missing (make builds it; or set SLPI_BIN)" >&2; exit 2; }
exec "$slpi" audit --multiverse-verdict "$@"
