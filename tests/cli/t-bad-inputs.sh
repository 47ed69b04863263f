#!/bin/sh
# t-bad-inputs.sh — table of malformed inputs across every command and every file the
# commands read (key files, x0 files, noise files, golden files, checkpoints, options,
# initial states off their manifold) and of unsafe outputs (a device, a FIFO, a
# symbolic link, an output naming an input or another output, a report to /dev/full).
# Each row: the command must exit 2 (not crash: no exit >= 128, no sanitizer report),
# print a message matching the row's pattern (naming the key or file:line), leave no
# output file behind (`run` and `noise` rows write to -o/--output, which is written
# only when the run succeeds, see `slpi run --help`), no temporary file, and every file
# the row names in $keep exactly as it was. Last, two runs writing one -o at once must
# leave one whole run's output.
set -u
slpi=${SLPI_BIN:-./build/slpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
fail=0; n=0
top=$(pwd)
cd "$tmp" || exit 1

# snap FILE...: what each file is (type, link target, contents), to compare after a row
snap() {
  for f; do
    if [ -L "$f" ]; then echo "link $f -> $(readlink "$f")"
    elif [ -c "$f" ]; then echo "chardev $f"
    elif [ -p "$f" ]; then echo "fifo $f"
    elif [ -f "$f" ]; then echo "file $f $(cksum < "$f")"
    else echo "none $f"; fi
  done
}

# row PATTERN COMMAND ARGS...: the command gets an output file where it writes one
# (COMMAND runx, verifyx, goldenx, noisex, convergex: no output file added; stdout goes to $out).
# Files named in $keep must be exactly as before (nothing deleted, truncated or
# replaced); no temporary file (.NAME.slpi-PID-XXXXXX) may be left behind.
keep=""; out=msg
# Each command runs with at most 8 GiB of address space, so that a missing limit (a bug,
# or a mutant of `make mutants`) fails its row instead of exhausting the machine; not
# under AddressSanitizer, whose shadow memory reserves terabytes of address space.
if ldd "$slpi" 2>/dev/null | grep -q libasan; then memcap=unlimited; else memcap=8388608; fi
row() {
  pat=$1; cmd=$2; shift 2; n=$((n+1))
  rm -f out.tsv
  before=$(snap $keep)
  # temporary files already there belong to another live process (the checkpointing
  # writer of the lock row, stopped perhaps while it writes its next checkpoint)
  tmp_before=$(ls -A | grep '\.slpi-')
  (ulimit -v $memcap
  case $cmd in
    run) "$slpi" run "$@" -o out.tsv >msg 2>&1 ;;
    noise) "$slpi" noise "$@" --output out.tsv >msg 2>&1 ;;
    resume) cp base.tsv out.tsv; "$slpi" run "$@" -o out.tsv >msg 2>&1 ;;
    runx|verifyx|goldenx|noisex|convergex)
      if [ "$out" = msg ]; then "$slpi" "${cmd%x}" "$@" >msg 2>&1; else "$slpi" "${cmd%x}" "$@" 2>msg >"$out"; fi ;;
    *) "$slpi" "$cmd" "$@" >msg 2>&1 ;;
  esac)
  rc=$?
  if [ "$(snap $keep)" != "$before" ]; then
    echo "t-bad-inputs: FAIL #$n: slpi $cmd $* changed a file it must keep: $(snap $keep | tr '\n' ' ') (was: $(echo "$before" | tr '\n' ' '))" >&2
    fail=1
  fi
  tmp_new=$(ls -A | grep '\.slpi-' | grep -vxF "$tmp_before")
  if [ -n "$tmp_new" ]; then
    echo "t-bad-inputs: FAIL #$n: slpi $cmd $* left a temporary file: $tmp_new" >&2
    rm -f $tmp_new; fail=1
  fi
  keep=""; out=msg
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
PL="--preset iso/rigid-body/trajectories"   # without --steps: for runs that give their own
ln -s "$top/oracle/golden" oracle-golden
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
sed '13i\
# a comment between data rows' good.noise > f; row "f:13: a '#' line between data rows" run $P noise_file=f
"$slpi" noise --seed 1 --path 0 --components 3 --h 0.00390625 --steps 10 --first 5 > first5.noise
row "first5.noise: holds steps 5..14, the run needs steps 0..4" run $P noise_file=first5.noise
"$slpi" noise --seed 1 --path 0 --components 2 --h 0.00390625 --steps 5 > m2.noise
row "m2.noise: 2 components per step, the problem has M = 3" run $P noise_file=m2.noise
"$slpi" noise --seed 1 --path 0 --components 3 --h 0.0078125 --steps 5 > h2.noise
row "h2.noise: wrong level" run $P noise_file=h2.noise
row "missing.noise: cannot open" run $P noise_file=missing.noise
# a noise file's own seed, path or refine must be the problem's, unless seed=file (docs/noise.md#files)
"$slpi" noise --seed 2 --path 0 --components 3 --h 0.00390625 --steps 5 > s2.noise
row "noise_file=.*/s2.noise: the file's own seed is 2, the problem has seed=1 " run $P noise_file=s2.noise
"$slpi" noise --seed 1 --path 7 --components 3 --h 0.00390625 --steps 5 > p7.noise
row "noise_file=.*/p7.noise: the file's own path is 7, the problem has path=0 " run $P noise_file=p7.noise
"$slpi" noise --seed 1 --path 0 --components 3 --h 0.00390625 --steps 5 --refine 1 > r1.noise
row "noise_file=.*/r1.noise: the file's own refine is 1, the problem has refine=0 " run $P noise_file=r1.noise
row "seed=file: takes the seed of a noise_file, and none is given" run $P seed=file
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
row "^slpi run: inertia=,: no values$" run system=rigid-body inertia=, steps=1
row "^slpi run: steps: missing value$" run system=rigid-body steps=
row "^slpi run: seed: missing value$" run system=rigid-body seed=
row "^slpi noise: --seed : missing value" noise --seed "" --path 0 --components 3 --h 0.5 --steps 2
row "^slpi run: steps= : not an integer$" run system=rigid-body "steps= "
row "seed=abc: not an unsigned 64-bit integer" run seed=abc
row "seed=-1: not an unsigned 64-bit integer" run seed=-1
row "path=4294967296: paths are numbered 0..2^32-1" run $P path=4294967296
row "trunc_ell=0: out of range" run trunc_ell=0
row "output_every=0: out of range" run output_every=0
row "truncate=on needs h < 1" run h=1.5 truncate=on steps=2
row "n=2: out of range" run --system manakov --scheme isomp n=2
row "n=1: out of range" run --system point-vortices --scheme isomp n=1
row "N=1: out of range" run --system euler-zeitlin --scheme isomp N=1
row "N=1025: out of range" run --system euler-zeitlin --scheme isomp N=1025
row "N=513: the certified path covers N = 2..512, and up to 1024 with ISOMP on the BLAS route" run --ref --system euler-zeitlin --scheme isomp N=513 matmul=arb --steps 1
row "ic_lmax=4: must be at most N-1 = 3" run --system euler-zeitlin --scheme isomp N=4 ic_lmax=4
row "ic_lmax=1024: out of range" run --system euler-zeitlin --scheme isomp ic_lmax=1024
# the Zeitlin family (docs/systems.md#zeitlin-family): mode lists, kappa, noise=modes
Z="--system euler-zeitlin --scheme isomp N=4 ic_lmax=3 --steps 1"
row "noise_modes: entry 2 '4:0:0.1': l = 4 must be an integer in 1..N-1 = 3" run $Z noise=modes noise_modes=1:0:0.1,4:0:0.1
row "noise_modes: entry 1 '0:0:1': l = 0 must be an integer in 1..N-1 = 3" run $Z noise=modes noise_modes=0:0:1
row "noise_modes: entry 1 '2:3:0.1': m = 3 must be an integer with |m| <= l = 2" run $Z noise=modes noise_modes=2:3:0.1
row "background_modes: entry 1 '2:-3:1': m = -3 must be an integer with |m| <= l = 2" run $Z background_modes=2:-3:1
row "noise_modes: entry 1 '1:0:nan': amp = nan must be a finite number" run $Z noise=modes noise_modes=1:0:nan
row "noise_modes: entry 1 '1:0:1e999': amp = 1e999 must be a finite number" run $Z noise=modes noise_modes=1:0:1e999
row "background_modes: entry 2 '1:0': expected l:m:amp" run --ref $Z background_modes=1:1:1,1:0
row "noise_modes: entry 1 '1:0:1:2': expected l:m:amp" run $Z noise=modes noise_modes=1:0:1:2
row "noise_modes: entry 2 '': expected l:m:amp" run $Z noise=modes noise_modes=1:0:1,
row "noise=modes needs noise_modes=l:m:amp" run $Z noise=modes
row "noise_modes: entry 3 '2:-1:1' repeats the mode (l, m) = (2, -1) of entry 1: give each mode once" run $Z noise=modes noise_modes=2:-1:0.1,1:0:1,2:-1:1
row "noise_modes: entry 2 '1:0:0.1' repeats the mode (l, m) = (1, 0) of entry 1" run --ref $Z noise=modes noise_modes=1:0:0.1,1:0:0.1
row "background_modes: entry 2 '1:0:2' repeats the mode (l, m) = (1, 0) of entry 1" run $Z background_modes=1:0:1,1:0:2
row "noise_modes=1:0:1 needs noise=modes (noise=Q is another noise)" run $Z noise_modes=1:0:1
# noise=fields: a file of N^2-1 = 15 coefficients per line (su(4)); edited after a run
xi15='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15'
printf '%s\n%s 16\n' "$xi15" "$xi15" > xi; row "xi:2: 16 coefficients, a field of su(N) has N^2-1 = 15 .*l = 0, the trace, is not a coefficient" run $Z noise=fields noise_fields=xi
printf '# two\n\n1 2 3\n' > xi; row "xi:3: 3 coefficients, a field of su(N) has N^2-1 = 15" run --ref $Z noise=fields noise_fields=xi
printf '%s\n' "$xi15" | sed 's/ 7 / nan /' > xi; row "xi:1: coefficient 7=nan: not a finite number (NaN)" run $Z noise=fields noise_fields=xi
printf '%s\n' "$xi15" | sed 's/ 7 / 1e999 /' > xi; row "xi:1: coefficient 7=1e999: not a finite number" run --ref $Z noise=fields noise_fields=xi
printf '%s\n' "$xi15" | sed 's/ 7 / 7x /' > xi; row "xi:1: coefficient 7=7x: not a finite number (trailing 'x')" run $Z noise=fields noise_fields=xi
printf '# none\n\n' > xi; row "xi: no fields: one line of N^2-1 coefficients per xi_k" run $Z noise=fields noise_fields=xi
: > xi; row "xi: no fields" run $Z noise=fields noise_fields=xi
row "missing.xi: cannot open" run $Z noise=fields noise_fields=missing.xi
row "noise=fields needs noise_fields=FILE" run $Z noise=fields
printf '%s\n' "$xi15" > xi; row "noise_fields=.*/xi needs noise=fields (noise=modes is another noise)" run $Z noise=modes noise_modes=1:0:1 noise_fields=xi
row "noise_modes=1:0:1 needs noise=modes (noise=fields is another noise)" run $Z noise=fields noise_fields=xi noise_modes=1:0:1
"$slpi" run $Z noise=fields noise_fields=xi -o xi.tsv >/dev/null 2>&1 || { echo "t-bad-inputs: FAIL: noise=fields run" >&2; fail=1; }
printf '%s\n' "$xi15" | sed 's/ 7 / 7.5 /' > xi
row "noise_fields=.*xi: the file's digest is [0-9]*, the problem records noise_fields_digest=[0-9]*: the file changed" verifyx xi.tsv
# multiplier (L by lambda(l)): vanishing, not finite, a ball with 0, not a function of l, with kappa
# (the same text on both paths: tests/twins/t-two-paths.c generates the rest)
for path in "" --ref; do
  row "multiplier=l\*(l+1)-6: lambda(l = 2) is 0, not finite, or outside binary64's normal range in magnitude \[2^-1022, 2^1024) (on the certified path: somewhere in its ball): L is not invertible" run $path $Z "multiplier=l*(l+1)-6"
  row "multiplier=exp(1000\*l): at l = 1: col 1: exp outside its domain (or not finite) in a constant subexpression" run $path $Z "multiplier=exp(1000*l)"
  row "multiplier=1/(l-2): at l = 2: col 2: div outside its domain (or not finite) in a constant subexpression" run $path $Z "multiplier=1/(l-2)"
  row "multiplier: col 10: a coordinate: the multiplier is a function of l alone" run $path $Z "multiplier=-l*(l+1)-x1"
  row "multiplier: col 10: the time t: the multiplier is a function of l alone" run $path $Z "multiplier=-l*(l+1)-t"
