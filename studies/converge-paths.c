/* converge-paths.c — the lock-step path engine of the convergence studies (the coupling and
 * the blocks: studies/converge.c's header): every level's fast object, one segment's
 * increments of a block of paths drawn once and summed dyadically (slpi_noise_levels) and
 * truncated per level, and every level advanced through the segment, the rigid-body
 * ISOMP/SVI levels in the vectorised lanes of fast/ensemble.c, the others path by path;
 * each path's values (squared errors, phi, sup maxima) into the worker's buffer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/registry.h"
#include "slpi/problem.h"
#include "slpi/problem-finish.h"
#include "slpi/initial.h"
#include "slpi/problem-build.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/fast.h"
#include "core/problem-store.h"
#include "core/view-grid.h"
#include "core/view-noise.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/check.h"
#include "core/noise.h"
#include "studies/converge.h"

static double dist2(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

/* The same for lane r of two SoA blocks with n lanes. */
static double dist2_lane(const double *a, const double *b, int dim, int n, int r)
{
    double s = 0;
    for (int i = 0; i < dim; i++) {
        double d = a[(size_t)i * (size_t)n + (size_t)r] - b[(size_t)i * (size_t)n + (size_t)r];
        s += d * d;
    }
    return s;
}

/* The level of fast object i: coarse kmin + i, then the reference and independent at L. */
static int level_of(const slpi_conv_cfg *c, const slpi_conv_layout *ly, int i)
{
    return i < ly->nlev ? c->kmin + i : c->L;
}

/* Increments of object i's level in the segment buffer of a block of n lanes: step t,
 * component k, lane r at noise_at(...)[(t M + k) n + r]; the independent scheme shares
 * the reference's. */
static double *noise_at(const slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, int i, int n)
{
    size_t off = 0;
    if (i > ly->nlev) i = ly->nlev;
    for (int j = 0; j < i; j++) off += (size_t)1 << (level_of(c, ly, j) - c->kmin);
    return w->noise + off * (size_t)ly->M * (size_t)n;
}

/* The problem of level l (h = T 2^-l), validated, and its fast-path object. */
static int make_level(const slpi_conv_cfg *c, slpi_scheme_id k, int l, slpi_fast **out, slpi_error *err)
{
    slpi_problem *p = slpi_problem_dup(c->base), *q = NULL;
    int rc = p ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "converge: out of memory");
    if (rc == SLPI_OK) slpi_view_scheme_edit(p)->scheme = k;
    if (rc == SLPI_OK && k != slpi_view_scheme(c->base)->scheme) {
        /* an independent scheme keeps the system and form, with its own solver defaults */
        q = slpi_problem_dup(c->base);
        rc = q ? slpi_problem_set(q, "scheme", slpi_scheme_name(k), err)
               : slpi_error_set(err, SLPI_EINPUT, "converge: out of memory");
        if (rc == SLPI_OK) {
            slpi_solver_view *sol = slpi_view_solver_edit(p);
            sol->tol = slpi_view_solver(q)->tol;
            sol->maxit = slpi_view_solver(q)->maxit;
            sol->on_cap = slpi_view_solver(q)->on_cap;
            sol->fixed_iters = slpi_view_solver(q)->fixed_iters;
            slpi_view_scheme_edit(p)->warm_start = slpi_view_scheme(q)->warm_start;
        }
    }
    if (rc == SLPI_OK) {
        slpi_view_grid_edit(p)->level = l;
        slpi_view_noise_edit(p)->refine = 0;
        slpi_view_noise_edit(p)->noise_file[0] = 0;
        rc = slpi_problem_finish(p, err);
    }
    if (rc == SLPI_OK) rc = slpi_fast_create(out, p, err);
    slpi_problem_free(q);
    slpi_problem_free(p);
    return rc;
}

void slpi_conv_worker_free(slpi_conv_worker *w)
{
    for (int i = 0; i < w->nf; i++) slpi_fast_free(w->f[i]);
    free(w->x0);
    free(w->noise);
    free(w->lane_out);
    free(w->dead);
    free(w->carry);
    free(w->ou);
    free(w->eta);
}

