#!/bin/sh
# t-failures.sh — numerical failures of `slpi run` (core/run.c failure policy): a
# solver that does not converge under on_cap=fail (at the first step, and at a later
# step), a state that overflows to NaN/Inf (diverged), and a certified step that
# cannot be enclosed at the precision cap (UNABLE). Each must exit 3 with the step
# index and the residual (fast) or radius and precision (ref) in the message, print no
# success summary, leave the output as the header plus exactly the rows of the steps
# before the failure (whole lines), and write exit_code 3 and failed_step to --json. A
# model's domain error (log of a ball reaching 0) is the certified path's UNABLE, with
# the key and column. A certified UNABLE names its remedy: the key to set
# (propagation=lohner where it applies and is off, else prec_max).
# A step whose scheme iteration does not converge near a pole is refused by both
# paths, the certified one naming the designated root's rule.
# The contrast case (on_cap=accept) must succeed and count the capped steps.
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
fail=0; n=0
bad() { echo "t-failures: FAIL: $*" >&2; fail=1; }

# failure STEP PATTERN ARGS...: exit 3, message with "step STEP" and PATTERN, rows 0..STEP
failure() {
  step=$1; pat=$2; shift 2; n=$((n+1))
  rm -f "$tmp/out.tsv" "$tmp/run.json"
  "$slpi" run "$@" -o "$tmp/out.tsv" --json "$tmp/run.json" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
  [ $rc -eq 3 ] || bad "slpi run $* -> exit $rc (want 3): $(head -c 300 "$tmp/stderr")"
  grep -q "step $step (t = [0-9.e-]*): $pat" "$tmp/stderr" \
    || bad "slpi run $*: message $(head -c 300 "$tmp/stderr") (want 'step $step ...: $pat')"
  grep -q "diagnostic\|solver: mean" "$tmp/stdout" "$tmp/stderr" && bad "slpi run $*: a summary after a failure"
  rows=$(grep -c '^[0-9]' "$tmp/out.tsv")
  [ "$rows" -eq $((step + 1)) ] || bad "slpi run $*: $rows rows in the output (want $((step + 1)): steps 0..$step)"
  [ "$(tail -c 1 "$tmp/out.tsv" | od -An -c | tr -d ' ')" = '\n' ] || bad "slpi run $*: output ends mid-line"
  grep -q '"exit_code": 3' "$tmp/run.json" && grep -q "\"failed_step\": $step" "$tmp/run.json" \
    || bad "slpi run $*: JSON summary lacks exit_code 3 / failed_step $step"
}

RB="--preset iso/rigid-body/trajectories --steps 500"
failure 0 "not-converged after 2 iterations, residual [0-9.e+-]*$" $RB maxit=2
failure 7 "not-converged after 6 iterations, residual [0-9.e+-]*$" $RB maxit=6
failure 0 "diverged after [0-9]* iterations, residual nan" $RB x0=1e200,1e200,1e200
failure 0 "not-converged after 50 iterations, residual [0-9.e+-]*$" --system heavy-top --scheme tmk --steps 20 h=10
failure 1 "UNABLE at precision 32 bits, radius inf.*; set prec_max=64 (a higher precision cap)" --system rigid-body --scheme tmk --steps 5 --ref prec=32 prec_max=32 h=5 amp=5
# an UNABLE names its remedy, the key to set: the rigid-body preset's plain balls
# (propagation=ball) give up at step 5360, where mean-value propagation applies (ISOMP
# comm, 3 entries)
failure 5360 "UNABLE at precision 1024 bits.*; set propagation=lohner" --preset iso/rigid-body/trajectories --steps 5400 --ref propagation=ball
# a model whose Hamiltonian leaves its domain (x1 reaches 0): UNABLE with the key and column
# (halved when models became textbook, docs/models.md#equations: the same trajectory)
failure 84 "UNABLE at precision 256 bits, radius inf, .*H: col 2: log of a ball reaching 0 or below)" \
  --scheme rkmk-le --steps 100 --ref prec_max=256 h=0.1 system=model algebra=so3 "H=(log(x1)+x2^2)/2" x0=0.001,1,0.5
# the double path names the key and column too (the first operation that left its domain)
failure 11 "diverged after 0 iterations, residual 0 (H: col 6: log outside its domain or not finite (nan))" \
  --scheme rkmk-heun --steps 100 h=0.05 system=model algebra=so3 "H=x2^2+log(x1)" x0=0.01,1,0.5
# a certified branch across a pole (docs/schemes.md#designated-root): TMK on a rigid body
# with 0.0001/x2, x2 running down to the pole. The double path's iteration stops
# converging at step 185; the certified path refuses at step 182, where the scheme's own
# iteration stops contracting, and names why (the root a Newton method reached there
# froze the state: every step certified with exit 0, a non-physical branch)
POLE="system=model algebra=so3 H=x1^2/2+x2^2+1.5*x3^2+0.0001/x2 x0=1,0.5,0.2 scheme=tmk --steps 400"
failure 185 "not-converged after 50 iterations" $POLE
failure 182 "UNABLE at precision 1024 bits, radius inf, .*no designated root (docs/schemes.md#designated-root): the scheme's iteration does not converge; set prec_max=2048" $POLE --ref
# the same rule for SVI: its double path's iteration (A, B) <- map stops converging at
# step 184; the certified path refuses at step 182, where that iteration stops contracting
# (by Newton from the predictor alone it certified step 184, which the double path cannot
# take, and stopped at 185)
SVIPOLE="system=model algebra=so3 H=x1^2/2+x2^2+1.5*x3^2+0.0001/x2 x0=1,0.5,0.2 scheme=svi --steps 400"
failure 184 "not-converged after 200 iterations" $SVIPOLE
failure 182 "UNABLE at precision 1024 bits, radius inf, .*no designated root (docs/schemes.md#designated-root): the scheme's iteration does not converge; set prec_max=2048" $SVIPOLE --ref
# and for SVI-LP and every other implicit scheme (the explicit RKMK steps have one image
# and no root to choose): the double path fails its iteration, the certified path names the rule
for s in svi,svi_form=lp:184:182:not-converged isomp:185:184:diverged im-direct:184:182:not-converged \
         trap-direct:184:182:diverged; do
  scheme=$(echo "${s%%:*}" | tr , ' '); r=${s#*:}; fast=${r%%:*}; r=${r#*:}; ref=${r%%:*}; why=${r#*:}
  P="system=model algebra=so3 H=x1^2/2+x2^2+1.5*x3^2+0.0001/x2 x0=1,0.5,0.2 scheme=$scheme --steps 400"
  failure "$fast" "$why after [0-9]* iterations" $P
  failure "$ref" "UNABLE at precision 1024 bits, radius inf, .*no designated root (docs/schemes.md#designated-root): the scheme's iteration does not converge; set prec_max=2048" $P --ref
done

# contrast: the same cap accepted is a success that counts capped steps
n=$((n+1))
"$slpi" run $RB maxit=2 on_cap=accept -o "$tmp/ok.tsv" > "$tmp/stdout" 2>&1 || bad "on_cap=accept failed"
grep -q "capped 500" "$tmp/stdout" || bad "on_cap=accept: summary does not count 500 capped steps: $(head -3 "$tmp/stdout")"

echo "t-failures: $n cases"
exit $fail