done
# a ball around 0 where binary64 rounds to 1.2e-16: the certified path alone refuses it (docs/models.md#two-paths)
row "multiplier=sin(pi\*l): lambda(l = 1) is 0, not finite, or outside" run --ref $Z "multiplier=sin(pi*l)"
row "multiplier: col 1: unknown name 'm' (the name is l)" run $Z "multiplier=m"
row "kappa=2 with multiplier=-l\*(l+1): the multiplier is the whole of L" run $Z kappa=2 "multiplier=-l*(l+1)"
row "kappa=-1: " run $Z kappa=-1
row "kappa=nan: " run --ref $Z kappa=nan
row "rotation=inf: " run $Z rotation=inf
row "N=6: sine-Euler needs N odd" run --system sine-euler --scheme isomp N=6
row "refine=41: out of range" run refine=41
# the work bound of a generation (docs/noise.md#refine): refused, never left to run for days
row "refine=40: 5 increments of 2^40 fine draws each are 5.5e+12 draws, more than the 2^38" noise --seed 1 --path 0 --components 1 --h 0.1 --steps 5 --refine 40
row "refine=37: 15 increments of 2^37 fine draws" run $P refine=37
row "T=1 is not an integer multiple of h" run T=1 h=0.3
row "level=3 needs T" run level=3
row "x0: 2 values given" run x0=1,2
row "x0: entry 1: 'nan': not a finite number" run x0=nan,0,0
row "steps=0: out of range" run --steps 0
row "steps=99999999999999999999: " run steps=99999999999999999999
row "unrecognized option '--frobnicate'" run --frobnicate
row "expected key=value" run justaword
# models (docs/models.md): parse errors name the key, the column and carry a caret
Mo="system=model algebra=so3 x0=1,0.5,0.2"
row "H: col 15: unknown name 'x4' (so3 has x1..x3" run $Mo "H=x1^2 + x2^2 + x4"
row "noise_H1: col 1: unknown function 'foo'" run $Mo "H=x1^2" "noise_H1=foo(x1)"
row "H: col 8: wrong arity: atan takes 1 argument" run $Mo "H=atan(x1, x2)"
row "H: col 6: non-finite constant '1e999'" run $Mo "H=x1 + 1e999"
row "H: col 8: log outside its domain (or not finite) in a constant subexpression" run $Mo "H=x1^2 + log(0)"
row "H: col 8: log outside its domain (or not finite) in a constant subexpression" run --ref $Mo "H=x1^2 + log(0)"
awk 'BEGIN { printf "system=model\nalgebra=so3\nx0=1,0,0\nH=x1"; for (i = 0; i < 1050; i++) printf " + 1"; print "" }' > big.cfg
row "H: 4202 characters, over the limit of 4095" run --config big.cfg
awk 'BEGIN { printf "system=model\nalgebra=so3\nx0=1,0,0\nH=x1"; for (i = 0; i < 1500; i++) printf "+1"; print "" }' > nodes.cfg
row "expression has more than 2048 nodes (the stated limit)" run --config nodes.cfg
row "system=model needs H= (the Hamiltonian)" run $Mo
row "system=model needs algebra=" run system=model "H=x1^2" x0=1,0,0
row "algebra=so5: unknown algebra" run system=model algebra=so5 "H=x1^2"
row "algebra=so(2): so(n) needs 3 <= n <= 64" run system=model "algebra=so(2)"
row "noise_H2 is given but noise_H1 is not" run $Mo "H=x1^2" "noise_H2=x2"
row "noise_H17: unknown key" run $Mo "H=x1^2" "noise_H17=x2"
row "param.a=abc: not a decimal number" run $Mo "H=x1^2" param.a=abc
row "param.1a: a parameter name is a letter" run $Mo "H=x1^2" param.1a=2
# a key given twice in one source, a parameter a coordinate shadows, one no expression uses
row "param.a: key given twice (param.a=1, then param.a=2)" run $Mo "H=a*x1^2" param.a=1 param.a=2
row "h: key given twice (h=0.1, then h=0.2)" run $P h=0.1 h=0.2
printf 'steps=4\nseed=3\nsteps=5\n' > twice.cfg
row "twice.cfg:3: steps: key given twice (steps=4 at twice.cfg:1, then steps=5)" run --config twice.cfg
row "param.x1: shadowed by the coordinate x1 of so3" run $Mo "H=x1^2" param.x1=2
row "system=model has no default initial state: give x0= or x0_file=" run system=model algebra=so3 "H=x1^2"
row "x0: 3 values given, the model state has 6" run system=model algebra=se3 "H=pi1^2" x0=1,0,0 --scheme tmk
row "stochastic Lie-Euler is not Stratonovich-consistent: a noise Hamiltonian is neither affine" run $Mo --scheme rkmk-le "H=x1^2" "noise_H1=x1*x2"
row "scheme isomp is not applicable to a model on se3" run system=model algebra=se3 "H=pi1^2" x0=1,0,0,0,0,1 --scheme isomp
row "m2.noise: 2 components per step, the problem has M = 1" run $Mo "H=x1^2" "noise_H1=x2^2" noise_file=m2.noise
# a key file's scheme= against the command line's, an unused parameter, slpi model
printf 'system=model\nalgebra=so3\nH=x1^2\nscheme=tmk\nx0=1,0,0\n' > sch.cfg
row "scheme=isomp is given, but sch.cfg sets scheme=tmk: a key file would override it" run --config sch.cfg --scheme isomp
row "param.q=1: no expression uses it (a misspelt name?)" run $Mo "H=x1^2" param.q=1
# a long value (a double's exact expansion: up to 767 digits) is cut, never the reason
long=0.$(printf '%0700d' 0 | tr 0 1)
row "param.q=$(printf '%.40s' $long)\.\.\.: no expression uses it (a misspelt name?); remove it" run $Mo "H=x1^2" param.q=$long
# the time t (docs/models.md#time): its name is no parameter's, t0 only where an expression
# reads t and only on a model; no scheme refuses t (docs/schemes.md#time), so no row of that kind
row "param.t: t is the time of the step" run $Mo "H=t*x1^2" param.t=2
row "t0=1: no Hamiltonian of the model reads t" run $Mo "H=x1^2" t0=1
row "t0=abc: not a decimal number" run $Mo "H=t*x1^2" t0=abc
row "t0: not a parameter of system rigid-body" run system=rigid-body t0=1
row "system=rigid-body is not a model" model system=rigid-body
row "--at 1,2: expected 3 comma-separated numbers" model $Mo "H=x1^2" --at 1,2
row "H: col 15: unknown name 'x4'" model $Mo "H=x1^2 + x2^2 + x4"
# files written from a model whose Hamiltonians were code (docs/models.md#callbacks) carry
# uncertified=callback ...: verify, golden, resume and run refuse them, saying why
"$slpi" run -q $Mo "H=x1^2" steps=3 -o model.tsv || exit 1
awk '/^# system=model$/ { print "# uncertified=callback H" } { print }' model.tsv > cb.tsv
row "cb.tsv:.*uncertified=callback H: these Hamiltonians were given as code.*cannot be re-verified" verifyx cb.tsv
printf 'uncertified=callback H,noise_H1\nsystem=model\n' > cb.cfg
row "uncertified=callback H,noise_H1: .*run it through the C or Python API with the same callbacks" run --config cb.cfg
awk '/^problem\tsystem=/ { print "problem\tuncertified=callback noise_H2" } { print }' \
  "$top/oracle/golden/rigid-body.isomp.golden" > cb.golden
