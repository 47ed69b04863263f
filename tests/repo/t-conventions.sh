#!/bin/sh
# t-conventions.sh — conventions of docs/conventions.md that each have one home and that the
# source text shows, in every library and cli file (core fast ref oracle props gaps studies reports
# cli, and any module the architecture table adds):
#   1. out of memory is SLPI_EINPUT everywhere (docs/conventions.md#errors): no error set
#      with another code within the three lines before an "out of memory" message, and
#      none written into a message buffer by hand (snprintf): it goes through slpi_error_set
#      so it carries its code and its WHO like every other error;
#   2. one pair of max norms (core/vec.h: slpi_vec_maxabs, slpi_vec_maxdiff, one NaN rule):
#      no other file defines a function named *maxabs* or *maxdiff*;
#   3. one reading of every number a user gives (docs/conventions.md#numbers): the command
#      line (cli/, and the options and flags that the tools read for it: oracle/verify-args.c,
#      oracle/precision.c, props/replay.c) reads numbers only through core/parse.c's
#      slpi_parse_*: no strtol, strtoul(l), strtod, atoi, atol, atof or sscanf there.
cd "$(dirname "$0")/../.." || exit 2
fail=0
mods=$(awk '/^```architecture/ {on = 1; next} /^```/ {on = 0} on && $1 == "module" {print $2}' docs/architecture.md)
[ -n "$mods" ] || { echo "t-conventions: FAIL: no modules in docs/architecture.md"; exit 1; }
files=$(for m in $mods; do ls "$m"/*.c "$m"/*.h 2>/dev/null; done)
n=$(printf '%s\n' $files | grep -c .)

# 1. one out-of-memory code
bad=$(awk '
  FNR == 1 { w1 = w2 = w3 = "" }
  { win = w1 "\n" w2 "\n" w3 "\n" $0 }
  /out of memory/ && win ~ /SLPI_E(NUMERIC|CHECK)/ { print FILENAME ":" FNR ": " $0 }
  { w1 = w2; w2 = w3; w3 = $0 }' $files)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" | sed 's/^/t-conventions: FAIL: out of memory is SLPI_EINPUT (docs\/conventions.md#errors): /'
  fail=1
fi
bad=$(grep -n 'snprintf.*out of memory' $files)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" | sed 's/^/t-conventions: FAIL: out of memory written by hand, not through slpi_error_set (docs\/conventions.md#errors): /'
  fail=1
fi
noom=$(grep -l 'out of memory' $files | wc -l)

# 2. one pair of max norms
bad=$(grep -nE '^[a-z_ ]*\b(double|float)[ *]+[a-z_0-9]*max_?(abs|diff)[a-z_0-9]*[ ]*\(' $files | grep -v '^core/vec.h:')
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" | sed 's/^/t-conventions: FAIL: a max norm besides core\/vec.h: /'
  fail=1
fi
grep -q 'slpi_vec_maxabs' core/vec.h || { echo "t-conventions: FAIL: core/vec.h defines no slpi_vec_maxabs"; fail=1; }

# 3. one number parser for the command line
bad=$(grep -nE '\b(strto(l|ul|ull|ll|d|f|ld|imax|umax)|ato[ilf]|sscanf)[ ]*\(' cli/*.c oracle/verify-args.c oracle/precision.c \
      props/replay.c)
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" | sed 's/^/t-conventions: FAIL: a number read besides core\/parse.c (docs\/conventions.md#numbers): /'
  fail=1
fi
echo "t-conventions: $n files ($noom with an out-of-memory message) checked"
exit $fail
