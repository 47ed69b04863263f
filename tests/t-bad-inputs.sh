#!/bin/sh
# t-bad-inputs.sh — table of malformed inputs across every command and every file the
# commands read (key files, x0 files, noise files, checkpoints, options). Each row:
# the command must exit 2 (not crash: no exit >= 128, no sanitizer report), print a
# message matching the row's pattern (naming the key or file:line), and leave no
# output file behind (`run` and `noise` rows write to -o/--output; an input error
# found before the first step removes the file, see `slpi run --help`).
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
fail=0; n=0
cd "$tmp" || exit 1

# row PATTERN COMMAND ARGS...: the command gets an output file where it writes one
row() {
  pat=$1; cmd=$2; shift 2; n=$((n+1))
  rm -f out.tsv
  case $cmd in
    run) "$slpi" run "$@" -o out.tsv >msg 2>&1 ;;
    noise) "$slpi" noise "$@" --output out.tsv >msg 2>&1 ;;
    resume) cp base.tsv out.tsv; "$slpi" run "$@" -o out.tsv >msg 2>&1 ;;
    *) "$slpi" "$cmd" "$@" >msg 2>&1 ;;
  esac
  rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$pat" msg || grep -q "Sanitizer\|runtime error" msg; then
    echo "t-bad-inputs: FAIL #$n: slpi $cmd $* -> exit $rc: $(head -c 300 msg) (want exit 2 and /$pat/)" >&2
    fail=1
  fi
  if [ $cmd = resume ] && ! cmp -s out.tsv base.tsv; then
    echo "t-bad-inputs: FAIL #$n: slpi run $* changed the output it was to resume" >&2
    fail=1
  elif [ $cmd != resume ] && [ -e out.tsv ]; then
    echo "t-bad-inputs: FAIL #$n: slpi $cmd $* left an output file" >&2
    fail=1
  fi
}