row "uncertified=callback noise_H2: these Hamiltonians were given as code" goldenx cb.golden
row "prec=0: out of range" run --ref --prec 0
row "svi: fixed_iters is not supported by the ref path" run --preset iso/rigid-body/long steps=2 scheme=svi fixed_iters=2 --ref
row "not applicable\|N/A" run --system heavy-top --scheme isomp
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
row "empty: an empty file, not a checkpoint" resume $P --resume empty
printf '# slpi-checkpoint 1\narith fast\n' > ck; row "ck:1: slpi-checkpoint version 1: this slpi reads version 2" resume $P --resume ck
printf '# slpi-checkpoint 2\nsection counts 1 0\n' > ck; row "ck:2: expected 'section NAME LINES DIGEST'" resume $P --resume ck
row "good.noise:1: not a checkpoint" resume $P --resume good.noise
row "missing.ck: cannot open" resume $P --resume missing.ck
truncate -s 1073741825 big.ck   # sparse: one byte over the bound, read to find it (~2-10 s)
row "big.ck: larger than 1 GiB: not a checkpoint" resume $P --resume big.ck; rm -f big.ck
row "checkpoint-every -3: out of range" run $P --checkpoint ck2 --checkpoint-every -3
row "warm_start=1 is an ISOMP solver option, not tmk's" run $P warm_start=1 scheme=tmk
row "predictor=none is an ISOMP solver option, not tmk's" run $P predictor=none scheme=tmk
row "matmul=blas: the BLAS route encloses the products of ISOMP steps on euler-zeitlin and manakov only, not tmk on" run $P matmul=blas scheme=tmk --ref
row "matmul=blas: the BLAS route encloses the products of ISOMP steps on euler-zeitlin and manakov only, not isomp on rigid-body" run --system rigid-body --scheme isomp matmul=blas --steps 1 --ref
row "matmul=gemm3m: expected one of auto | arb | blas" run $P matmul=gemm3m --ref
row "predictor=fast" run $P predictor=fast
row "tol_scale=often" run $P tol_scale=often
# the noise command
row "--components 0: out of range \[1, 100000\]" noise --components 0 --seed 1 --path 0 --h 0.1 --steps 1
row "--h -1: out of range" noise --seed 1 --path 0 --components 1 --h -1 --steps 1
row "--seed xyz: not an unsigned 64-bit integer" noise --seed xyz --path 0 --components 1 --h 0.1 --steps 1
row "--h nan: not a finite number (NaN)" noise --seed 1 --path 0 --components 1 --h nan --steps 1
# other commands
row "unrecognized option '--frob'" list --frob
row "unknown command 'frobnicate'" frobnicate