/* The coloured components' coefficients on the study's fine step T 2^-L and their eta
 * buffers (docs/noise.md#ou-studies); nothing when the noise is white. */
static int ou_init(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, slpi_error *err)
{
    size_t M = (size_t)(ly->M > 0 ? ly->M : 1);
    double *tau = malloc(M * sizeof *tau);
    int any =
        tau ? slpi_problem_noise_tau(c->base, tau, err) : slpi_error_set(err, SLPI_EINPUT, "converge: out of memory");
    if (any <= 0) {
        free(tau);
        return any < 0 ? SLPI_EINPUT : SLPI_OK;
    }
    w->ou = calloc(M, sizeof *w->ou);
    w->eta = malloc(M * (size_t)w->B * sizeof *w->eta);
    int rc = w->ou && w->eta ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "converge: out of memory");
    const double delta = ldexp(slpi_view_grid(c->base)->T, -c->L);
    for (int k = 0; k < ly->M && rc == SLPI_OK; k++)
        if (tau[k] > 0 && slpi_noise_ou_coef(&w->ou[k], tau[k], delta) != 0)
            rc = slpi_error_set(err, SLPI_EINPUT, "converge: noise_tau=%g on the fine step %g: no OU coefficients",
                                tau[k], delta);
    free(tau);
    return rc;
}

int slpi_conv_worker_init(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, slpi_error *err)
{
    memset(w, 0, sizeof *w);
    int rc = SLPI_OK;
    for (int i = 0; i < ly->nlev && rc == SLPI_OK; i++)
        if ((rc = make_level(c, slpi_view_scheme(c->base)->scheme, c->kmin + i, &w->f[i], err)) == SLPI_OK) w->nf++;
    if (rc == SLPI_OK && (rc = make_level(c, slpi_view_scheme(c->base)->scheme, c->L, &w->f[ly->nlev], err)) == SLPI_OK)
        w->nf++;
    if (rc == SLPI_OK && c->indep && (rc = make_level(c, c->indep_scheme, c->L, &w->f[ly->nlev + 1], err)) == SLPI_OK)
        w->nf++;
    if (rc != SLPI_OK) {
        slpi_conv_worker_free(w);
        return rc;
    }
    for (int i = 0; i < w->nf; i++) {
        slpi_error ignored;
        w->kind[i] = c->general ? SLPI_FAST_SOA_NONE : slpi_fast_rb_soa_kind(slpi_fast_problem(w->f[i]), NULL);
        if (w->kind[i] != SLPI_FAST_SOA_NONE && slpi_fast_rb_soa_init(&w->soa[i], slpi_fast_problem(w->f[i]), &ignored))
            w->kind[i] = SLPI_FAST_SOA_NONE;
    }
    size_t d = (size_t)ly->dim, M = (size_t)(ly->M > 0 ? ly->M : 1), nf = (size_t)w->nf;
    w->S = 1L << (c->L - c->kmin);
    size_t seg = 0; /* increments of one segment and lane, all levels */
    for (int i = 0; i <= ly->nlev; i++) seg += (size_t)1 << (level_of(c, ly, i) - c->kmin);
    seg *= M;
    size_t grid = ((size_t)1 << (c->kmax - c->kmin)) + 1,
           per_lane = seg + nf * d + (ly->sup ? 2 * grid * d + 2 * (size_t)ly->nlev : 0) + (size_t)ly->nq;
    size_t B = BLOCK_BYTES / (per_lane * sizeof(double));
    w->B = B >= BLOCK_MAX ? BLOCK_MAX : B >= 8 ? (int)(B & ~(size_t)7) : B >= 1 ? (int)B : 1;
    size_t n = (size_t)w->B + 1; /* + the lone-path buffers (lane, dW) */
    w->tile = w->B < TILE ? w->B : TILE;
    w->x0 = malloc((d + 2 * (size_t)w->tile * (size_t)w->S + 4 * d + M) * sizeof *w->x0);
    w->noise = malloc(per_lane * n * sizeof *w->noise);
    w->lane_out = malloc((size_t)w->B * sizeof *w->lane_out);
    w->dead = calloc(((size_t)w->nf + 1) * (size_t)w->B, 1);
    for (int i = 0; i < w->nf; i++) {
        w->ncarry[i] = slpi_fast_carry_get(w->f[i], NULL);
        if (w->ncarry[i] > w->cmax) w->cmax = w->ncarry[i];
    }
    w->carry = malloc(nf * (size_t)w->B * (size_t)w->cmax * sizeof *w->carry + 1);
    if (!w->x0 || !w->noise || !w->lane_out || !w->dead || !w->carry) {
        slpi_conv_worker_free(w);
        return slpi_error_set(err, SLPI_EINPUT, "converge: out of memory (2^%d fine steps)", c->L);
    }
    w->lost = w->dead + (size_t)w->nf * (size_t)w->B;
    w->first.path = -1;
    w->hier = w->x0 + d;
    w->lane = w->hier + 2 * (size_t)w->tile * (size_t)w->S;
    w->dW = w->lane + d;
    w->scratch = w->dW + M;
    for (int q = 0; q < w->tile; q++)
        for (int i = 0; i <= c->L - c->kmin; i++)
            w->lev[q * (c->L - c->kmin + 1) + i] = w->hier + (size_t)(q + 1) * 2 * (size_t)w->S - (2 * w->S >> i);
    for (int i = 0; i < w->nf; i++)
        w->D[i] =
            slpi_noise_threshold(slpi_view_grid(slpi_fast_problem(w->f[i]))->h, slpi_view_noise(c->base)->trunc_ell);
    w->x = w->noise + seg * (size_t)w->B;
    w->traj = w->x + nf * d * (size_t)w->B;
    w->sup = w->traj + (ly->sup ? 2 * grid * d * (size_t)w->B : 0);
    w->val = w->sup + (ly->sup ? 2 * (size_t)ly->nlev * (size_t)w->B : 0);
    rc = ou_init(w, c, ly, err);
    int given = rc == SLPI_OK ? slpi_problem_explicit_x0(c->base, w->x0, err) : 1;
    if (given < 0)
        rc = SLPI_EINPUT;
    else if (!given)
        rc = slpi_fast_initial_state(w->f[0], w->x0, err);
    if (rc != SLPI_OK) slpi_conv_worker_free(w);
    return rc;
}

