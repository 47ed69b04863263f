#!/bin/sh
# t-model-cli.sh — the model command line's pieces (docs/models.md#equations, #keys):
#   - `slpi model` prints the algebra's equation and, at x0, each generator xi_k and field
#     V_k; on so3 V_k must be x cross xi_k, recomputed here from the printed numbers
#     (relative 1e-15 of max |x| max |xi_k|), for every k of models/rigid-body.slpi;
#   - `slpi model` and `slpi noise --config` take an se3 model without a scheme (the
#     default isomp does not apply to se3, and neither command steps);
#   - --quiet is accepted by every command the README lists it for;
#   - `slpi golden --write --config` certifies a user's case that `golden --check` passes,
#     and the same file with its Hamiltonian changed (H + x) fails;
#   - it refuses at write time (exit 2, the key named, no file written) every problem
#     `golden --check` could never run: one that reads a file (x0_file, noise_file,
#     seed=file, noise=fields' noise_fields), each of which would run fine with `slpi run`.
set -u
slpi=${SLPI_BIN:-./build/slpi}
dir=$(dirname "$0")/../../models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
bad() { echo "t-model-cli: FAIL: $*" >&2; fail=1; }

n=$((n+1))
"$slpi" model --config "$dir/rigid-body.slpi" > "$tmp/m" 2>&1 || bad "slpi model rigid-body: exit $?: $(head -3 "$tmp/m")"
grep -q "^equation: dx = x cross grad H" "$tmp/m" || bad "slpi model: no so3 equation: $(head -3 "$tmp/m")"
awk -F'\t' '
  $1 ~ /^  x *$/ && $2 + 0 == $2 { for (i = 1; i <= 3; i++) x[i] = $(i + 1) }
  $1 ~ /^  xi_/ { k = substr($1, 6) + 0; for (i = 1; i <= 3; i++) xi[k, i] = $(i + 1); nk = k > nk ? k : nk }
  $1 ~ /^  V_/ { k = substr($1, 5) + 0; for (i = 1; i <= 3; i++) v[k, i] = $(i + 1) }
  function abs(a) { return a < 0 ? -a : a }
  END {
    if (nk != 3) { print "expected xi_0..xi_3, got up to " nk; exit 1 }
    for (k = 0; k <= nk; k++) {
      c[1] = x[2] * xi[k, 3] - x[3] * xi[k, 2]
      c[2] = x[3] * xi[k, 1] - x[1] * xi[k, 3]
      c[3] = x[1] * xi[k, 2] - x[2] * xi[k, 1]
      s = 0; for (i = 1; i <= 3; i++) { if (abs(x[i]) > s) s = abs(x[i]) }
      t = 0; for (i = 1; i <= 3; i++) { if (abs(xi[k, i]) > t) t = abs(xi[k, i]) }
      for (i = 1; i <= 3; i++)
        if (abs(v[k, i] - c[i]) > 1e-15 * s * t) { printf "V_%d[%d] = %.17g, x cross xi_%d = %.17g\n", k, i, v[k, i], k, c[i]; exit 1 }
    }
  }' "$tmp/m" > "$tmp/chk" || bad "slpi model: $(cat "$tmp/chk")"

n=$((n+1))
"$slpi" model --config "$dir/heavy-top-variant.slpi" > "$tmp/m" 2>&1 || bad "slpi model on se3 without a scheme: exit $?: $(head -2 "$tmp/m")"
n=$((n+1))
"$slpi" noise --config "$dir/heavy-top-variant.slpi" steps=2 > "$tmp/nz" 2>&1 \
  || bad "slpi noise --config on se3 without a scheme: exit $?: $(head -2 "$tmp/nz")"

for c in run converge verify golden props audit; do
  n=$((n+1))
  "$slpi" "$c" --quiet --help > /dev/null 2>"$tmp/err" || bad "slpi $c --quiet: exit $?: $(head -2 "$tmp/err")"
done
n=$((n+1))
"$slpi" props --config "$dir/rigid-body.slpi" --fast-only --cases 1 --property casimir -q > "$tmp/p" 2>&1 \
  || bad "slpi props -q: exit $?: $(tail -2 "$tmp/p")"

n=$((n+1))
{ cat "$dir/su3-diagonal.slpi"; echo steps=2; } > "$tmp/mine.slpi"   # the keys after it must win: steps=4
"$slpi" golden --write --config "$tmp/mine.slpi" scheme=isomp steps=4 --dir "$tmp" > "$tmp/gw" 2>&1 \
  || bad "golden --write --config: exit $?: $(tail -2 "$tmp/gw")"
grep -q "^problem	steps=4$" "$tmp/mine.golden" || bad "golden --write --config: the case lacks steps=4"
"$slpi" golden --check "$tmp/mine.golden" > "$tmp/gc" 2>&1 \
  || bad "golden --check of the user's case: exit $?: $(tail -3 "$tmp/gc")"
grep -q "golden: PASS" "$tmp/gc" || bad "golden --check of the user's case: $(tail -1 "$tmp/gc")"
n=$((n+1))
sed 's/^\(problem\tH=.*\)$/\1 + 0.001*ReX_0_1/' "$tmp/mine.golden" > "$tmp/changed.golden"
grep -q "ReX_0_1$" "$tmp/changed.golden" || bad "the changed case's H was not changed"
"$slpi" golden --check "$tmp/changed.golden" > "$tmp/gc" 2>&1
[ $? -eq 1 ] || bad "golden --check of a changed case: exit not 1: $(tail -2 "$tmp/gc")"

# not self-contained: refused when written, not when checked
"$slpi" noise --seed 1 --path 0 --components 3 --h 0.00390625 --steps 2 -o "$tmp/nf" > /dev/null 2>&1 || bad "slpi noise"
echo "1 0.5 0.2" > "$tmp/x0"
awk 'BEGIN { srand(7); for (i = 0; i < 15; i++) printf "%s%.6f", i ? " " : "", rand() - 0.5; print "" }' > "$tmp/xi"
printf 'system=euler-zeitlin\nN=4\nic_lmax=3\nnoise=fields\n' > "$tmp/ez.slpi"
printf 'system=model\nalgebra=so3\nH=x1^2/2+x2^2/4+x3^2/6\nnoise_H1=x1\n' > "$tmp/nox0.slpi"
for form in "nox0.slpi x0_file=$tmp/x0" "rigid-body.slpi noise_file=$tmp/nf" "rigid-body.slpi seed=file noise_file=$tmp/nf" \
            "ez.slpi noise_fields=$tmp/xi"; do
  n=$((n+1))
  set -- $form; cfg=$1; shift; eval "key=\${$#%%=*}"   # the file key (seed=file names its noise_file)
  case $cfg in rigid-body.slpi) cfg=$dir/$cfg ;; *) cfg=$tmp/$cfg ;; esac
  "$slpi" run -q --config "$cfg" steps=2 "$@" -o "$tmp/ok.tsv" > /dev/null 2>&1 || bad "slpi run $*: exit $? (the problem itself runs)"
  rm -f "$tmp/self.golden"
  "$slpi" golden --write --config "$cfg" --case self steps=2 "$@" --dir "$tmp" > "$tmp/gw" 2>&1; rc=$?
  [ $rc -eq 2 ] && grep -q "$key=.*golden --check could never run it" "$tmp/gw" ||
    bad "golden --write --config with $*: exit $rc, $(tail -1 "$tmp/gw") (want exit 2 naming $key)"
  [ -e "$tmp/self.golden" ] && bad "golden --write --config with $*: wrote a case it refused"
done

[ $fail -eq 0 ] && echo "t-model-cli: $n checks"
exit $fail