# ---- file safety (core/output.c): nothing but a regular file this run created is ever
# removed or truncated; an output never replaces an input or another output.
# A private /dev/full (root can make one; else the system's, which a user cannot
# remove), a FIFO with a reader, a symbolic link, inputs that outputs must not touch.
mknod full c 1 7 2>/dev/null || ln -s /dev/full full
mkfifo fifo
ln -s target.tsv link; echo "keep me" > target.tsv
cp good.noise in.noise; printf '0.6 0 0.8\n' > in.x0; printf 'h=0.00390625\n' > in.cfg
keep="full"; row "missing.noise: cannot open" runx $P noise_file=missing.noise -o full
keep="full"; row "write error" runx $P -o full
keep="full"; row "full: write error" noisex --seed 1 --path 0 --components 3 --h 0.1 --steps 5 --output full
keep="link target.tsv"; row "missing.noise: cannot open" runx $P noise_file=missing.noise -o link
cat fifo > fifo.out & reader=$!
keep="fifo"; row "missing.noise: cannot open" runx $P noise_file=missing.noise -o fifo
kill $reader 2>/dev/null; wait $reader 2>/dev/null   # a run that never opened the FIFO leaves cat waiting
keep="in.noise"; row "--output in.noise is also the input noise_file .*/in.noise" runx $P noise_file=in.noise -o in.noise
keep="in.noise"; row "--output ./in.noise is also the input noise_file .*/in.noise" runx $P noise_file=in.noise -o ./in.noise
keep="in.x0"; row "--json in.x0 is also the input x0_file" runx $P x0_file=in.x0 -o o1.tsv --json in.x0
keep="in.cfg"; row "--checkpoint in.cfg is also the input --config" runx $P --config in.cfg -o o1.tsv --checkpoint in.cfg
keep="target.tsv"; row "--output link and --checkpoint target.tsv name the same file" runx $P -o link --checkpoint target.tsv
row "--output same.tsv and --json same.tsv name the same file" runx $P -o same.tsv --json same.tsv
row "--output same.tsv and --checkpoint ./same.tsv name the same file" runx $P -o same.tsv --checkpoint ./same.tsv
cp base.tsv res.tsv; "$slpi" run $P -q -o res.tsv --checkpoint res.ck --checkpoint-every 2 || exit 1
keep="res.ck"; row "--output res.ck is also the input --resume res.ck" runx $P -o res.ck --resume res.ck
# a checkpoint whose digest is right but whose state does not load (another build's state
# layout: one token fewer) is refused before the output is touched (resume rows check it)
awk '/^ntokens / { print "ntokens " $2 - 1; next } /^x / { x = $0; if (held) print held; held = x; next }
     /^end / { print "end"; exit } { print }' res.ck | sed '$d' > bad.ck
