#!/bin/sh
# t-cli.sh — the `slpi` command: --help on every command (exit 0), --version, and bad
# input on the command line and in key files: each rejected with exit 2 and a message
# naming the problem; 64-bit keys in hex are their decimal values (run and noise, byte for byte).
set -u
slpi=${SLPI_BIN:-./build/slpi}
fail=0; n=0
tmp=$(mktemp -d)
# expect CODE PATTERN ARGS...: run slpi ARGS, want exit CODE and PATTERN in stderr+stdout
expect() {
  code=$1; pat=$2; shift 2; n=$((n+1))
  "$slpi" "$@" >"$tmp/out" 2>&1; rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -q -- "$pat" "$tmp/out"; then
    echo "t-cli: FAIL: slpi $* -> exit $rc (want $code), output: $(head -c 300 "$tmp/out") (want /$pat/)" >&2
    fail=1
  fi
}
expect 0 "usage: slpi" --help
expect 0 "slpi 0" --version
expect 0 "mpfr=" --version
expect 2 "unknown command" frobnicate
expect 2 "usage" 
expect 0 "usage: slpi list" list --help
expect 0 "rigid-body" list
expect 0 "iso/rigid-body/long" list
expect 0 "trunc_ell" list --keys
expect 2 "unexpected argument" list extra
for c in run noise; do
  if "$slpi" --help | grep -q "^  $c "; then expect 0 "usage: slpi $c" $c --help; fi
done
if "$slpi" --help | grep -q "^  run "; then
  expect 2 "system=rigid-bodies: unknown system" run --system rigid-bodies
  expect 2 "scheme=rk4: unknown scheme" run --scheme rk4
  expect 2 "h=-0.1: out of range" run --h -0.1
  expect 2 "h=abc: not a finite number" run h=abc
  expect 2 "steps=2.5: not an integer" run steps=2.5
  expect 2 "steps: missing value" run steps=
  expect 2 "frob: unknown key" run frob=1
  expect 2 "expected key=value" run justaword
  expect 2 "not applicable to system heavy-top" run --system heavy-top --scheme isomp
  expect 2 "N=4: sine-Euler needs N odd" run --system sine-euler --scheme tmk N=4
  expect 2 "not a parameter of system rigid-body" run N=12
  expect 2 "prec=0: out of range" run --prec 0
  expect 2 "unknown preset" run --preset nope/nope
  expect 2 "cannot open" run --config "$tmp/missing.cfg"
  printf 'system=rigid-body\nh=0.1\ninertia=1,2\n' > "$tmp/bad.cfg"
  expect 2 "bad.cfg:3: inertia=1,2: expected 3" run --config "$tmp/bad.cfg"
  expect 2 "cannot write" run --steps 1 -o /nonexistent/dir/out.tsv
  # preset, system and scheme on the command line all apply before a --config file
  printf 'h=0.01\nsteps=3\n' > "$tmp/ok.cfg"
  expect 0 "# scheme=tmk" run -q --preset iso/rigid-body/trajectories --system heavy-top --scheme tmk --config "$tmp/ok.cfg"
  expect 0 "# steps=3" run -q --preset iso/rigid-body/trajectories --system heavy-top --scheme tmk --config "$tmp/ok.cfg"
  # every other key given beside --config overrides the file's (docs/models.md#keys)
  expect 0 "^# steps=5\$" run -q --config "$tmp/ok.cfg" steps=5
  expect 0 "^# h=0.015625\$" run -q h=0.015625 --config "$tmp/ok.cfg"
  # 64-bit keys in 0x/0X hex, any case, are their decimal values: the run (header and
  # trajectory) and the noise are byte for byte those of the decimal keys; "0x" alone and a
  # non-hex digit (0xg1, never read as 0) are refused
  for pair in "0x10 0X1f 16 31" "0x0 0x0 0 0" "0xFFFFFFFFFFFFFFFF 0XaB 18446744073709551615 171"; do
    set -- $pair; n=$((n+1))
    "$slpi" run -q --system rigid-body --scheme isomp steps=20 seed=$1 path=$2 -o "$tmp/hex.tsv" &&
      "$slpi" run -q --system rigid-body --scheme isomp steps=20 seed=$3 path=$4 -o "$tmp/dec.tsv" &&
      cmp -s "$tmp/hex.tsv" "$tmp/dec.tsv" && grep -q "^# seed=$3\$" "$tmp/hex.tsv" && grep -q "^# path=$4\$" "$tmp/hex.tsv" ||
      { echo "t-cli: FAIL: slpi run seed=$1 path=$2 is not the run of seed=$3 path=$4" >&2; fail=1; }
    "$slpi" noise --seed $1 --path $2 --components 3 --h 0.125 --steps 8 > "$tmp/hex.noise" &&
      "$slpi" noise --seed $3 --path $4 --components 3 --h 0.125 --steps 8 > "$tmp/dec.noise" &&
      cmp -s "$tmp/hex.noise" "$tmp/dec.noise" ||
      { echo "t-cli: FAIL: slpi noise --seed $1 --path $2 is not the noise of --seed $3 --path $4" >&2; fail=1; }
  done
  # one reading of every number (docs/conventions.md#numbers): leading zeros are decimal
  # and 0x is hex for every integer, key or option alike: --sample-seed 010 draws the
  # sample of 10 (the seed printed is 10), seed=010 runs seed 10, --steps/steps= and
  # --path/path= 010 and 0x10 are 10 and 16
  "$slpi" run -q --system rigid-body --scheme isomp steps=40 -o "$tmp/forty.tsv"
  for pair in "010 10" "0x10 16" "0X0a 10" "00 0"; do
    set -- $pair; n=$((n+1))
    "$slpi" verify --local --sample 5 --sample-seed $1 "$tmp/forty.tsv" > "$tmp/a.txt" 2>&1
    "$slpi" verify --local --sample 5 --sample-seed $2 "$tmp/forty.tsv" > "$tmp/b.txt" 2>&1
    cmp -s "$tmp/a.txt" "$tmp/b.txt" && grep -q "a sample of 5 rows, seed $2)" "$tmp/a.txt" ||
      { echo "t-cli: FAIL: verify --sample-seed $1 is not --sample-seed $2: $(grep sample "$tmp/a.txt")" >&2; fail=1; }
    [ "$2" = 0 ] && continue
    "$slpi" run -q --system rigid-body --scheme isomp --steps $1 seed=$1 path=$1 -o "$tmp/forms.tsv" &&
      "$slpi" run -q --system rigid-body --scheme isomp steps=$2 seed=$2 --path $2 -o "$tmp/dec.tsv" &&
      cmp -s "$tmp/forms.tsv" "$tmp/dec.tsv" ||
      { echo "t-cli: FAIL: --steps/seed=/path= $1 is not $2" >&2; fail=1; }
  done
  expect 2 "seed=0x: not an unsigned 64-bit integer" run --steps 1 seed=0x
  expect 2 "path=0xg1: not an unsigned 64-bit integer" run --steps 1 path=0xg1
fi
rm -rf "$tmp"
echo "t-cli: $n commands checked"
exit $fail
