#!/bin/sh
# t-cli.sh — the `slpi` command: --help on every command (exit 0), --version, and bad
# input on the command line and in key files: each rejected with exit 2 and a message
# naming the problem.
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
fi
rm -rf "$tmp"
echo "t-cli: $n commands checked"
exit $fail