/usr/bin/python3 "$top/tests/ckpt-reseal.py" bad.ck
row "bad.ck: its 8 state tokens are not a valid fast path state" resume $P --resume bad.ck
row "adir: is a directory" runx $P -o adir
keep="full"; row "run: .*--checkpoint.*full\|full: write error" runx $P -o ck.tsv --checkpoint full --checkpoint-every 2
rm -f ck.tsv
# a report that cannot be written is an error, never a silent exit 0
keep="full"; out=full; row "standard output: write error" goldenx oracle-golden/rigid-body.isomp.golden
keep="full"; out=full; row "standard output: write error" verifyx base.tsv --max-steps 2
keep="full"; out=full; row "standard output: write error" runx $P
keep="full"; out=full; row "standard output: write error" noisex --seed 1 --path 0 --components 3 --h 0.1 --steps 5
# a report naming the file it reads is refused, not truncated (the input is kept whole)
cp oracle-golden/rigid-body.isomp.golden own.golden
keep="own.golden"; row "--output own.golden is also the input golden file own.golden" goldenx own.golden -o own.golden
keep="base.tsv"; row "--output base.tsv is also the input trajectory base.tsv" verifyx base.tsv -o base.tsv
keep="base.tsv"; row "--json base.tsv is also the input trajectory base.tsv" verifyx base.tsv --json base.tsv
keep="full"; row "full: write error" verifyx base.tsv --max-steps 2 -o full
# the declared precision, the statistics' options, NaN and infinite rows, pooled files of
# another problem (any key but path=, seed=, noise_file= differing)
row "unknown precision 'binary128': expected one of binary64, binary32, tf32, tf32-rz, bfloat16, binary16, u=VALUE" verifyx base.tsv --precision binary128
row "unknown precision 'u=1': expected one of" verifyx base.tsv --precision u=1
row "unknown precision 'u=0x': expected one of" verifyx base.tsv --unit-roundoff 0x
row "--alpha 0.7: out of range" verifyx base.tsv --alpha 0.7
row "--alpha 0: out of range" verifyx base.tsv --alpha 0
sed '$s/^\([^\t]*\t[^\t]*\t\)[^\t]*/\1nan/' base.tsv > nanrow.tsv; row "nanrow.tsv:[0-9]*: column 3 (x1): 'nan' is not a finite number" verifyx nanrow.tsv
sed '$s/^\([^\t]*\t[^\t]*\t\)[^\t]*/\1-inf/' base.tsv > infrow.tsv; row "infrow.tsv:[0-9]*: column 3 (x1): '-inf' is not a finite number" verifyx infrow.tsv
sed 's/^# amp=.*/# amp=0.101/' base.tsv > otheramp.tsv; row "otheramp.tsv: another problem than base.tsv (pooled files must differ only in path=, seed=, noise_file= or x0_file=): 'amp=0.10100000000000001' against 'amp=0.10000000000000001'" verifyx base.tsv otheramp.tsv --global
# pooled files on one noise path (the statistics would count it twice): the same seed= and
# path=, or one noise file under two spellings of its name (t-verify-paths: copies of it)
cp base.tsv again.tsv; row "again.tsv: the same path as base.tsv (the same initial state and the same increments, whatever the names of the files, their noise files, seed= and path= say): pooled files must run distinct paths" verifyx base.tsv again.tsv --local
"$slpi" noise $PL steps=5 -o nf.noise 2> /dev/null || exit 1
sed 's/^# seed=.*/# seed=file\n# noise_file=nf.noise/' base.tsv > nf1.tsv; sed 's/^# seed=.*/# seed=file\n# noise_file=.\/nf.noise/' base.tsv > nf2.tsv
row "nf2.tsv: the same path as nf1.tsv (the same initial state and the same increments" verifyx nf1.tsv nf2.tsv --local
# non-regular inputs, CRLF, BOM, subnormal values, sizes that writer and reader share
row "/dev/zero: not a regular file (a character device)" verify /dev/zero
# an allocation failure is named as such (a 2.2 GB line once read as 'no column line'):
# a 2 GB column line (a sparse file: no disk) under 1 GB of address space (not under
# AddressSanitizer). Not less: OpenBLAS reserves its buffers as it loads, before main,
# and when that fails it retries forever (Debian 13's 0.3.29 with one thread under
# 400 MB; Debian 12's 0.3.21 with its default two threads under 100 MB, the old cap,
# which only CI's OPENBLAS_NUM_THREADS=1 let pass).
if [ "$memcap" != unlimited ]; then
  { grep '^#' base.tsv; printf 'step\tt\t'; } > longline.tsv && truncate -s +2G longline.tsv && echo >> longline.tsv
  memcap=1048576; row "longline.tsv:[0-9]*: out of memory reading the file" verifyx longline.tsv
  memcap=8388608; rm -f longline.tsv
