#!/bin/sh
# tests/digests.sh [--audit CLAIMS_JSON] — behaviour digests for refactorings that must not
# change any output: one line "NAME sha256" for every preset's trajectory (fast path, %a hex
# floats, 64 steps, every step written), a few certified (--ref) runs, the golden report,
# four convergence studies, a property run, and the canonical-noise bit streams of the
# tests/kat/noise.sha256 cases. Run it before and after a change and `diff` the two outputs:
# any line that differs names what changed. Provenance lines that name the build (git_rev,
# cflags; zproduct_why, which holds timings) and the golden report's timing column are left out of the digests; everything
# else is hashed as written.
# --audit FILE: instead, one line "CLAIM VERDICT" per claim of an audit's claims.json and one
# per check (role, case, check, outcome, value; not the seconds).
# Environment: SLPI_BIN (default build/slpi). Takes about 2 CPU-minutes (not part of
# `make check`).
cd "$(dirname "$0")/.." || exit 2
slpi=${SLPI_BIN:-build/slpi}

if [ "${1:-}" = --audit ]; then
  python3 - "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
claims = d.get("claims", d) if isinstance(d, dict) else d
for c in claims:
    print(c.get("id"), c.get("verdict"))
    for k in c.get("checks", []):   # every check's outcome and value (not its seconds)
        print(" ", c.get("id"), k.get("role"), k.get("case"), k.get("check"), k.get("outcome"), repr(k.get("value")))
EOF
  exit $?
fi

# the build-identity lines of a provenance header, which a refactoring changes
strip() { grep -v -e '^# git_rev=' -e '^# cflags=' -e '^# compiler=' -e '^# zproduct_why=' -e 'git_rev' ; }
dig() { name=$1; shift; printf '%s %s\n' "$name" "$("$@" 2>/dev/null | strip | sha256sum | cut -c1-64)"; }

for p in $("$slpi" list | sed -n '/^presets/,$p' | sed -n 's/^  \([^ ]*\).*/\1/p'); do
  dig "run-fast:$p" "$slpi" run --preset "$p" --hex steps=64 output_every=1 -q
done
for p in rkmk/heavy-top/det-441-trajectory rkmk/heavy-top/stoch-421-realization \
         rkmk/sine-euler/casimirs-tmk iso/rigid-body/trajectories iso/manakov/long \
         iso/vortices/long svi/rigid-body/paths svi/heavy-top/case1; do
  dig "run-ref:$p" "$slpi" run --preset "$p" --ref steps=3 output_every=1 -q
done
# the golden report's last column is the seconds each pair took: left out
golden() { "$slpi" golden --check | awk 'NF >= 10 { $NF = "" } { print }'; }
dig golden golden
dig converge-strong-rb "$slpi" converge --preset iso/rigid-body/strong --levels 2..4 --ref 6 --paths 32 --boot 50
dig converge-sup-ht "$slpi" converge --preset rkmk/heavy-top/strong-order --kind sup --levels 2..4 --ref 6 --paths 16 --boot 20
dig converge-weak-exact "$slpi" converge --preset svi/so3/weak-exact --kind weak --exact --phi x1 --levels 2..4 --ref 6 --paths 64 --boot 20
dig converge-strong-svi "$slpi" converge --preset svi/rigid-body/strong-n3 --levels 2..4 --ref 6 --paths 16 --indep isomp --boot 0
dig props "$slpi" props --cases 2 --ref-cases 1 --seed 7 --verbose
while read -r kind seed path m h refine steps want; do
  [ "$kind" = bits ] || continue
  dig "noise:$seed:$path:$m:$h:$refine:$steps" "$slpi" noise --format bits --seed "$seed" \
    --path "$path" --components "$m" --h "$h" --refine "$refine" --steps "$steps"
done < tests/kat/noise.sha256