/* One segment's increments of the n paths from path0: every level's, truncated per level
 * after summation (docs/noise.md#coupling item 3); a coloured component's hierarchy is
 * its OU increments' on the fine step, eta carried from segment to segment
 * (slpi_noise_ou_levels, docs/noise.md#ou-studies). The paths are drawn a tile at a time
 * (each path's hierarchy contiguous, truncated there) and written to the block's
 * step-major slpi_conv_layout a tile row (one cache line of lanes) at a time. */
static int block_noise(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, uint64_t path0, int n,
                       long seg, slpi_error *err)
{
#define LEV(q, l) w->lev[(q) * (nup + 1) + c->L - (l)] /* path r0 + q's level l */
    int M = ly->M, nup = c->L - c->kmin;
    const uint64_t seed = slpi_view_noise(c->base)->seed;
    const double h = ldexp(slpi_view_grid(c->base)->T, -c->L);
    for (int r0 = 0; r0 < n; r0 += w->tile) {
        int nt = n - r0 < w->tile ? n - r0 : w->tile;
        for (int k = 0; k < M; k++) {
            const slpi_ou_coef *o = w->ou && w->ou[k].tau > 0 ? &w->ou[k] : NULL;
            double *eta = o ? w->eta + (size_t)k * (size_t)w->B + (size_t)r0 : NULL;
            for (int q = 0; o && seg == 0 && q < nt; q++) /* the stationary start of each path */
                eta[q] = slpi_noise_ou_start(seed, path0 + (uint64_t)(r0 + q), (uint32_t)k, o);
            int rc = !o ? SLPI_OK
                        : slpi_noise_ou_levels(seed, path0 + (uint64_t)r0, (size_t)nt, (uint32_t)k, h, nup, o, eta,
                                               (uint64_t)seg * (uint64_t)w->S, (size_t)w->S, w->lev, err);
            if (rc != SLPI_OK) return rc;
            if (!o)
                slpi_noise_levels(seed, path0 + (uint64_t)r0, (size_t)nt, (uint32_t)k, h, nup,
                                  (uint64_t)seg * (uint64_t)w->S, (size_t)w->S, w->lev);
            for (int i = 0; i <= ly->nlev; i++) {
                int l = level_of(c, ly, i);
                double *dst = noise_at(w, c, ly, i, n) + (size_t)k * (size_t)n + (size_t)r0;
                for (long t = 0; t < 1L << (l - c->kmin); t++, dst += (size_t)M * (size_t)n)
                    for (int q = 0; q < nt; q++) dst[q] = LEV(q, l)[t];
            }
        }
    }
#undef LEV
    for (int i = 0; i <= ly->nlev && ly->trunc; i++) {
        size_t cnt = ((size_t)1 << (level_of(c, ly, i) - c->kmin)) * (size_t)M * (size_t)n;
        w->clipped += slpi_noise_clip(noise_at(w, c, ly, i, n), cnt, w->D[i]);
    }
    return SLPI_OK;
}