fi
row "adir: not a regular file (a folder)" run $P noise_file=adir
sed 's/$/\r/' good.noise > crlf.noise; row "crlf.noise:1: CRLF line end" run $P noise_file=crlf.noise
printf '\357\273\277' | cat - good.noise > bom.noise; row "bom.noise:1: starts with a UTF-8 byte-order mark" run $P noise_file=bom.noise
printf '\357\273\277h=0.1\n' > bom.cfg; row "bom.cfg:1: starts with a UTF-8 byte-order mark" run --config bom.cfg
row "h=1e-320: subnormal" run h=1e-320
row "amp=4e-320: subnormal" run amp=4e-320
row "h=1e-400: underflows to 0" run h=1e-400
printf '0.5 1e-310 0.5\n' > sub.x0; row "sub.x0:1: '1e-310': subnormal" run $P x0_file=sub.x0
row "trunc_ell=2x: not a finite number (trailing 'x')" run trunc_ell=2x
row "maxit=1e3: not an integer" run maxit=1e3
# save_at: a time off the step grid names the grid times nearest it; decreasing, past T, not a number
row "save_at: t = 0.005 is not on the step grid of h = 0.00390625: the nearest grid times are 0.00390625 and 0.0078125" run $P save_at=0.005
row "save_at: the times must increase: 0.00390625 after 0.0078125" run $P save_at=0.0078125,0.00390625
row "save_at: t = 1 is outside the run, 0..T = 0.01953125 (5 steps)" run $P save_at=1
row "save_at: '1e' (time 2) is not a number" run $P save_at=0.00390625,1e
sed '9s/.*/# steps 2147483648/' good.noise > big.noise; row "big.noise:9: bad step count (1..2^30)" run $P noise_file=big.noise
sed '4s/.*/# components 100000/; 9s/.*/# steps 4096/' good.noise > wide.noise
row "wide.noise:9: 4096 steps x 100000 components: more than the 2^28 increments" run $P noise_file=wide.noise
row "--steps 2147483648 x --components 1: more than the 2^30 steps" noise --seed 1 --path 0 --components 1 --h 0.1 --steps 2147483648
row "--steps 4096 x --components 100000: more than the 2^30 steps or 2^28 increments" noise --seed 1 --path 0 --components 100000 --h 0.1 --steps 4096
# initial states off their manifold (tolerance 1e-10, `slpi run --help`)
row "x0: R is not a rotation" run --preset svi/heavy-top/case3 --steps 2 x0=0,0,1,0,0,1,2,0,0,0,2,0,0,0,2
row "x0: |Gamma| = 2: the direction of gravity must be a unit vector" run --preset svi/heavy-top/case3 --steps 2 x0=0,0,1,0,0,2,1,0,0,0,1,0,0,0,1
row "x0: |gamma| = 0.70710678118654757" run --system heavy-top --scheme tmk --steps 2 x0=0,0,1,0,0.5,0.5
row "x0: R is not a rotation" run --preset svi/rigid-body/noether track_R=1 --steps 2 x0=1,0,0,1,0,0,0,1,0,0,0,-1
printf '1e-3 0 0 0 0 0 0 0 0\n' > tr.x0; row "tr.x0: the trace of X is 0.001 i: an su(3) state is traceless" run --system euler-zeitlin --scheme isomp N=3 ic_lmax=2 --steps 2 x0_file=tr.x0
# golden files: every checkpoint and invariant the header promises must be there
G=oracle-golden/rigid-body.isomp.golden
awk '/^checkpoint\t8\t/ { skip = 1 } /^checkpoint\t16\t/ { skip = 0 } !skip' $G > nock.golden
row "nock.golden:4: the header promises a checkpoint at step 8" golden nock.golden
grep -v '^inv	H0	' $G > noinv.golden; row "noinv.golden:5: the header promises the invariant 'H0'" golden noinv.golden
grep -v '^# invariants=' $G > nohead.golden; row "nohead.golden: no '# invariants=' header line" golden nohead.golden
sed '$d' $G | awk '/^checkpoint\t16\t/ { exit } 1' > cut.golden; echo end >> cut.golden
row "cut.golden:4: the file holds 2 checkpoints, the header promises 3\|cut.golden:4: .*promises a checkpoint at step 16" golden cut.golden
# ensemble: its options and grids
E="--preset iso/rigid-body/trajectories steps=3 --paths 2"
row "--paths 0: out of range" ensemble $E --paths 0
row "--save-every 0: out of range" ensemble $E --save-every 0
row "--save-every 2 with save_at=0.0078125: give one of the two" ensemble $E --save-every 2 save_at=0.0078125
row "--threads 0: out of range" ensemble $E --threads 0
row "--first-path 4294967295 --paths 2: paths beyond 2^32-1" ensemble $E --first-path 4294967295
row "--grid param.I1: expected KEY=V1,V2" ensemble $E --grid param.I1
row "--grid param.I1: an empty value" ensemble $E --grid param.I1=1,,2
row "--grid h: key given twice" ensemble $E --grid h=0.1,0.2 --grid h=0.3
row "frob: unknown key" ensemble $E --grid frob=1,2
row "h=abc: not a finite number" ensemble $E --grid h=0.1,abc
row "steps: key given twice" ensemble $E --grid steps=2,4
row "param.I9=1: no expression uses it" ensemble --config $top/models/rigid-body.slpi steps=3 --paths 2 --grid param.I9=1,2
# strict options: converge, props, run, noise
C="--preset iso/rigid-body/strong --paths 4 --levels 2..3 --ref 5"
# path=, which the commands that number their paths themselves would ignore; ensemble's
# --path, which getopt took for --paths
row "path=3: converge runs the noise paths --path0 P" converge $C path=3
row "path=3: mlmc numbers its noise paths itself" mlmc --preset iso/rigid-body/weak --rmse 0.1 path=3
row "--path 3: an ensemble runs the noise paths --first-path" ensemble $E --path 3
row "--threads abc: not an integer" converge $C --threads abc
"$slpi" converge $C --checkpoint conv.ck > /dev/null 2>&1
keep="conv.ck"; row "--output conv.ck and --checkpoint conv.ck name the same file" converge $C -o conv.ck --checkpoint conv.ck
keep="conv.ck"; row "--output conv.ck is also the input --resume conv.ck" converge $C --resume conv.ck -o conv.ck
keep="conv.ck"; row "--json conv.ck is also the input --resume conv.ck" converge $C --resume conv.ck --json conv.ck
keep="full"; out=full; row "standard output: write error" convergex $C
keep="full"; row "full: write error" converge $C --json full
row "--threads -1: out of range \[1, 256\]" converge $C --threads -1
row "--threads 100000: out of range \[1, 256\]" converge $C --threads 100000
row "--boot -5: out of range" converge $C --boot -5
row "--boot 1000001: out of range \[0, 1000000\]" converge $C --boot 1000001
# ... and the help's upper limit itself runs (it was once refused)
n=$((n+1)); "$slpi" converge $C --boot 1000000 > /dev/null 2> msg ||
  { echo "t-bad-inputs: FAIL #$n: --boot 1000000 (the help's limit) refused: $(head -c 300 msg)" >&2; fail=1; }
