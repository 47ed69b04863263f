#!/bin/sh
# t-noise-cli.sh — `slpi noise` (cli/cmd-noise.c): usage errors exit 2 with a message;
# output is byte-identical between runs and between stdout and --output; --first J
# continues the same stream; a written file passes --check; malformed noise files (wrong
# column count, NaN, truncated, wrong level, ...) are rejected with file:line and exit 2,
# by `slpi noise --check` and by `slpi run --noise-file`, and a run fed by a noise file
# equals the run on the generator; a file's own seed, path and refine must be the
# problem's, or seed=file takes them, and the header records them with the file's digest; on a truncating problem the run's JSON summary counts as
# clipped exactly the file's values at +-D.
cd "$(dirname "$0")/../.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
dir="${SLPI_BUILD:-build}/t-noise-cli"
rm -rf "$dir"; mkdir -p "$dir"
fail=0
bad() { echo "t-noise-cli: FAIL: $*"; fail=1; }

# expect CODE PATTERN CMD...: exit status CODE and PATTERN (grep -E) in stderr
expect() {
  code=$1; pat=$2; shift 2
  "$@" >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq "$code" ] || bad "$* -> exit $rc, expected $code ($(head -c 200 "$dir/err"))"
  [ -z "$pat" ] || grep -Eq -- "$pat" "$dir/err" || bad "$*: stderr lacks '$pat': $(head -c 200 "$dir/err")"
}

base="--seed 5 --path 2 --components 3 --h 0x1p-6"
expect 0 "" "$slpi" noise --help
expect 2 "required" "$slpi" noise --seed 5 --path 2 --h 0.1 --steps 3
expect 2 "--components" "$slpi" noise $base --steps 3 --components 0
expect 2 "--h" "$slpi" noise --seed 5 --path 2 --components 1 --h -1 --steps 3
expect 2 "--seed" "$slpi" noise --seed 12x --path 2 --components 1 --h 0.1 --steps 3
expect 2 "--path" "$slpi" noise --seed 1 --path 4294967296 --components 1 --h 0.1 --steps 3
expect 2 "unknown" "$slpi" noise $base --steps 3 --frobnicate
expect 2 "--truncate" "$slpi" noise $base --steps 3 --truncate maybe
expect 2 "0 < h < 1" "$slpi" noise --seed 1 --path 0 --components 1 --h 1 --steps 3 --truncate on
expect 2 "--format" "$slpi" noise $base --steps 3 --format json

# determinism and --output
"$slpi" noise $base --steps 40 --refine 2 --truncate on >"$dir/a" 2>/dev/null
"$slpi" noise $base --steps 40 --refine 2 --truncate on --output "$dir/b" 2>/dev/null
cmp -s "$dir/a" "$dir/b" || bad "stdout and --output differ"
"$slpi" noise $base --steps 40 --refine 2 --truncate on 2>/dev/null | cmp -s - "$dir/a" || bad "two runs differ"
expect 0 "" "$slpi" noise --check "$dir/a" --components 3 --h 0x1p-6 --steps 40
grep -q "ok: 40 steps of 3" "$dir/out" || bad "--check did not report the file"
# --first J continues the stream: rows of --first 30 --steps 10 = rows 31..40
"$slpi" noise $base --steps 10 --first 30 --format bits >"$dir/c"
"$slpi" noise $base --steps 40 --format bits | tail -n 10 | cmp -s - "$dir/c" || bad "--first is not the same stream"

