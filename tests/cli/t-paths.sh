#!/bin/sh
# t-paths.sh — a relative file path inside a problem means one thing everywhere
# (docs/models.md#paths): relative to the file that names it (a key file's folder; a
# trajectory's folder for the paths of its header), else to the current folder (the
# command line, the APIs), and held, written and read back as an absolute path:
#   1. a key file in one folder names noise_fields=, x0_file= and noise_file= files
#      beside it by relative paths; run (and converge, ensemble) from another folder
#      read those files, the header records their absolute paths, and verify run from a
#      third folder reads the same files (PASS);
#   2. the same keys on the command line, relative to the current folder, with the
#      output in another folder: verify from elsewhere PASSes;
#   3. a port's header naming noise_fields= relatively: read beside the trajectory, and
#      refused (the file changed) when the file there differs from the recorded digest.
set -u
slpi=${SLPI_BIN:-./build/slpi}
slpi=$(cd "$(dirname "$slpi")" && pwd)/$(basename "$slpi")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0; n=0
bad() { echo "t-paths: FAIL: $*" >&2; fail=1; }
mkdir -p "$tmp/model" "$tmp/work" "$tmp/out" "$tmp/elsewhere"
awk 'BEGIN { srand(3); for (k = 0; k < 2; k++) { for (i = 0; i < 15; i++) printf "%s%.6f", i ? " " : "", rand() - 0.5; print "" } }' \
  > "$tmp/model/xi.txt"
printf 'system=euler-zeitlin\nN=4\nnoise=fields\nnoise_fields=xi.txt\nh=0.0078125\nsteps=6\n' > "$tmp/model/ez.slpi"
printf 'system=model\nalgebra=so3\nH=x1^2/2+x2^2/4+x3^2/6\nnoise_H1=x1\nx0_file=x0.txt\nh=0.0078125\nsteps=6\n' > "$tmp/model/so3.slpi"
echo "1 0.5 0.25" > "$tmp/model/x0.txt"
"$slpi" noise --seed 1 --path 0 --components 1 --h 0.0078125 --steps 6 -o "$tmp/model/n.noise" > /dev/null 2>&1 || bad "slpi noise"

# 1. key files read from another folder; verify from a third
for m in ez so3 "so3 noise_file=n.noise"; do
  n=$((n+1))
  set -- $m; cfg=$1.slpi; shift
  if [ $# -gt 0 ]; then { cat "$tmp/model/$cfg"; echo "$1"; } > "$tmp/model/nf-$cfg"; cfg=nf-$cfg; fi
  (cd "$tmp/work" && "$slpi" run -q --config ../model/$cfg -o "$tmp/out/$cfg.tsv") > "$tmp/msg" 2>&1 ||
    { bad "run --config ../model/$cfg from another folder: $(tail -1 "$tmp/msg")"; continue; }
  for key in noise_fields x0_file noise_file; do
    v=$(sed -n "s/^# $key=//p" "$tmp/out/$cfg.tsv")
    [ -z "$v" ] || { [ "${v#/}" != "$v" ] && [ "$v" -ef "$tmp/model/${v##*/}" ]; } ||
      bad "$cfg: the header's $key=$v is not an absolute path to the file beside the key file"
  done
  (cd "$tmp/elsewhere" && "$slpi" verify -q "$tmp/out/$cfg.tsv") > "$tmp/msg" 2>&1 ||
    bad "verify of $cfg's trajectory from a third folder: exit $?: $(tail -1 "$tmp/msg")"
done
n=$((n+1))
(cd "$tmp/work" && "$slpi" converge -q --config ../model/ez.slpi --levels 2..3 --ref 5 --paths 4 T=0.0625 -o "$tmp/out/c.txt") \
  > "$tmp/msg" 2>&1 || bad "converge --config ../model/ez.slpi from another folder: $(tail -1 "$tmp/msg")"
n=$((n+1))
(cd "$tmp/work" && "$slpi" ensemble -q --config ../model/ez.slpi --paths 4 -o "$tmp/out/e.tsv") \
  > "$tmp/msg" 2>&1 || bad "ensemble --config ../model/ez.slpi from another folder: $(tail -1 "$tmp/msg")"

# 2. command-line keys: relative to the current folder, output elsewhere
n=$((n+1))
(cd "$tmp" && "$slpi" run -q system=euler-zeitlin N=4 noise=fields noise_fields=model/xi.txt h=0.0078125 steps=6 \
   -o out/cl.tsv) > "$tmp/msg" 2>&1 || bad "run noise_fields=model/xi.txt: $(tail -1 "$tmp/msg")"
grep -qx "# noise_fields=$tmp/model/xi.txt" "$tmp/out/cl.tsv" || bad "the command line's relative path not recorded absolute"
(cd "$tmp/elsewhere" && "$slpi" verify -q ../out/cl.tsv) > "$tmp/msg" 2>&1 ||
  bad "verify ../out/cl.tsv from another folder: exit $?: $(tail -1 "$tmp/msg")"

# 3. a port's header naming the file relatively: beside the trajectory
n=$((n+1))
mkdir -p "$tmp/port"
cp "$tmp/model/xi.txt" "$tmp/port/fields.txt"
sed "s|^# noise_fields=.*|# noise_fields=fields.txt|" "$tmp/out/cl.tsv" > "$tmp/port/p.tsv"
(cd "$tmp/elsewhere" && "$slpi" verify -q "$tmp/port/p.tsv") > "$tmp/msg" 2>&1 ||
  bad "verify of a header with noise_fields=fields.txt beside it: exit $?: $(tail -1 "$tmp/msg")"
echo "0 0 0 0 0 0 0 0 0 0 0 0 0 0 1" > "$tmp/port/fields.txt"
(cd "$tmp/model" && "$slpi" verify -q "$tmp/port/p.tsv") > "$tmp/msg" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "noise_fields=$tmp/port/fields.txt: the file's digest" "$tmp/msg" ||
  bad "verify with another fields.txt beside the trajectory: exit $rc: $(tail -1 "$tmp/msg") (want 2, the file changed, read beside the trajectory, not the current folder's)"

[ $fail -eq 0 ] && echo "t-paths: $n checks"
exit $fail