row "--ref 5xyz: not an integer" converge $C --ref 5xyz
row "--batches 99999999999: out of range \[1, 65536\]" converge $C --batches 99999999999
row "--paths 1e6: not an integer" converge $C --paths 1e6
# the runtime's thread count is capped like --threads (65536 crashed the runtime, 20000 took 10 s)
export OMP_NUM_THREADS=65536
row "converge: the OpenMP default (OMP_NUM_THREADS) is 65536 threads: out of range \[1, 256\]" converge $C
row "verify --local: the OpenMP default (OMP_NUM_THREADS) is 65536 threads: out of range \[1, 256\]" verifyx base.tsv --local
export OMP_NUM_THREADS=20000
row "converge: the OpenMP default (OMP_NUM_THREADS) is 20000 threads" converge $C
unset OMP_NUM_THREADS
row "--threads 257: out of range \[1, 256\]" verifyx base.tsv --local --threads 257
row "--ref 30: the noise hierarchy of M = 3 noises over 2^31 fine steps needs 48 GiB per thread" converge $C --ref 30
# the exact weak reference exp(-amp^2 T/2) is E x_1(T) of the so(3) oracle from x0 = e_1
row "the exact reference is E x_1(T): it needs the functional x1 (--phi x1)" converge --preset svi/so3/weak-exact --kind weak --exact --levels 2..3 --ref 5 --paths 8
row "an exact reference needs the so(3) oracle (.*x0=1,0,0" converge --preset svi/so3/weak-exact x0=0,1,0 --kind weak --exact --phi x1 --levels 2..3 --ref 5 --paths 8
# the claims registry: a misspelt check word or argument is refused at load (file:line and
# the nearest valid word), before any run and before the report folder is made
# typo FROM TO PATTERN: the registry with its first FROM (a sed pattern) made TO is refused
# at its line, with PATTERN after "claims-typo.txt:LINE: "
typo() {
  sed "0,/$1/s//$2/" "$top/reports/claims.txt" > claims-typo.txt
  l=$(grep -n -F "$2" claims-typo.txt | head -1 | cut -d: -f1)
  keep="claims-typo.txt"; row "claims-typo.txt:$l: $3" audit --claims claims-typo.txt --out aud-typo
}
typo '| drift case ' '| drift kase ' "check 'drift kase .*(nearest: case)"
[ -e aud-typo ] && { echo "t-bad-inputs: FAIL: a refused registry left its report folder" >&2; fail=1; }
typo '| slope strong ' '| slope stronk ' "check 'slope stronk .*(nearest: strong)"
typo '| growth C1_dev ' '| growht C1_dev ' "check 'growht .*unknown check word 'growht' (nearest: growth)"
# a check whose outcome cannot differ between runs: a misspelt diagnostic, a reversed window
typo '| max C1_dev <= 1e-12 | T=100' '| max C1_dve <= 1e-12 | T=100' "check 'max C1_dve <= 1e-12': 'C1_dve' is not a diagnostic of this case's run (nearest: C1_dev)"
typo '| growth C1_dev 0.8 1.2 ' '| growth C1_dev 1.2 0.8 ' "check 'growth C1_dev 1.2 0.8': the window \\[1.2, 0.8\\] is reversed (nearest valid: 0.8 1.2)"
[ -e aud-typo ] && { echo "t-bad-inputs: FAIL: a refused registry left its report folder" >&2; fail=1; }
row "--seed-offset abc: not an unsigned 64-bit integer" audit --seed-offset abc --out aud-typo
# a report folder whose files' paths would not fit in 4096 bytes: refused before it is made
row "--out: the report folder's path is 4001 bytes, more than 4000" audit --only I15 --out "aud-long/$(printf '%03992d' 0)"
[ -e aud-long ] && { echo "t-bad-inputs: FAIL: a refused report folder was made" >&2; fail=1; }
row "--cases abc: not an integer" props --cases abc
# an empty output name is refused before any work (it was found only at the end, or read
# as standard output; --case '' wrote a hidden ./.golden)
row "--output '': an empty file name (give a file, or - for standard output)" runx --steps 2 -o ""
row "--json '': an empty file name" runx --steps 2 --json "" -o /dev/null
row "--output '': an empty file name" noisex --seed 1 --components 3 --h 0.125 --steps 2 -o ""
row "--output '': an empty file name" convergex --preset iso/rigid-body/weak --kind weak --levels 2..3 --ref 4 --paths 10 -o ""
row "--output '': an empty file name" ensemble --preset iso/rigid-body/trajectories --paths 2 -o ""
row "'': an empty file name" goldenx -o ""
row "--output '': an empty file name" verifyx base.tsv -o ""
row "--out '': an empty folder name" audit --out ""
printf 'system=model\nalgebra=so3\nH=x1^2/2+x2^2/4+x3^2/6\nnoise_H1=x1\nsteps=2\nx0=1,0.5,0\n' > own.slpi
row "--case '': an empty case name" golden --write --config own.slpi --dir . --case ""
[ -e .golden ] && { echo "t-bad-inputs: FAIL: golden --case '' wrote a hidden .golden" >&2; fail=1; }
# a selection of nothing is refused, never a pass over nothing (oracle/README.md#rows)
row "the selection holds no group" props --property poisson --system heavy-top --scheme tmk --cases 2
row "the selection holds no group" props --property ref-fast --fast-only --system rigid-body --cases 2
mkdir -p nocases
row "--regressions nocases: no .case file there: nothing to replay" props --regressions nocases
row "--seed 1x: not an unsigned 64-bit integer" props --seed 1x
export SLPI_TEST_SEED=oops; row "SLPI_TEST_SEED=oops: not an unsigned 64-bit integer" props --list; unset SLPI_TEST_SEED
row "--first -1: not an unsigned 64-bit integer" noise --seed 1 --path 0 --components 1 --h 0.1 --steps 1 --first -1
row "--path 4294967296: out of range" noise --seed 1 --path 4294967296 --components 1 --h 0.1 --steps 1