/* A failed step of lane r on object i (docs/noise.md#failed-paths): its path's first on
 * this object is counted, and kept as the worker's first failure if it comes before it
 * (lower path, then lower object). */
/* Lane r of object i failed at `step`: its step (status st, info), or phi, not finite at
 * the level's last step (phi: its value; NULL for a step). */
static void note_failure(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, int i, int r,
                         uint64_t path, long step, slpi_step_status st, const slpi_step_info *info, const double *phi)
{
    unsigned char *dead = w->dead + (size_t)i * (size_t)w->B + (size_t)r;
    if (*dead) return;
    *dead = 1;
    w->nfail[i]++;
    slpi_conv_failure *f = &w->first;
    if (f->path >= 0 && ((long long)path > f->path || ((long long)path == f->path && i > f->object))) return;
    f->path = (long long)path;
    f->object = i;
    f->level = level_of(c, ly, i);
    f->h = slpi_view_grid(slpi_fast_problem(w->f[i]))->h;
    f->step = step;
    f->status = st;
    f->iterations = info->iterations;
    f->residual = info->residual;
    f->functional = phi != NULL;
    f->value = phi ? *phi : 0;
}

/* Step `step` (0-based on the level's grid) of object i for the n lanes of SoA state x. A
 * lane whose step fails keeps its state and is noted (note_failure); the others go on. */