P="--preset iso/rigid-body/trajectories --steps 5"
"$slpi" noise --seed 1 --path 0 --components 3 --h 0.00390625 --steps 5 > good.noise || exit 1
nl=$(printf '\n')
: > empty
mkdir adir
# noise files: header, version, columns, values, shape
row "empty:0: empty file" run $P noise_file=empty
sed '1s/slpi-noise/slpi-noisy/' good.noise > f; row "f:1: not a noise file" run $P noise_file=f
sed '1s/ 1$/ 2/' good.noise > f; row "f:1: unsupported noise file version 2" run $P noise_file=f
sed '11s/$/\t0.5/' good.noise > f; row "f:11: wrong column count" run $P noise_file=f
sed '12s/^[^\t]*/nan/' good.noise > f; row "f:12: .*not finite\|f:12: hex and decimal" run $P noise_file=f
sed '12s/^[^\t]*\t[^\t]*\t[^\t]*\t[^\t]*/inf\tinf\tinf\tinf/' good.noise > f; row "f:12: " run $P noise_file=f
sed '13s/\t[^\t]*$/\t1e999/' good.noise > f; row "f:13: expected a hex float and its decimal copy" run $P noise_file=f
sed '15d' good.noise > short; row "short:14: truncated file: 4 data rows, the header says 5" run $P noise_file=short
sed '14s/\t[^\t]*$/\t0.125/' good.noise > f; row "f:14: hex and decimal copies differ" run $P noise_file=f
sed '4s/3/-3/' good.noise > g; row "g:4: bad component count: -3" run $P noise_file=g
"$slpi" noise --seed 1 --path 0 --components 2 --h 0.00390625 --steps 5 > m2.noise
row "m2.noise: 2 components per step, the problem has M = 3" run $P noise_file=m2.noise
"$slpi" noise --seed 1 --path 0 --components 3 --h 0.0078125 --steps 5 > h2.noise
row "h2.noise: wrong level" run $P noise_file=h2.noise
row "missing.noise: cannot open" run $P noise_file=missing.noise
row "short:14: truncated file" noise --check short
row "empty:0: empty file" noise --check empty
# key files
row "adir: not a regular file (a folder)" run --config adir
awk 'BEGIN { printf "h="; for (i = 0; i < 9000; i++) printf "1"; print "" }' > long.cfg
row "long.cfg:1: line too long" run --config long.cfg
printf 'h=0.1\0steps=3\nseed=2\n' > nul.cfg; row "nul.cfg:1: NUL byte in the line" run --config nul.cfg
printf 'system=rigid-body\nsteps 5\n' > c; row "c:2: expected key=value, got 'steps 5'" run --config c
printf 'h=0.1\nfrob=2\n' > c; row "c:2: frob: unknown key" run --config c
printf 'system=rigid-body\nh=nan\n' > c; row "c:2: h=nan: not a finite number" run --config c
printf 'h=1e999\n' > c; row "c:1: h=1e999: not a finite number" run --config c
printf 'steps=-5\n' > c; row "c:1: steps=-5: out of range" run --config c
printf 'system=sine-euler\nscheme=tmk\nN=4\n' > c; row "N=4: sine-Euler needs N odd" run --config c
printf 'system=heavy-top\nscheme=isomp\n' > c; row "not applicable to system heavy-top" run --config c
printf 'prec=0\n' > c; row "c:1: prec=0: out of range" run --config c
row "missing.cfg: cannot open" run --config missing.cfg
# the command line
row "h=1e999: not a finite number" run h=1e999
row "seed=abc: not an unsigned 64-bit integer" run seed=abc
row "seed=-1: not an unsigned 64-bit integer" run seed=-1
row "path=4294967296: paths are numbered 0..2^32-1" run $P path=4294967296
row "trunc_ell=0: out of range" run trunc_ell=0
row "output_every=0: out of range" run output_every=0
row "truncate=on needs h < 1" run h=1.5 truncate=on steps=2
row "n=2: out of range" run --system manakov --scheme isomp n=2
row "n=1: out of range" run --system point-vortices --scheme isomp n=1
row "N=1: out of range" run --system euler-zeitlin --scheme isomp N=1
row "N=6: sine-Euler needs N odd" run --system sine-euler --scheme isomp N=6
row "refine=41: out of range" run refine=41
row "T=1 is not an integer multiple of h" run T=1 h=0.3
row "level=3 needs T" run level=3
row "x0: 2 values given" run x0=1,2
row "x0: entry 1: 'nan': not a finite number" run x0=nan,0,0
row "steps=0: out of range" run --steps 0
row "steps=99999999999999999999: " run steps=99999999999999999999
row "unrecognized option '--frobnicate'" run --frobnicate
row "expected key=value" run justaword
row "prec=0: out of range" run --ref --prec 0
row "not applicable\|N/A" run --system manakov --scheme rkmk-le
# initial-state files
row "missing.x0: cannot open" run $P x0_file=missing.x0
row "empty: 0 values, the state has 3" run $P x0_file=empty
printf '1 2 x\n' > x0; row "x0:1: 'x': not a finite number" run $P x0_file=x0
printf '1 2 3\n4\n' > x0; row "x0:2: more than the 3 values of the state" run $P x0_file=x0
printf '1 inf 3\n' > x0; row "x0:1: 'inf': not a finite number (infinity)" run $P x0_file=x0
awk 'BEGIN { for (i = 0; i < 65533; i++) printf " "; print "0.5 0.25" }' > x0long
row "x0long: 2 values, the state has 3" run $P x0_file=x0long
# checkpoints and their options
"$slpi" run $P -q -o base.tsv || exit 1
row "empty: empty file" resume $P --resume empty
printf '# slpi-checkpoint 1\narith fast\n' > ck; row "ck:.*truncated checkpoint" resume $P --resume ck
row "good.noise:1: not a checkpoint" resume $P --resume good.noise
row "missing.ck: cannot open" resume $P --resume missing.ck
row "checkpoint-every -3: out of range" run $P --checkpoint ck2 --checkpoint-every -3
# the noise command
row "--components 0: out of range \[1, 100000\]" noise --components 0 --seed 1 --path 0 --h 0.1 --steps 1
row "--h -1: out of range" noise --seed 1 --path 0 --components 1 --h -1 --steps 1
row "--seed xyz: not an unsigned 64-bit integer" noise --seed xyz --path 0 --components 1 --h 0.1 --steps 1
row "--h nan: not a finite number (NaN)" noise --seed 1 --path 0 --components 1 --h nan --steps 1
# other commands
row "unrecognized option '--frob'" list --frob
row "unknown command 'frobnicate'" frobnicate

echo "t-bad-inputs: $n malformed inputs"
[ $n -ge 40 ] || { echo "t-bad-inputs: FAIL: fewer than 40 rows" >&2; fail=1; }
exit $fail