# malformed files, each rejected with file:line and exit 2
f="$dir/a"
sed '12s/\t[^\t]*$//' "$f" >"$dir/cols";   expect 2 "cols:12: wrong column count" "$slpi" noise --check "$dir/cols"
sed '13s/^[^\t]*/nan/' "$f" >"$dir/nan";    expect 2 "nan:13: value is not finite" "$slpi" noise --check "$dir/nan"
head -n 30 "$f" >"$dir/short";             expect 2 "short:30: truncated file" "$slpi" noise --check "$dir/short"
sed '1s/1$/9/' "$f" >"$dir/ver";            expect 2 "ver:1: unsupported" "$slpi" noise --check "$dir/ver"
sed '14s/\t\([-0-9]\)/\t9\1/4' "$f" >"$dir/dec"; expect 2 "dec:14: hex and decimal" "$slpi" noise --check "$dir/dec"
expect 2 "wrong level" "$slpi" noise --check "$f" --h 0x1p-7
expect 2 "components, expected 2" "$slpi" noise --check "$f" --components 2
expect 2 "40 steps, expected at least 41" "$slpi" noise --check "$f" --steps 41
expect 2 "cannot open" "$slpi" noise --check "$dir/missing"

# a run fed by the file equals the run on the generator; a bad file stops it with file:line
run="--system rigid-body --scheme isomp --h 0x1p-6 --steps 40 -q"
own="--seed 5 --path 2 refine=2"   # the file's own (docs/noise.md#files)
"$slpi" run $run $own -o "$dir/gen.tsv" || bad "run on the generator failed"
"$slpi" run $run $own --noise-file "$f" -o "$dir/file.tsv" || bad "run on the noise file failed"
[ "$(grep -v '^#' "$dir/gen.tsv")" = "$(grep -v '^#' "$dir/file.tsv")" ] || bad "run on the file differs from the generator"
expect 2 "nan:13: value is not finite" "$slpi" run $run $own --noise-file "$dir/nan" -o "$dir/x.tsv"
expect 2 "cols:12: wrong column count" "$slpi" run $run $own --noise-file "$dir/cols" -o "$dir/x.tsv"
expect 2 "short:30: truncated file" "$slpi" run $run $own --noise-file "$dir/short" -o "$dir/x.tsv"
expect 2 "a: wrong level: step size 0.015625 .*the problem has h = 0.0078125" "$slpi" run --system rigid-body --scheme isomp --h 0x1p-7 --steps 40 -q $own --noise-file "$f" -o "$dir/x.tsv"
fabs="$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"   # a relative path is recorded absolute (docs/models.md#paths)
# the file's own seed, path and refine must be the problem's: each differing one refused
# with both values and the file; seed=file takes all three from the file
for d in "seed 5 6 --seed 6 --path 2 refine=2" "path 2 3 --seed 5 --path 3 refine=2" "refine 2 0 --seed 5 --path 2"; do
  set -- $d; key=$1 mine=$2 theirs=$3; shift 3
  expect 2 "noise_file=$fabs: the file's own $key is $mine, the problem has $key=$theirs " "$slpi" run $run "$@" --noise-file "$f" -o "$dir/x.tsv"