static int step_block(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, int i, double *x,
                      const double *dW, int n, uint64_t path0, long step, slpi_error *err)
{
    slpi_fast *f = w->f[i];
    const unsigned char *dead = w->dead + (size_t)i * (size_t)w->B;
    long bad = 0;
    if (slpi_interrupt_pending())
        return slpi_error_set(err, SLPI_EINTR, "converge: interrupted on the paths from %llu",
                              (unsigned long long)path0);
    if (w->kind[i] != SLPI_FAST_SOA_NONE) {
        bad = w->kind[i] == SLPI_FAST_SOA_ISOMP
            ? slpi_fast_rb_isomp_soa(&w->soa[i], n, slpi_view_grid(slpi_fast_problem(f))->h, x, dW, &w->iters,
                                     w->lane_out)
            : slpi_fast_rb_svi_soa(&w->soa[i], n, slpi_view_grid(slpi_fast_problem(f))->h, x, dW, &w->iters,
                                   w->lane_out);
        if (!bad) return SLPI_OK;
    }
    for (int r = 0; r < n; r++) {
        if (bad && (!slpi_step_failed(w->lane_out[r].status) || dead[r]))
            continue; /* SoA: a lane's first failure, for its report */
        for (int j = 0; j < ly->dim; j++) w->lane[j] = x[(size_t)j * (size_t)n + (size_t)r];
        for (int k = 0; k < ly->M; k++) w->dW[k] = dW[(size_t)k * (size_t)n + (size_t)r];
        /* the path's own warm start (its carry), so that its steps are those of the path
         * run alone: the object's carry is the previous lane's */
        double *carry = w->carry + ((size_t)i * (size_t)w->B + (size_t)r) * (size_t)w->cmax;
        if (w->ncarry[i] && SLPI_NEVER(slpi_fast_carry_set(f, w->lane, carry, w->ncarry[i]) != SLPI_OK))
            return slpi_error_set(err, SLPI_EINPUT, "converge: a path's carry refused");
        slpi_step_info info = { 0 };
        slpi_fast_set_step_index(f, step); /* the lanes share f: each lane's step is `step` of the grid */
        slpi_step_status st = slpi_fast_step(f, w->lane, w->dW, &info);
        if (w->ncarry[i]) slpi_fast_carry_get(f, carry);
        if (!bad) w->iters += info.iterations; /* the SoA kernel counted its lanes' */
        if (slpi_step_failed(st)) {
            note_failure(w, c, ly, i, r, path0 + (uint64_t)r, step, st, &info, NULL);
            continue;
        }
        for (int j = 0; j < ly->dim; j++) x[(size_t)j * (size_t)n + (size_t)r] = w->lane[j];
    }
    return SLPI_OK;
}

/* Copy SoA state x (n lanes) to slot j of a trajectory block. */
static void traj_put(double *traj, int j, const double *x, size_t dn)
{
    memcpy(traj + (size_t)j * dn, x, dn * sizeof *x);
}

/* The n paths from path0 through every level; path r's values go to w->val + r nq
 * (col * nl1 + level). */
