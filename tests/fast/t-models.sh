#!/bin/sh
# t-models.sh — models as data (docs/models.md) on the double path: every built-in system
# restated in models/ runs with every scheme the registry admits for it, and its
# trajectory agrees with the built-in twin's (same x0, same canonical noise).
#
# The rule, fixed before any number was looked at (docs/models.md#evidence): the two
# runs differ only in the rounding of the gradients (the model's automatic differentiation
# vs the built-in's formula) and, for implicit schemes, in where the solver stops within
# its tolerance. So per step they may differ by about max(u, tol) |x|, and over n steps
# (short enough that the flow does not amplify) by n max(u, tol) |x|. The scale-free ratio
#     r = max_i |x_model,i - x_builtin,i| / (n max(u, tol) max_i |x_builtin,i|)
# at the last of n = 100 steps must be at most 4 ("a few units").
#
# Also: the three systems no built-in covers (models/*-new.slpi... listed below) run
# with every applicable scheme, and the inapplicable pairs are refused with the
# registry's reason.
set -u
slpi=${SLPI_BIN:-./build/slpi}
dir=$(dirname "$0")/../../models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
steps=100
h=0.00390625

# twin MODEL "BUILT-IN KEYS" SCHEMES...
twin() {
  model=$1; keys=$2; shift 2
  x0=$(sed -n 's/^x0=//p' "$dir/$model")
  for k in "$@"; do
    n=$((n+1))
    if ! "$slpi" run -q --config "$dir/$model" scheme=$k steps=$steps h=$h -o "$tmp/m.tsv" >"$tmp/err" 2>&1; then
      echo "t-models: FAIL: $model scheme=$k: $(head -c 300 "$tmp/err")" >&2; fail=1; continue
    fi
    # shellcheck disable=SC2086
    if ! "$slpi" run -q $keys scheme=$k steps=$steps h=$h x0=$x0 -o "$tmp/b.tsv" >"$tmp/err" 2>&1; then
      echo "t-models: FAIL: twin $keys scheme=$k: $(head -c 300 "$tmp/err")" >&2; fail=1; continue
    fi
    dim=$(printf '%s\n' "$x0" | awk -F, '{print NF}')
    tol=$(sed -n 's/^# tol=//p' "$tmp/b.tsv")
    r=$(awk -v dim="$dim" -v tol="$tol" -v n="$steps" -F'\t' '
      FNR == 1 && NR != 1 { f = 2 }
      /^#/ || /^step/ { next }
      { last[f + 0] = $0 }
      END {
        split(last[0], a, "\t"); split(last[2], b, "\t")
        d = 0; s = 0
        for (i = 3; i < 3 + dim; i++) {
          e = a[i] - b[i]; if (e < 0) e = -e; if (e > d) d = e
          v = b[i]; if (v < 0) v = -v; if (v > s) s = v
        }
        u = 2 ^ -53; t = tol + 0; if (t < u) t = u
        printf "%.3g", d / (n * t * s)
      }' "$tmp/m.tsv" "$tmp/b.tsv")
    if awk -v r="$r" 'BEGIN { exit !(r <= 4) }'; then
      echo "t-models: $model scheme=$k: ratio $r (<= 4)"
    else
      echo "t-models: FAIL: $model scheme=$k: ratio $r > 4 against $keys" >&2; fail=1
    fi
  done
}

all="tmk rkmk-le rkmk-heun im-direct trap-direct isomp svi"
twin rigid-body.slpi "system=rigid-body form=iso" $all
twin heavy-top.slpi "system=heavy-top form=rkmk" tmk rkmk-le rkmk-heun im-direct trap-direct
twin manakov.slpi "system=manakov n=4" $all
twin point-vortices.slpi "system=point-vortices model=B" $all
twin euler-zeitlin.slpi "system=euler-zeitlin N=2 ic_lmax=1" $all
twin euler-zeitlin-3.slpi "system=euler-zeitlin N=3 ic_lmax=2 amp=2" tmk rkmk-heun im-direct trap-direct isomp svi
twin euler-zeitlin-4.slpi "system=euler-zeitlin N=4 ic_lmax=3 amp=2" tmk rkmk-heun im-direct trap-direct isomp svi
twin sine-euler.slpi "system=sine-euler N=3" $all

# refuse MODEL SCHEME PATTERN: the registry's rule, exit 2
refuse() {
  n=$((n+1))
  "$slpi" run -q --config "$dir/$1" scheme=$2 steps=1 -o "$tmp/x.tsv" >"$tmp/err" 2>&1; rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$3" "$tmp/err"; then
    echo "t-models: FAIL: $1 scheme=$2 -> exit $rc, $(head -c 300 "$tmp/err") (want 2, /$3/)" >&2; fail=1
  fi
}
refuse heavy-top.slpi isomp "ISOMP needs a J-quadratic matrix algebra"
refuse heavy-top.slpi svi "se3's (pi, gamma) state has none"
# noise Q at N = 3 is Lie-Euler consistent (the built-in admits it), but each H_alpha reads
# coordinates whose basis elements do not commute: the sufficient rule refuses it
refuse euler-zeitlin-3.slpi rkmk-le "neither affine nor a function of coordinates whose basis elements commute"
refuse euler-zeitlin-4.slpi rkmk-le "neither affine nor a function of coordinates whose basis elements commute"

# A domain error on the double path is a numerical failure with the step (exit 3): the
# gradient of log(x1) is NaN once x1 < 0, and x1 = cos(t) turns negative near t = pi/2.
n=$((n+1))
"$slpi" run -q system=model algebra=so3 "H=x3^2/2 + 0.01*log(x1)" x0=1,1,1 scheme=tmk h=0.01 steps=1000 \
  -o "$tmp/d.tsv" >"$tmp/err" 2>&1; rc=$?
if [ $rc -ne 3 ] || ! grep -q "step" "$tmp/err"; then
  echo "t-models: FAIL: a domain error -> exit $rc, $(head -c 300 "$tmp/err") (want 3 naming the step)" >&2; fail=1
fi

[ $fail -eq 0 ] && echo "t-models: $n checks passed"
exit $fail
