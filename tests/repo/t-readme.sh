#!/bin/sh
# t-readme.sh — the README is the front door: its set-up block holds exactly the two
# commands `make demo` and `make check`, every `make <target>` it mentions is a target of
# the GNUmakefile, .ci/run calls the same test command, and every `./build/slpi ...`
# command of the tour runs as written (exit 0).
set -u
fail=0
note() { echo "t-readme: FAIL: $*" >&2; fail=1; }
slpi=${SLPI_BIN:-./build/slpi}

setup=$(awk '/^## Set-up/{s=1} s&&/^```sh/{b=1;next} b&&/^```/{exit} b' README.md | sed 's/#.*//; s/[[:space:]]*$//' | grep -v '^$')
[ "$setup" = "make demo
make check" ] || note "set-up block is not exactly 'make demo' and 'make check': $setup"

for t in $( { grep -o '`make [a-z][a-z0-9-]*' README.md; grep -o '^make [a-z][a-z0-9-]*' README.md; } | awk '{print $2}' | sort -u); do
  grep -qE "^$t:" GNUmakefile || note "README mentions 'make $t' but the GNUmakefile has no target $t"
done
grep -q "make check" .ci/run || note ".ci/run does not run 'make check'"

n=0
tmp=$(mktemp)
grep -E '^\./build/slpi ' README.md | sed 's/[[:space:]]*#.*$//' > "$tmp"
mkdir -p build
while IFS= read -r cmd; do
  n=$((n+1))
  run=$(printf '%s' "$cmd" | sed "s#^\./build/slpi#$slpi#")
  if ! sh -c "$run" >/dev/null 2>"$tmp.err"; then
    note "README command failed: $cmd ($(head -c 300 "$tmp.err"))"
  fi
done < "$tmp"
rm -f "$tmp" "$tmp.err"
[ "$n" -ge 5 ] || note "found only $n slpi commands in the README tour"
echo "t-readme: $n README commands run, set-up block and make targets checked"
exit $fail
