#!/bin/sh
# t-power-figure.sh — the figure of docs/power.md is drawn from docs/power-runs.tsv by
# tests/port/power_figure.py: its seen points agree with a count of the runs file made
# here (binary32 defect runs by length and mean effect per step), it writes a PNG where
# matplotlib is installed, and without matplotlib it SKIPs (exit 77, saying so) and
# writes nothing.
set -u
. "$(dirname "$0")/prelude.sh"
$py tests/port/power_figure.py docs/power-runs.tsv -o "$d/fig.png" > "$d/points" 2> "$d/err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || { note "exit $rc: $(cat "$d/err")"; exit 1; }
# each seen point counted again from the runs file: its bin is [e / sqrt 2, e sqrt 2)
# (system impl defect mag steps path effect_mean . exit ...; held out: power.py's lists)
n=0
while read -r steps held e got; do
  [ "$held" = 0 ] || continue
  n=$((n + 1))
  want=$(awk -F'\t' -v s="$steps" -v e="$e" 'NR > 1 && $5 == s && $3 != "none" && $3 != "bad" && $6 !~ /-/ \
    && $7 >= e / sqrt(2) * (1 - 1e-3) && $7 < e * sqrt(2) * (1 - 1e-3) && $3 !~ /^(coef|sign|lap|early)$/ \
    && $2 !~ /^(torch|numba|numpy16|torchbf16|emu-)/ { n++; d += $9 == 1 } END { printf "%d/%d", d, n }' \
    docs/power-runs.tsv)
  [ "$got" = "$want" ] || note "the figure's $steps-step point at $e u is $got, the runs file says $want"
done < "$d/points"
[ $n -gt 0 ] || note "no seen point in the figure"
if [ $rc -eq 0 ]; then
  [ "$(head -c 8 "$d/fig.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] || note "$d/fig.png is not a PNG"
fi
hide=$d/hide
mkdir -p "$hide"
printf 'import sys\nsys.modules["matplotlib"] = None\n' > "$hide/sitecustomize.py"
PYTHONPATH=$hide $py tests/port/power_figure.py docs/power-runs.tsv -o "$d/none.png" > /dev/null 2> "$d/err"
rc=$?
[ $rc -eq 77 ] && grep -q SKIP "$d/err" && [ ! -e "$d/none.png" ] \
  || note "without matplotlib: exit $rc, '$(cat "$d/err")', expected a SKIP (77) and no file"
[ $fail -eq 0 ] && echo "t-power-figure: the figure's points are the runs file's; without matplotlib a clean SKIP"
exit $fail
