#!/bin/sh
# t-noise-kat.sh — the slpi build reproduces the canonical-noise known answers: SHA-256 of
# `slpi noise --format bits` for every `bits` key of tests/kat/noise.sha256 (the same
# digests t-noise-builds.sh checks for other compilers and optimisation levels).
cd "$(dirname "$0")/../.." || exit 2
slpi=${SLPI_BIN:-build/slpi}
fail=0; n=0
while read -r kind seed path m h refine steps want; do
  [ "$kind" = bits ] || continue
  got=$("$slpi" noise --format bits --seed "$seed" --path "$path" --components "$m" \
        --h "$h" --refine "$refine" --steps "$steps" | sha256sum | cut -d' ' -f1)
  n=$((n+1))
  if [ "$got" != "$want" ]; then
    echo "t-noise-kat: FAIL: bits $seed $path $m $h $refine $steps: sha256 $got, KAT $want"
    fail=1
  fi
done < tests/kat/noise.sha256
echo "t-noise-kat: $n digests checked"
[ $n -gt 0 ] || fail=1
exit $fail