# a run stopped by SIGTERM before it finishes keeps what it wrote, as Ctrl-C does (exit
# 130, docs/conventions.md#interrupt), and leaves no temporary file
n=$((n+1))
"$slpi" run --preset iso/rigid-body/trajectories --steps 50000000 output_every=1000 -q -o killed.tsv & k=$!
while ! ls -A | grep -q '^\.killed\.tsv\.slpi-' && kill -0 $k 2>/dev/null; do sleep 0.05; done
kill -TERM $k; wait $k; rk=$?
if [ $rk -ne 130 ] || ls -A | grep -q '^\.killed' || ! head -1 killed.tsv 2> /dev/null | grep -q '^# '; then
  echo "t-bad-inputs: FAIL #$n: SIGTERM: exit $rk (want 130), left: $(ls -A | grep killed)" >&2
  fail=1
fi
rm -f killed.tsv

# two runs writing one -o at once: the second to open it is refused (exit 2) unless the
# first had finished (both exit 0), and the file is one whole run's output (the writer's
# lock: tests/cli/t-writers.sh)
"$slpi" run $PL --steps 20000 seed=1 -q -o one.tsv && "$slpi" run $PL --steps 20000 seed=2 -q -o two.tsv || exit 1
"$slpi" run $PL --steps 20000 seed=1 -q -o both.tsv 2> /dev/null & a=$!
"$slpi" run $PL --steps 20000 seed=2 -q -o both.tsv 2> /dev/null & b=$!
wait $a; ra=$?; wait $b; rb=$?; n=$((n+1))
case "$ra $rb" in "0 0"|"0 2"|"2 0") ok=1 ;; *) ok=0 ;; esac
if [ $ok -eq 0 ] || ! { cmp -s both.tsv one.tsv || cmp -s both.tsv two.tsv; }; then
  echo "t-bad-inputs: FAIL #$n: concurrent writers: exit $ra and $rb, the file is neither run's output" >&2
  fail=1
fi

# a resume while the run that writes the checkpoint still lives is refused: the writer
# holds a lock on its output from the first checkpoint to its end (stopped here at once,
# so that it cannot finish first); the writer then completes with its whole output
"$slpi" run $PL --steps 50000 seed=3 -q -o ref3.tsv || exit 1
"$slpi" run $PL --steps 50000 seed=3 -q -o live.tsv --checkpoint live.ck --checkpoint-every 100 & w=$!
while [ ! -s live.ck ] && kill -0 $w 2>/dev/null; do sleep 0.02; done
kill -STOP $w 2>/dev/null
if kill -0 $w 2>/dev/null; then
  keep="live.tsv live.ck"; row "live.tsv: in use by another process (locked)" runx $PL --steps 50000 seed=3 -q -o live.tsv --resume live.ck
  # a fresh run onto it is refused exactly so (it would rename a new file over it)
  keep="live.tsv live.ck"; row "live.tsv: in use by another process (locked): not written" runx $PL --steps 50 seed=4 -q -o live.tsv
  kill -CONT $w; wait $w; rw=$?; n=$((n+1))
  if [ $rw -ne 0 ] || ! cmp -s live.tsv ref3.tsv; then
    echo "t-bad-inputs: FAIL #$n: the checkpointing writer: exit $rw, its output differs from an uninterrupted run's" >&2
    fail=1
  fi
else
  wait $w; echo "t-bad-inputs: note: the checkpointing writer finished before it could be stopped: lock row not run"
fi

echo "t-bad-inputs: $n malformed inputs"
[ $n -ge 40 ] || { echo "t-bad-inputs: FAIL: fewer than 40 rows" >&2; fail=1; }
exit $fail