done
# seed=file: the generator's rows, and the header records the file's own seed, path,
# refine and digest (FNV-1a 64 of its bytes, computed here by python3); verify reads the
# digest back, so the file edited since (a comment added: the same increments) is refused
fnv() { /usr/bin/python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read(): h = ((h ^ b) * 0x100000001b3) % 2**64
print(h)' "$1"; }
fa=$(cd "$dir" && pwd)/sf.noise
cp "$f" "$fa"
"$slpi" run $run seed=file --noise-file "$fa" -o "$dir/sf.tsv" || bad "run with seed=file failed"
[ "$(grep -v '^#' "$dir/gen.tsv")" = "$(grep -v '^#' "$dir/sf.tsv")" ] || bad "seed=file: the rows differ from the generator's"
for kv in seed=5 path=2 refine=2 "noise_digest=$(fnv "$fa")"; do
  grep -qx "# $kv" "$dir/sf.tsv" || bad "seed=file: the header lacks '# $kv': $(grep -E '^# (seed|path|refine|noise)' "$dir/sf.tsv" | tr '\n' ' ')"
done
expect 0 "" "$slpi" verify -q "$dir/sf.tsv"
sed -i '10a # a comment' "$fa"
expect 2 "noise_file=$fa: the file's digest is $(fnv "$fa"), the problem records noise_digest=$(fnv "$f"): the file changed" "$slpi" verify -q "$dir/sf.tsv"

# --preset/--config: exactly the increments the problem consumes (its seed, path, M, h,
# steps, refine, truncation): a run fed by that file writes the generator run's rows, also
# on a truncating problem whose increments are clipped (16 of 6000 at h = 0.1) and with
# refine
for pre in "iso/rigid-body/trajectories steps=64 seed=9 path=3" "iso/rigid-body/trajectories h=0.1 steps=2000 truncate=on" \
           "iso/rigid-body/weak level=4 refine=2" "rkmk/heavy-top/stoch-421-realization steps=32" \
           "iso/manakov/long steps=16"; do
  set -- $pre; p=$1; shift
  "$slpi" noise --preset "$p" "$@" -o "$dir/pre.noise" 2>/dev/null || bad "noise --preset $pre failed"
  "$slpi" run --preset "$p" "$@" --hex -q -o "$dir/pg.tsv" || bad "run $pre failed"
  "$slpi" run --preset "$p" "$@" noise_file="$dir/pre.noise" --hex -q -o "$dir/pf.tsv" || bad "run $pre on its noise file failed"
  [ "$(grep -v '^#' "$dir/pg.tsv")" = "$(grep -v '^#' "$dir/pf.tsv")" ] || bad "noise --preset $pre: the run on the file differs"
done
# the truncating problem's file is itself clipped and says so (a run re-clips what it reads,
# so equal rows alone would not show it): header "truncate on 2 D", no |dW| above D
"$slpi" noise --preset iso/rigid-body/trajectories h=0.1 steps=2000 truncate=on -o "$dir/clip.noise" 2>/dev/null
grep -q '^# truncate on 2 ' "$dir/clip.noise" || bad "noise --preset on a truncating problem: header $(grep '^# truncate' "$dir/clip.noise")"
awk -v D="$(awk '/^# truncate on/ {print $6}' "$dir/clip.noise")" '!/^#/ { for (i = 4; i <= 6; i++) if ($i > D || -$i > D) n++ } END { exit n > 0 }' \
  "$dir/clip.noise" || bad "noise --preset on a truncating problem: increments above D in the file"
# the run's JSON summary counts the clipped increments: the file's values at +-D exactly
Dh=$(awk '/^# truncate on/ {print $5}' "$dir/clip.noise")
nclip=$(awk -v D="$Dh" '!/^#/ { for (i = 1; i <= 3; i++) if ($i == D || $i == "-" D) n++ } END { print n + 0 }' "$dir/clip.noise")
"$slpi" run --preset iso/rigid-body/trajectories h=0.1 steps=2000 truncate=on -q -o "$dir/clip.tsv" --json "$dir/clip.json" ||
  bad "run on a truncating problem failed"
[ "$nclip" -gt 0 ] && grep -q "\"clipped\": $nclip," "$dir/clip.json" ||
  bad "run on a truncating problem: the file has $nclip values at +-D, the summary says $(grep clipped "$dir/clip.json")"
printf 'system=rigid-body\nscheme=isomp\nh=0.01\nsteps=20\nseed=4\n' > "$dir/rb.conf"
"$slpi" noise --config "$dir/rb.conf" -o "$dir/conf.noise" 2>/dev/null || bad "noise --config failed"
grep -q '^# seed 4$' "$dir/conf.noise" && grep -q '^# components 3$' "$dir/conf.noise" || bad "noise --config: header $(head -5 "$dir/conf.noise" | tr '\n' ' ')"
expect 2 "take the noise from the problem" "$slpi" noise --preset iso/rigid-body/trajectories --seed 3
expect 2 "has no noise" "$slpi" noise --preset iso/rigid-body/trajectories noise=none
expect 2 "expected key=value" "$slpi" noise --preset iso/rigid-body/trajectories steps

[ $fail -eq 0 ] && echo "t-noise-cli: all checks passed"
exit $fail