int slpi_conv_run_block(slpi_conv_worker *w, const slpi_conv_cfg *c, const slpi_conv_layout *ly, uint64_t path0, int n,
                        slpi_error *err)
{
    int d = ly->dim, nl = ly->nlev, nl1 = ly->nl1;
    size_t dn = (size_t)d * (size_t)n, grid = ((size_t)1 << (c->kmax - c->kmin)) + 1;
    for (int i = 0; i < w->nf; i++)
        for (int j = 0; j < d; j++)
            for (int r = 0; r < n; r++) w->x[(size_t)i * dn + (size_t)j * (size_t)n + (size_t)r] = w->x0[j];
    /* every path starts cold (a carry of zeros: no step behind it), and alive */
    memset(w->carry, 0, (size_t)w->nf * (size_t)w->B * (size_t)w->cmax * sizeof *w->carry);
    memset(w->dead, 0, ((size_t)w->nf + 1) * (size_t)w->B);
    double *supv = w->sup; /* (level, column) x lane */
    if (ly->sup) memset(supv, 0, 2 * (size_t)nl * (size_t)n * sizeof *supv);
    int rc = SLPI_OK;
    for (long seg = 0; seg < 1L << c->kmin && rc == SLPI_OK; seg++) {
        rc = block_noise(w, c, ly, path0, n, seg, err);
        if (rc != SLPI_OK) break;
        /* the references first (their kmax-grid states for the sup estimator), then the
         * coarse levels */
        for (int o = 0; o < w->nf && rc == SLPI_OK; o++) {
            int i = o < w->nf - nl ? nl + o : o - (w->nf - nl), l = level_of(c, ly, i);
            long cnt = 1L << (l - c->kmin);
            double *x = w->x + (size_t)i * dn, *traj = w->traj + (size_t)(i - nl) * grid * dn;
            const double *noise = noise_at(w, c, ly, i, n);
            long ts = 1L << (c->L - c->kmax);
            if (ly->sup && i >= nl) traj_put(traj, 0, x, dn);
            for (long t = 0; t < cnt && rc == SLPI_OK; t++) {
                rc = step_block(w, c, ly, i, x, noise + (size_t)t * (size_t)ly->M * (size_t)n, n, path0, seg * cnt + t,
                                err);
                if (!ly->sup) continue;
                if (i >= nl) {
                    if ((t + 1) % ts == 0) traj_put(traj, (int)((t + 1) / ts), x, dn);
                    continue;
                }
                size_t j = (size_t)(t + 1) << (c->kmax - l);
                for (int col = 0; col < 1 + (c->indep != 0); col++) {
                    const double *ref = w->traj + ((size_t)col * grid + j) * dn;
                    double *m = supv + ((size_t)i * 2 + (size_t)col) * (size_t)n;
                    for (int r = 0; r < n; r++) {
                        double e = dist2_lane(x, ref, d, n, r);
                        if (e > m[r]) m[r] = e;
                    }
                }
            }
        }
    }
    if (rc != SLPI_OK) return rc;
    for (int i = 0; i < w->nf; i++)
        for (int r = 0; r < n; r++) w->lost[r] |= w->dead[(size_t)i * (size_t)w->B + (size_t)r];
    for (int r = 0; r < n; r++) {
        double *v = w->val + (size_t)r * (size_t)ly->nq;
        memset(v, 0, (size_t)ly->nq * sizeof *v);
        /* lane r of object i as a plain vector */
#define LANE(i, buf)                                                                                                   \
    for (int j = 0; j < d; j++) (buf)[j] = w->x[((size_t)(i)) * dn + (size_t)j * (size_t)n + (size_t)r]
        double *xref = w->lane, *xi = w->scratch, *xind = w->scratch + 2 * d;
        LANE(nl, xref);
        if (c->indep) LANE(nl + 1, xind);
        double *ph = w->phiv, pref = 0;
        if (c->kind == SLPI_CONV_WEAK && !w->lost[r]) { /* phi of every object; not finite: a failed path */
            for (int i = 0; i < w->nf; i++) {
                LANE(i, xi);
                ph[i] = slpi_conv_phi_eval(c, ly->phi, xi, d);
                if (!isfinite(ph[i])) { /* every step taken: the functional's failure, not a step's */
                    slpi_step_info none = { 0 };
                    note_failure(w, c, ly, i, r, path0 + (uint64_t)r, (1L << level_of(c, ly, i)) - 1,
                                 SLPI_STEP_CONVERGED, &none, &ph[i]);
                    w->lost[r] = 1;
                }
            }
            pref = ph[nl];
        }
        if (w->lost[r]) continue; /* left out of every sum (the caller skips it) */
        for (int i = 0; i < nl; i++) {
            LANE(i, xi);
            if (ly->sup) {
                v[SLPI_CONV_SELF * nl1 + i] = supv[((size_t)i * 2) * (size_t)n + (size_t)r];
                if (c->indep) v[SLPI_CONV_INDEP * nl1 + i] = supv[((size_t)i * 2 + 1) * (size_t)n + (size_t)r];
            } else if (c->kind == SLPI_CONV_WEAK) {
                double pi = ph[i];
                v[SLPI_CONV_SELF * nl1 + i] = pi - pref;
                if (c->exact)
                    v[SLPI_CONV_INDEP * nl1 + i] = pi - c->exact_value;
                else if (c->indep)
                    v[SLPI_CONV_INDEP * nl1 + i] = pi - ph[nl + 1];
                v[SLPI_CONV_MLMC * nl1 + i] = pi - ph[i + 1];
                v[SLPI_CONV_PHI * nl1 + i] = pi;
            } else {
                v[SLPI_CONV_SELF * nl1 + i] = dist2(xi, xref, d);
                if (c->indep) v[SLPI_CONV_INDEP * nl1 + i] = dist2(xi, xind, d);
            }
        }
#undef LANE
        if (c->kind == SLPI_CONV_WEAK) {
            v[SLPI_CONV_PHI * nl1 + nl] = pref;
            if (c->indep) v[SLPI_CONV_SELF * nl1 + nl] = pref - ph[nl + 1];
        } else if (c->indep) {
            v[SLPI_CONV_SELF * nl1 + nl] = dist2(xref, xind, d);
        }
    }
    return SLPI_OK;
}
