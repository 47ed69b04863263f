#!/bin/sh
# t-ref-models.sh — the certified path on models from the command line
# (docs/models.md#certified-derivatives): every file of models/ with every scheme the
# registry admits for it
#   - `slpi run --ref` certifies the steps (exit 0) and its trajectory header carries the
#     model (system=model, algebra=, H=);
#   - a fast trajectory of it verifies (`slpi verify`, certified: verdict PASS, exit 0);
# and a model whose Hamiltonian leaves its domain is UNABLE with the key and column
# (exit 3). The steps are few: the ball-level agreement with the built-in twins is
# tests/ref/t-ref-model.c's; this test is the wiring of run, verify and the model keys.
set -u
slpi=${SLPI_BIN:-./build/slpi}
dir=$(dirname "$0")/../../models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
bad() { echo "t-ref-models: FAIL: $*" >&2; fail=1; }

for f in "$dir"/*.slpi; do
  # models of the model system; the Zeitlin-family key files (system=euler-zeitlin, N = 128)
  # are tests/twins/t-zeitlin-family.c's
  grep -q '^system=model' "$f" || continue
  m=$(basename "$f" .slpi)
  for k in tmk rkmk-le rkmk-heun im-direct trap-direct isomp svi; do
    # the registry's rule decides: a refused pair must be refused by both paths alike
    "$slpi" run --config "$f" scheme=$k steps=12 h=0.01 -o "$tmp/fast.tsv" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ]; then
      "$slpi" run --config "$f" scheme=$k steps=4 h=0.01 --ref -o "$tmp/ref.tsv" >/dev/null 2>&1
      [ $? -eq 2 ] || bad "$m/$k: refused by the double path ($(head -c 200 "$tmp/err")) but not by --ref"
      continue
    fi
    n=$((n+1))
    [ $rc -eq 0 ] || { bad "$m/$k: fast run exit $rc: $(head -c 200 "$tmp/err")"; continue; }
    "$slpi" run --config "$f" scheme=$k steps=4 h=0.01 --ref -o "$tmp/ref.tsv" >/dev/null 2>"$tmp/err" \
      || { bad "$m/$k: run --ref: $(head -c 300 "$tmp/err")"; continue; }
    grep -q "system=model" "$tmp/ref.tsv" && grep -q "algebra=" "$tmp/ref.tsv" && grep -q "H=" "$tmp/ref.tsv" \
      || bad "$m/$k: the --ref trajectory header lacks the model"
    "$slpi" verify "$tmp/fast.tsv" >"$tmp/verify" 2>&1 \
      || bad "$m/$k: verify exit $?: $(tail -3 "$tmp/verify")"
    grep -q "=> PASS" "$tmp/verify" || bad "$m/$k: verify verdict: $(tail -1 "$tmp/verify")"
  done
done
[ $n -ge 40 ] || bad "only $n model/scheme pairs ran (expected at least 40)"

# su(n): H at the traceless part (docs/models.md#su-n). The case that found the two paths
# apart (3.4e-7 after 200 steps of ISOMP update=cay, verify FAIL on 200 of 201 rows):
# an H reading ImX_a_a one by one; both updates, the issue's 200 steps, verify PASS
for u in cay comm; do
  n=$((n+1))
  "$slpi" run --config "$dir/su3-diagonal.slpi" scheme=isomp update=$u steps=200 -o "$tmp/su3.tsv" \
    >/dev/null 2>"$tmp/err" || { bad "su3-diagonal update=$u: $(head -c 200 "$tmp/err")"; continue; }
  "$slpi" verify "$tmp/su3.tsv" >"$tmp/verify" 2>&1
  grep -q "=> PASS" "$tmp/verify" || bad "su3-diagonal update=$u: verify $(tail -2 "$tmp/verify")"
done

# a domain error: log(x1) with x1 reaching 0 is UNABLE with the key and column, exit 3
n=$((n+1))
"$slpi" run system=model algebra=so3 "H=x2^2 + log(x1)" noise_H1=0.1*x3 x0=0.05,1,0.5 \
  scheme=rkmk-le steps=200 h=0.1 prec_max=256 --ref -o "$tmp/dom.tsv" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || bad "domain error: exit $rc (want 3): $(head -c 300 "$tmp/err")"
grep -q "UNABLE.*H: col 8: log of a ball reaching 0 or below" "$tmp/err" \
  || bad "domain error: message $(head -c 300 "$tmp/err")"

[ $fail -eq 0 ] && echo "t-ref-models: $n cases"
exit $fail
