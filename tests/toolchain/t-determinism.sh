#!/bin/sh
# t-determinism.sh — the determinism matrix: the fast path's trajectories
# (written with --hex, so every bit shows) for one case per system and several schemes
# must be byte-identical across builds and thread counts, and so must the
# canonical noise (`slpi noise`). Thread count th runs OpenBLAS and the OpenMP team on th
# threads; the su(N) kernels (fast/sun.c, fast/zeitlin-basis.c) share their work out to
# the OpenMP team from N = 64 (the ez-*64 cases). OpenBLAS's own threads change the last
# bits of products of that size (0.3.21: 64 x 64 zgemm), so slpi keeps OpenBLAS on one
# thread unless OPENBLAS_NUM_THREADS is set (docs/conventions.md#threads), and the ez-*64
# cases vary OMP_NUM_THREADS alone.
#   make check:        the built slpi with 1 and 2 threads.
#   make determinism:  SLPI_DET_BINS names slpi built with gcc and clang at -O0, -O2,
#                      -O3 (the GNUmakefile builds them); every binary x 1, 2 threads.
# Header lines that name the build (compiler, cflags, git_rev) are the only lines not
# compared.
# Bound where bits may legitimately differ: none is needed so far — every case is
# compared byte for byte. Ensembles over 1/2 threads and MPI 1/2 ranks: tests/studies/t-mpi.sh,
# which `make determinism` runs after this script.
set -u
slpi=${SLPI_BIN:-./build/slpi}
bins=${SLPI_DET_BINS:-$slpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0; n=0; cmpd=0

cases() {
  cat <<'EOF'
rb-isomp|--preset iso/rigid-body/trajectories --steps 200
rb-rkmk-heun|--system rigid-body --scheme rkmk-heun noise=svi-lin --steps 100
rb-svi|--system rigid-body --scheme svi --steps 100
ht-tmk|--system heavy-top --scheme tmk --steps 100
ht-svi|--system heavy-top --scheme svi form=svi --steps 100
mk-isomp|--system manakov --scheme isomp --steps 50
mk-trap|--system manakov --scheme trap-direct --steps 30
pv-isomp|--system point-vortices --scheme isomp --steps 50
ez-isomp|--system euler-zeitlin --scheme isomp N=16 --steps 10
ez-isomp-q64|--system euler-zeitlin --scheme isomp N=64 amp=2 ic_lmax=63 --steps 6
ez-isomp-l64|--system euler-zeitlin --scheme isomp N=67 noise=L amp=2 ic_lmax=66 --steps 4
ez-heun-q64|--system euler-zeitlin --scheme rkmk-heun N=64 amp=2 ic_lmax=63 --steps 3
ez-tmk|--system euler-zeitlin --scheme tmk N=8 ic_lmax=7 --steps 5
se-isomp|--system sine-euler --scheme isomp N=5 --steps 20
EOF
}

strip() { grep -v '^# \(compiler\|cflags\|git_rev\)=' "$1"; }

k=0
for b in $bins; do
  k=$((k+1))
  for th in 1 2; do
    tag="b$k-t$th"
    cases | while IFS='|' read -r name args; do
      case $name in
        *64) env -u OPENBLAS_NUM_THREADS OMP_NUM_THREADS=$th "$b" run $args --hex -q -o "$tmp/raw" ;;
        *) OPENBLAS_NUM_THREADS=$th OMP_NUM_THREADS=$th "$b" run $args --hex -q -o "$tmp/raw" ;;
      esac || echo "t-determinism: FAIL: $b run $args (threads $th) failed" >&2
      strip "$tmp/raw" > "$tmp/$name.$tag"
    done
    OPENBLAS_NUM_THREADS=$th "$b" noise --seed 0x5eed --path 3 --components 4 --h 0x1p-10 --steps 500 \
      --refine 3 > "$tmp/noise.$tag"
    OPENBLAS_NUM_THREADS=$th "$b" noise --seed 1 --path 0 --components 2 --h 0.001 --steps 500 \
      --truncate on --format bits > "$tmp/bits.$tag" 2>/dev/null
  done
done

for f in "$tmp"/*.b1-t1; do
  base=${f%.b1-t1}
  for g in "$base".b*-t*; do
    [ "$g" = "$f" ] && continue
    n=$((n+1))
    if ! cmp -s "$f" "$g"; then
      echo "t-determinism: FAIL: $(basename "$base"): $(basename "$g") differs from b1-t1 ($(cmp "$f" "$g" | head -1))" >&2
      fail=1
    fi
  done
  cmpd=$((cmpd+1))
done
for f in "$tmp"/*.b1-t1; do grep -q '^[0-9]' "$f" || { echo "t-determinism: FAIL: $f has no rows" >&2; fail=1; }; done
echo "t-determinism: $cmpd outputs x $(echo $bins | wc -w) builds x 2 thread counts: $n comparisons"
exit $fail
