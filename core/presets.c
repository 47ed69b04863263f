/* presets.c — the experiment cases of docs/experiments.md as data: name, key=value settings, and
 * what the case measures. Convergence and ensemble cases set the finest single run
 * (level/T); `slpi converge` (studies/) builds the hierarchy on top of it. Data only:
 * slpi_problem_preset (core/problem-keys.c) applies a case's settings as keys. */
#include "slpi/problem.h"

#include <stddef.h>

#define HT "system=heavy-top scheme=tmk h=0.01 "
#define SE "system=sine-euler "
#define RB_ISO "system=rigid-body scheme=isomp "
#define RB_SVI "system=rigid-body scheme=svi "
#define HT_SVI "system=heavy-top scheme=svi h=0.01 "
/* one preset a row */
/* clang-format off */
static const slpi_preset presets[] = {
    /* RKMK paper (000), docs/experiments.md#rkmk */
    { "rkmk/heavy-top/det-441-trajectory", HT "inertia=4,4,1 noise=none T=100", "Fig. 1: deterministic Lagrange top, pi_3 constant" },
    { "rkmk/heavy-top/stoch-441-realization", HT "inertia=4,4,1 noise=salt T=100", "Fig. 2: one realization, gamma stays on the sphere" },
    { "rkmk/heavy-top/stoch-421-realization", HT "inertia=4,2,1 noise=salt T=100", "Fig. 3: one realization" },
    { "rkmk/heavy-top/casimirs-421", HT "inertia=4,2,1 noise=salt T=100", "Figs. 4-5: Casimir errors (run with tmk, im-direct, trap-direct)" },
    { "rkmk/heavy-top/casimirs-441", HT "inertia=4,4,1 noise=salt T=100", "Figs. 4-5 variant with diag(4,4,1)" },
    { "rkmk/heavy-top/casimirs-tmk-421", HT "inertia=4,2,1 noise=salt T=100", "Fig. 6: TMK Casimir errors and growth law" },
    { "rkmk/heavy-top/energy-det-421", HT "inertia=4,2,1 noise=none T=100", "Fig. 7: TMK conserves h without noise" },
    { "rkmk/heavy-top/critical-step", "system=heavy-top scheme=tmk inertia=4,4,1 noise=salt h=0.8 T=80", "critical step size claim (R7)" },
    { "rkmk/heavy-top/strong-order", HT "inertia=4,2,1 noise=salt alpha=0.3,0.6,0.9 T=1 level=8", "strong order, M = 1 SALT (R12)" },
    { "rkmk/sine-euler/casimirs-tmk", SE "scheme=tmk h=0.5 T=10000", "Fig. 8: TMK conserves C2, C3" },
    { "rkmk/sine-euler/casimirs-trap", SE "scheme=trap-direct h=0.5 T=1000", "Fig. 9: direct trapezoidal loses C2, C3" },
    { "rkmk/sine-euler/large-step", SE "scheme=tmk h=500 steps=200 fixed_iters=3", "stable beyond h = 500 only with accepted iterates (R10)" },
    { "rkmk/sine-euler/energy-det", SE "scheme=tmk noise=none h=0.5 T=1000", "noise-free TMK conserves h (R16)" },
    /* ISO paper (001), docs/experiments.md#iso */
    { "iso/rigid-body/trajectories", RB_ISO "h=0.00390625 T=50", "Fig. 1 left: trajectories on the unit sphere" },
    { "iso/rigid-body/long", RB_ISO "h=0.00390625 T=1000", "Fig. 4: eigenvalues preserved, H0 changes" },
    { "iso/rigid-body/strong", RB_ISO "T=0.125 level=9", "Fig. 5 left: strong order 1/2, 500 paths; T = 2^-3 (the paper's 0.1 is no multiple of 2^-7; its step sizes are absolute), so level k is h = 2^-(k+3): slpi converge --levels 4..9 --ref 13 gives the paper's h = 2^-7..2^-12 and reference 2^-16 (level = the finest)" },
    { "iso/rigid-body/strong-single-noise", RB_ISO "noise=iso-quad1 T=0.125 level=9", "strong order 1 with one noise (I14); grid as iso/rigid-body/strong" },
    { "iso/rigid-body/weak", RB_ISO "T=0.125 level=10", "Fig. 5 right: weak order 1, 10^7 paths; T = 2^-3 (the paper's 0.1 is no multiple of 2^-7; its step sizes are absolute), so level k is h = 2^-(k+3): slpi converge --kind weak --levels 4..10 --ref 13 gives the paper's h = 2^-7..2^-13 and reference 2^-16 (level = the finest)" },
    { "iso/rigid-body/det-order", RB_ISO "noise=none T=1 level=8", "deterministic order 2 (I17)" },
    { "iso/so3/weak-exact", RB_ISO "noise=const-e3 amp=1 h0_scale=0 x0=1,0,0 T=1 level=3", "exact weak oracle (I16)" },
    { "iso/manakov/long", "system=manakov scheme=isomp h=0.00390625 T=1000", "Fig. 6: eigenvalues preserved" },
    { "iso/manakov/strong", "system=manakov scheme=isomp T=0.125 level=9", "Fig. 7: strong order 1/2; grid as iso/rigid-body/strong (--levels 4..9 --ref 13)" },
    { "iso/vortices/trajectories", "system=point-vortices scheme=isomp h=0.00390625 T=50", "Fig. 1 right" },
    { "iso/vortices/long", "system=point-vortices scheme=isomp h=0.00390625 T=1000", "Fig. 8: eigenvalues preserved" },
    { "iso/vortices/strong", "system=point-vortices scheme=isomp T=0.125 level=9", "Fig. 9: strong order 1/2; grid as iso/rigid-body/strong (--levels 4..9 --ref 13)" },
    { "iso/zeitlin/long", "system=euler-zeitlin scheme=isomp N=128 amp=0.1 ic_lmax=4 h=0.0015625 T=50 output_every=32",
      "Fig. 10: N = 128 long run (every 32nd step written: 0.4 GB)" },
    { "iso/zeitlin/strong", "system=euler-zeitlin scheme=isomp N=12 amp=2 ic_lmax=11 T=0.125 level=9", "Fig. 11: strong order 1/2; grid as iso/rigid-body/strong (--levels 4..9 --ref 13)" },
    /* SVI paper (004), docs/experiments.md#svi */
    { "svi/rigid-body/paths", RB_SVI "h=0.01 T=50", "Fig. 1: paths on the momentum sphere" },
    { "svi/rigid-body/ensemble", RB_SVI "h=0.01 T=50", "Fig. 2: 20 paths (path=0..19)" },
    { "svi/rigid-body/energy-det", RB_SVI "noise=none h=0.01 T=50", "App. 10.1: energy (exact for svi_c=-0.25)" },
    { "svi/rigid-body/noether", RB_SVI "track_R=1 h=0.01 T=50", "§6.2: R Pi conserved" },
    { "svi/rigid-body/strong-n1", RB_SVI "noise=svi-lin1 amp=0.5 T=1 level=8", "strong order 1 with one noise (V6)" },
    { "svi/rigid-body/strong-n3", RB_SVI "noise=svi-lin amp=0.5 T=1 level=8", "strong order 1/2 with three noises (V6)" },
    { "svi/rigid-body/strong-paper-amp", RB_SVI "noise=svi-lin amp=0.02 T=1 level=8", "pre-asymptotic amplitude (V7)" },
    { "svi/so3/weak-exact", RB_SVI "noise=const-e3 amp=1 h0_scale=0 x0=1,0,0 T=1 level=3", "exact weak oracle (V21)" },
    { "svi/heavy-top/gyro-det", HT_SVI "noise=none T=20", "Figs. 3-5: deterministic gyroscope" },
    { "svi/heavy-top/case1", HT_SVI "noise=case1 k=0.1,0.1 T=20", "Figs. 6-7: h_1 = k Pi_z" },
    { "svi/heavy-top/case2", HT_SVI "noise=case2 k=0.1,0.1 T=20", "Figs. 8-10: h_1 = mg k Gamma_z" },
    { "svi/heavy-top/case3", HT_SVI "noise=case3 k=0.1,0.1 T=45", "Figs. 11-13: h_1,2 = mg k Gamma_x,y" },
    { "svi/heavy-top/case3-pi", HT_SVI "noise=case3-pi k=0.01,0.01 T=45", "case 3, the Pi version" },
    { "svi/heavy-top/generic", HT_SVI "inertia=1,2,3 mga=1,0,0 pi0=0.3,0.5,0.8 noise=none T=100", "§8.2: energy fluctuation of degree 1e-5" },
    { NULL, NULL, NULL },
};
/* clang-format on */

const slpi_preset *slpi_presets(void)
{
    return presets;
}
