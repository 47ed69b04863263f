#!/bin/sh
# products-table.sh [SLPI] — docs/install.md#products' table, measured: for each OpenBLAS
# kernel this CPU can run (OPENBLAS_CORETYPE; OpenBLAS replaces one the CPU lacks, and the
# row then names the kernel that ran), the choice the su(N) kernels make and its two
# timings (core/blas-product.c: CPU time, best of interleaved rounds at N = 128), each
# from a fresh cache folder, one BLAS thread. Prints Markdown rows and the load.
slpi=${1:-build/slpi}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
echo "| kernel asked | kernel run | zgemm (ms) | zgemm3m (ms) | zgemm / zgemm3m | chosen |"
echo "| --- | --- | --- | --- | --- | --- |"
for k in Cooperlake SkylakeX Haswell Zen Sandybridge Prescott; do
  out=$(OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=$k SLPI_CACHE_DIR="$tmp/$k" "$slpi" list --system) || exit 1
  ran=$(printf '%s\n' "$out" | sed -n 's/^openblas: *\([^ ]*\).*/\1/p')
  printf '%s\n' "$out" | sed -n 's/^products: *\([a-z0-9]*\) (measured: zgemm \([0-9.]*\) ms, zgemm3m \([0-9.]*\) ms.*/\1 \2 \3/p' |
    while read -r pick tz t3; do
      awk -v k="$k" -v r="$ran" -v a="$tz" -v b="$t3" -v c="$pick" \
        'BEGIN { printf "| %s | %s | %s | %s | %.2f | %s |\n", k, r, a, b, a / b, c }'
    done
done
echo
echo "(load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC'))"
