/* stat.c — the calibrated statistical test of `slpi verify` beside the worst-case budget
 * (oracle/README.md#statistics has the rule and its derivation; slpi-tools.h
 * slpi_verify_stats the result). Per locally checked row (oracle/local.c), from the
 * port's previous row x over the k steps to it, with the increments dW of those steps:
 *
 *   r = (port - exact) / (k u s)            the certified local deviation, s = |exact|_max;
 *                                           when most rows' steps move the state by at
 *                                           most STEP_ULPS ulps of the format,
 *                                           (port - round_p(exact)) / (k u s) (below)
 *   P = F(x, dW), Pm = F(x, -dW), P0 = F(x, 0)   the fast path's k steps (F)
 *   directions: state P, drift P0 - x, even (P + Pm)/2 - P0, and the odd part
 *   (P - Pm)/2, or for 2 <= M <= 9 noise components in its place each component's odd
 *   part (P - P with dW_l negated)/2
 *   a_j = <r, d_j> / |d_j|                  r's projection on each direction
 *   twin t = (round_p(F(x (1 + e), dW (1 + e'))) - P) / (k u s), e, e' uniform in
 *   [-u, u] from a seed of the row's steps: a step whose inputs are rounded at u and
 *   whose outputs are stored in the format's p bits
 *
 * Pooled over rows (and files): the systematic test is each direction's t test of
 * |mean a_j| <= tau (the format's data, DATA_BIAS below; Bonferroni over the directions;
 * Hotelling's T^2 of mean 0 is reported beside it); the size test the one-sided t test of
 * mean(|r|^2 - (ENVELOPE m)^2 |t|^2) <= 0. The statistical verdict FAILs when either p-value is
 * <= alpha / 2 (Bonferroni). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/tools.h"
#include "slpi/problem-shape.h"
#include "core/view-grid.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "oracle/oracle.h"

/* The size test's envelope: a correct port's RMS deviation is at most ENVELOPE m times
 * the twin's, m = ceil(sqrt(dim)) the order of the matrices of the state (the m of the
 * budget's unit k m u; oracle/README.md#statistics: fixed before any planted defect was
 * run). */
#define ENVELOPE 2.0
/* The effect per step, in u |x|, the test should detect with 90 % power (the issue's
 * goal at binary32); less power is LOW-POWER. */
#define TARGET_EFFECT 1.0
/* A step that moves the state by a few ulps of the format is biased by its last rounding
 * whoever computes it: rounding x + D to nearest, x on the grid, loses the part of D
 * beyond the nearest grid point, so the error follows D (an increment below half an ulp
 * is lost whole), a mean of about -1/(12 sigma) u along D for a step of sigma ulps
 * (docs/power.md#rounding-amendment: measured on correct bfloat16 ports, where it is the
 * whole systematic part). When on most rows the exact step moves no coordinate by more
 * than STEP_ULPS ulps of the format at the state's scale, every row's deviation is taken
 * from the exact step rounded to the format, which is what the most accurate port
 * writes; beyond it the bias is below 1/(12 STEP_ULPS) = 8e-5 u per step, under what
 * 10^8 rows detect, and the deviations are taken from the exact step. Both are summed;
 * the choice is made once for the pooled rows. The bias is the last rounding's, so a
 * row counts as such a step only when the port's stored state is on the format's grid
 * (every coordinate within GRID_SLACK ulps of the format of a grid point): a port that
 * computes wider or stores wider than it declares (binary64 declared at u = 2^-3; a
 * float32 accumulation of bfloat16 products) has no such rounding and is judged
 * against the exact step (oracle/README.md#wider). */
#define STEP_ULPS 1024.0
/* Off the grid by more than this fraction of the format's ulp: stored wider (a text
 * file's decimal of a grid point is within 10^-6 relative, far below it; a wider
 * number is off by about 1/4 ulp on average, within it on a coordinate with
 * probability 2 GRID_SLACK). */
#define GRID_SLACK (1.0 / 64)
/* A correct port stores the problem's data (the step h, a moment of inertia, a noise
 * amplitude) in its format, each off by up to u relatively and the same on every step: a
 * term of the step's increment D carrying two of them is off by up to 2 u |term|, a
 * systematic deviation of up to DATA_BIAS u |D| per step that no rounding noise averages
 * away (docs/power.md#data-amendment: a noise amplitude of 0.1 stored in binary16, 0.5 u
 * low, is the whole systematic part of correct binary16 ports). Against the rounded step
 * (rows mostly exact, RMS near 0.07 u) 2000 steps resolve it, so there the systematic
 * test's null is a mean of at most tau = DATA_BIAS |D|_2 / (sqrt(k) s) u per step along
 * each direction (|D| / sqrt(k): a k-step row's net move may be a random walk's). */
#define DATA_BIAS 2.0
/* The directions are the double path's steps from the row's state and increments each
 * moved relatively by a uniform number in [-DIR_SHIFT, DIR_SHIFT]: computed from the
 * port's own inputs they would share its rounding errors when it computes as the double
 * path does (slpi itself), a bias <e, e_d> / |d| of the mean projection on every row, of
 * the order of u per step on a small direction (docs/power.md#sizes-amendment: slpi's own
 * su(64) FAILed at p = 1e-72); moved, they shift by about DIR_SHIFT of themselves. */
#define DIR_SHIFT 0x1p-30
/* A correct port stores the scheme's constants in its format, each off by up to u and
 * the same on every step: the increment D moves by its response to them, which is not
 * proportional to |D| where D is a difference of large terms. Measured per row by the
 * response to the inputs (state and increments) each moved relatively by +-CONST_SHIFT,
 * scaled by u / CONST_SHIFT, times sqrt(m) for the alignment that the random signs let
 * cancel over the m terms of a product (docs/power.md#sizes-amendment): tau's second term. */
#define CONST_SHIFT 0x1p-20
/* A unit that flushes subnormals (slpi_precision.flush, +ftz) holds a value below the
 * smallest normal N_min as 0: off by up to N_min absolutely, not relatively. Measured per
 * row as the constants are, by the response to the inputs each moved by +-N_min (random
 * signs; lost in the inputs' own rounding where N_min is far below u s), times sqrt(m):
 * tau's third term (docs/power.md#tf32-rule). */
/* The port's declared solver stop on a row (docs/power.md#stop-rule): a solve stopped when
 * an update is at most T = tol * max(1, |unknown|max) (tol * |h| * |unknown|max under
 * tol_scale=step; docs/schemes.md#solver) leaves a residue the test may resolve, which the
 * null (the exact scheme) does not hold. Stated, never judged: T / (u s) per step, the
 * unknown's norm read as the row's starting state's (ISOMP's unknown is the midpoint),
 * 0 under fixed_iters (the map is its sweeps) and for the explicit schemes. */
static double declared_stop(const slpi_problem *p, const double *x, int dim)
{
    const slpi_solver_view *sol = slpi_view_solver(p);
    slpi_scheme_id id = slpi_view_scheme(p)->scheme;
    if (sol->fixed_iters > 0 || id == SLPI_SCHEME_RKMK_LE || id == SLPI_SCHEME_RKMK_HEUN) return 0.0;
    double xn = 0;
    for (int i = 0; i < dim; i++) xn = fmax(xn, fabs(x[i]));
    return sol->tol * (sol->tol_scale == SLPI_TOL_STEP ? fabs(slpi_view_grid(p)->h) * xn : fmax(1.0, xn));
}

/* Rows needed beyond the directions before T^2 means anything. */
#define MIN_EXTRA_ROWS 10

static const char *const dir_names[] = {
    "state",   "drift",   "even",    "noise 1", "noise 2", "noise 3",
    "noise 4", "noise 5", "noise 6", "noise 7", "noise 8", "noise 9",
};
_Static_assert(sizeof dir_names / sizeof *dir_names == SLPI_STAT_DIRS, "a name per direction");

/* The directions for M noise components: state, drift, even, then the odd part of each
 * component (*split, 2 <= M <= 9) or of all of them together ("odd"). */
int slpi_oracle_stat_dirs(int M, int *split)
{
    *split = M >= 2 && M <= SLPI_STAT_DIRS - 3;
    return *split ? 3 + M : 4;
}

const char *slpi_oracle_stat_dir_name(int j, int split)
{
    return j == 3 && !split ? "odd" : dir_names[j];
}

static uint64_t mix64(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A uniform number in [-1, 1) from the counter *c. */
static double uniform_pm1(uint64_t *c)
{
    *c = mix64(*c);
    return (double)(*c >> 11) * 0x1p-52 - 1.0;
}

static double round_bits(double x, int bits)
{
    if (x == 0 || !isfinite(x) || bits >= 53) return x;
    int e;
    frexp(x, &e);
    return ldexp(nearbyint(ldexp(x, bits - e)), e - bits);
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

int slpi_oracle_stat_resolves(const slpi_oracle_port *port, arb_srcptr x, long k, double frac)
{
    double s = 0, rad = 0;
    for (int i = 0; i < port->dim; i++) {
        s = fmax(s, fabs(arf_get_d(arb_midref(x + i), ARF_RND_NEAR)));
        rad = fmax(rad, mag_get_d(arb_radref(x + i)));
    }
    return s > 0 && rad <= frac * (double)k * port->precision.u * s;
}

enum { MOVE_UNIFORM, MOVE_SIGN, MOVE_ABSOLUTE };
/* xs = x and dws = dw (kM of them) each moved relatively by eta times a uniform number
 * in [-1, 1) (MOVE_UNIFORM), relatively by +-eta (MOVE_SIGN) or absolutely by +-eta
 * (MOVE_ABSOLUTE), drawn from the counter *c. */
static void moved(double *xs, double *dws, const double *x, const double *dw, int dim, long kM, double eta, int how,
                  uint64_t *c)
{
    for (int i = 0; i < dim + kM; i++) {
        double v = uniform_pm1(c);
        if (how != MOVE_UNIFORM) v = v < 0 ? -1.0 : 1.0;
        double *to = i < dim ? xs + i : dws + (i - dim), from = i < dim ? x[i] : dw[i - dim];
        *to = how == MOVE_ABSOLUTE ? from + eta * v : from * (1 + eta * v);
    }
}

/* |D(xs, dws) - D(x, dw)|^2 for the moved inputs xs, dws (moved()), D the increment of
 * the double path's step (P: from the row's own inputs); -1 when the step fails. */
static double response2(slpi_fast *f, const slpi_oracle_local_row *lr, int M, const double *ones, const double *P,
                        const double *xs, const double *dws, double *Ps, int dim, int *nomem)
{
    if (slpi_oracle_fast_steps(f, lr, xs, dws, M, ones, Ps, dim, nomem) != 0) return -1;
    double r2 = 0;
    for (int i = 0; i < dim; i++) {
        double q = (Ps[i] - xs[i]) - (P[i] - lr->start[i]);
        r2 += q * q;
    }
    return r2;
}

/* The row's fingerprint for the copies rule (oracle/stat-copies.c): the exact step's
 * projections on SLPI_STAT_COPY_PROJ fixed vectors of random signs (the same for every
 * row and run), and the spread COPY_ULPS sqrt(dim) ulps of the format at the state's scale
 * s within which rows of the same steps are copies (docs/power.md#copies-amendment). */
#define COPY_ULPS 16.0
static void copy_fingerprint(double *out, arb_srcptr x, int dim, double s, int bits)
{
    for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) out[q] = 0;
    for (int i = 0; i < dim; i++) { /* coordinate i's signs: the high bits of one hash of i */
        uint64_t b = mix64(UINT64_C(0xc0b1e5) ^ (uint64_t)i);
        double xi = arf_get_d(arb_midref(x + i), ARF_RND_NEAR);
        for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) out[q] += (b >> (63 - q) & 1 ? -xi : xi);
    }
    out[SLPI_STAT_COPY_PROJ] = COPY_ULPS * sqrt((double)dim) * slpi_precision_ulp(s, bits);
}

void slpi_oracle_stat_row(slpi_fast *f, const slpi_oracle_port *port, const slpi_oracle_local_row *lr, const double *dw,
                          arb_srcptr x, const double *known, double *out)
{
    int dim = port->dim, M = slpi_problem_noise_count(port->p), split;
    int J = slpi_oracle_stat_dirs(M, &split);
    long k = lr->to - lr->from;
    memset(out, 0, SLPI_STAT_FIELDS * sizeof *out);
    if (k < 1) return;
    /* a row enters the test when its reference knows its deviation to a thousandth of a
     * unit (a certified ball at 53 bits, prec=53, does not) */
    if (!slpi_oracle_stat_resolves(port, x, k, SLPI_STAT_RESOLUTION)) return;
    double s = 0;
    for (int i = 0; i < dim; i++) s = fmax(s, fabs(arf_get_d(arb_midref(x + i), ARF_RND_NEAR)));
    double *w = malloc(((size_t)(10 + J) * (size_t)dim + (size_t)M * (size_t)(2 * k + 2)) * sizeof(double));
    if (!w) {
        out[0] = SLPI_STAT_NOMEM; /* an error, not a row left out (slpi_oracle_local) */
        return;
    }
    int nomem = 0;
    double *r = w, *rr = r + dim, *P = rr + dim, *Pm = P + dim, *P0 = Pm + dim, *T = P0 + dim, *dir = T + dim;
    double *tmp = dir + (size_t)J * dim, *ones = tmp + dim, *mult = ones + M, *dwt = mult + M;
    double *Ps = dwt + (size_t)k * M, *xs = Ps + dim, *dws = xs + dim; /* moved inputs, their steps */
    double unit = (double)k * port->precision.u * s, step = 0, move2 = 0;
    int bits = port->precision.bits;
    arf_t e, ref; /* port - exact, and port - exact rounded to p bits: exactly, then rounded once */
    arf_init(e);
    arf_init(ref);
    int on_grid = 1; /* the stored state on the format's grid (STEP_ULPS) */
    for (int i = 0; i < dim; i++) {
        double di = arf_get_d(arb_midref(x + i), ARF_RND_NEAR) - lr->start[i];
        double g = round_bits(lr->state[i], bits);
        on_grid &= fabs(g - lr->state[i]) <= GRID_SLACK * slpi_precision_ulp(fabs(g), bits);
        step = fmax(step, fabs(di));
        move2 += di * di;
        arf_set_d(e, lr->state[i]);
        arf_sub(e, e, arb_midref(x + i), ARF_PREC_EXACT, ARF_RND_NEAR);
        r[i] = arf_get_d(e, ARF_RND_NEAR) / unit;
        arf_set_round(ref, arb_midref(x + i), bits, ARF_RND_NEAR);
        arf_set_d(e, lr->state[i]);
        arf_sub(e, e, ref, ARF_PREC_EXACT, ARF_RND_NEAR);
        rr[i] = arf_get_d(e, ARF_RND_NEAR) / unit;
    }
    arf_clear(e);
    arf_clear(ref);
    for (int l = 0; l < M; l++) ones[l] = 1.0, mult[l] = -1.0;
    /* the directions, from the inputs moved by DIR_SHIFT: rounding errors not the port's */
    uint64_t c = mix64((uint64_t)lr->to * UINT64_C(0x100000001b3) ^ (uint64_t)lr->from), cd = mix64(c ^ 0xd1);
    moved(xs, dws, lr->start, dw, dim, k * M, DIR_SHIFT, MOVE_UNIFORM, &cd);
    if (known) memcpy(P, known, (size_t)dim * sizeof *P); /* the caller's: the same steps, computed once */
    int ok = (known || slpi_oracle_fast_steps(f, lr, lr->start, dw, M, ones, P, dim, &nomem) == 0) &&
        slpi_oracle_fast_steps(f, lr, xs, dws, M, ones, Ps, dim, &nomem) == 0 &&
        slpi_oracle_fast_steps(f, lr, xs, dws, M, mult, Pm, dim, &nomem) == 0;
    for (int l = 0; l < M; l++) mult[l] = 0.0;
    ok = ok && slpi_oracle_fast_steps(f, lr, xs, dws, M, mult, P0, dim, &nomem) == 0;
    for (int i = 0; ok && i < dim; i++) {
        dir[i] = Ps[i];
        dir[dim + i] = P0[i] - xs[i];
        dir[2 * dim + i] = (Ps[i] + Pm[i]) / 2 - P0[i];
        dir[3 * dim + i] = (Ps[i] - Pm[i]) / 2;
    }
    for (int l = 0; split && ok && l < M; l++) { /* each component's odd part */
        for (int j = 0; j < M; j++) mult[j] = j == l ? -1.0 : 1.0;
        ok = slpi_oracle_fast_steps(f, lr, xs, dws, M, mult, tmp, dim, &nomem) == 0;
        for (int i = 0; ok && i < dim; i++) dir[(size_t)(3 + l) * dim + i] = (Ps[i] - tmp[i]) / 2;
    }
    /* the constants' response: the increment's change for inputs moved by +-CONST_SHIFT;
     * a flushing unit's, for inputs moved by +-flush absolutely */
    uint64_t cc = mix64(c ^ 0xc0);
    moved(xs, dws, lr->start, dw, dim, k * M, CONST_SHIFT, MOVE_SIGN, &cc);
    double resp2 = ok ? response2(f, lr, M, ones, P, xs, dws, Ps, dim, &nomem) : -1, flush2 = 0;
    double flush = port->precision.flush;
    if (flush > 0 && resp2 >= 0) {
        moved(xs, dws, lr->start, dw, dim, k * M, flush, MOVE_ABSOLUTE, &cc);
        flush2 = response2(f, lr, M, ones, P, xs, dws, Ps, dim, &nomem);
    }
    ok = ok && resp2 >= 0 && flush2 >= 0;
    /* the twin: inputs rounded at u (relative, uniform), outputs to the format's bits */
    double u = port->precision.u;
    for (int i = 0; i < dim; i++) tmp[i] = lr->start[i] * (1 + u * uniform_pm1(&c));
    for (long n = 0; n < k * M; n++) dwt[n] = dw[n] * (1 + u * uniform_pm1(&c));
    ok = ok && slpi_oracle_fast_steps(f, lr, tmp, dwt, M, ones, T, dim, &nomem) == 0;
    if (ok) {
        double r2 = dot(r, r, dim), t2 = 0;
        for (int i = 0; i < dim; i++) {
            double ti = (round_bits(T[i], port->precision.bits) - P[i]) / unit;
            t2 += ti * ti;
        }
        out[0] = on_grid && step <= STEP_ULPS * slpi_precision_ulp(s, bits) ? 2 : 1;
        double *outr = out + 3 + SLPI_STAT_DIRS;
        for (int j = 0; j < J; j++) {
            double nd = sqrt(dot(dir + (size_t)j * dim, dir + (size_t)j * dim, dim));
            int use = nd > 0 && isfinite(nd);
            out[1 + j] = use ? dot(r, dir + (size_t)j * dim, dim) / nd : 0.0;
            outr[j] = use ? dot(rr, dir + (size_t)j * dim, dim) / nd : 0.0;
        }
        out[1 + SLPI_STAT_DIRS] = r2;
        out[2 + SLPI_STAT_DIRS] = t2;
        outr[SLPI_STAT_DIRS] = dot(rr, rr, dim);
        double m = ceil(sqrt((double)dim));
        outr[SLPI_STAT_DIRS + 1] = /* tau of the row: the data's, the constants', the flush's */
            (DATA_BIAS * sqrt(move2) + sqrt(m * resp2) / CONST_SHIFT + sqrt(m * flush2) / port->precision.u) /
            (sqrt((double)k) * s);
        out[SLPI_STAT_STOP_FIELD] = declared_stop(port->p, lr->start, dim) / (port->precision.u * s);
        copy_fingerprint(out + SLPI_STAT_COPY_FIELD, x, dim, s, bits);
        if (port->diagnose) /* the diagnosis's pass only (oracle/verify.c): out of the test otherwise */
            slpi_oracle_diag_row(f, lr, dw, M, r, rr, unit, dim, out + SLPI_DIAG_OFFSET, &nomem);
        else
            out[SLPI_DIAG_OFFSET] = -1;
    }
    if (nomem) out[0] = SLPI_STAT_NOMEM;
    free(w);
}

void slpi_oracle_stat_init(slpi_verify_stats *st, int M, int dim, double alpha)
{
    memset(st, 0, sizeof *st);
    st->envelope = ENVELOPE * ceil(sqrt((double)(dim > 0 ? dim : 1)));
    int split;
    st->dirs = slpi_oracle_stat_dirs(M, &split);
    for (int j = 0; j < st->dirs; j++) st->dir_name[j] = slpi_oracle_stat_dir_name(j, split);
    st->alpha = alpha;
    st->verdict = SLPI_VERDICT_UNABLE;
    st->which = st->effect_direction = "";
    st->reference = "certified";
}

int slpi_oracle_stat_add(slpi_verify_stats *st, long from, long to, const double *row)
{
    if (row[0] != 1 && row[0] != 2) return 0;
    st->rows++;
    st->rows_small += row[0] == 2;
    st->rows_arb_reference += row[SLPI_STAT_ARB_FIELD] != 0;
    st->declared_stop_u = fmax(st->declared_stop_u, row[SLPI_STAT_STOP_FIELD]);
    slpi_oracle_stat_row_into(&st->exact, &st->rounded, &st->t2_sum, &st->tau_sum, row, st->dirs, st->envelope);
    slpi_oracle_diag_add(&st->diag, row + SLPI_DIAG_OFFSET);
    return slpi_oracle_copies_add(&st->copies, from, to, row, st->dirs, st->envelope);
}

int slpi_oracle_stat_merge(slpi_verify_stats *to, slpi_verify_stats *from)
{
    to->rows += from->rows;
    to->rows_small += from->rows_small;
    to->rows_arb_reference += from->rows_arb_reference;
    to->tau_sum += from->tau_sum;
    to->declared_stop_u = fmax(to->declared_stop_u, from->declared_stop_u);
    slpi_oracle_stat_sums_merge(&to->exact, &from->exact);
    slpi_oracle_stat_sums_merge(&to->rounded, &from->rounded);
    to->t2_sum += from->t2_sum;
    slpi_oracle_diag_merge(&to->diag, &from->diag);
    struct slpi_stat_copies *t = from->copies;
    from->copies = NULL;
    return slpi_oracle_copies_merge(&to->copies, t, to->dirs, to->envelope);
}

/* P(chi^2_J > c) = Q(J/2, c/2), the regularized upper incomplete gamma function. */
static double chi2_tail(double c, int J)
{
    arb_t r, s, z;
    arb_init(r);
    arb_init(s);
    arb_init(z);
    arb_set_d(s, J / 2.0);
    arb_set_d(z, c / 2);
    arb_hypgeom_gamma_upper(r, s, z, 1, 128);
    double p = arf_get_d(arb_midref(r), ARF_RND_NEAR);
    arb_clear(r);
    arb_clear(s);
    arb_clear(z);
    return p;
}

/* The alpha-quantile c of chi^2_J (its upper tail alpha). */
static double chi2_quantile(int J, double alpha)
{
    double lo = 0, hi = 1e4;
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2;
        if (chi2_tail(mid, J) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The probability that chi^2_J(lambda) exceeds c, by the normal approximation of the
 * noncentral chi^2 (mean J + lambda, variance 2 (J + 2 lambda)). */
static double power_of(int J, double c, double lam)
{
    return 0.5 * erfc(-(J + lam - c) / sqrt(2 * (J + 2 * lam)) / sqrt(2.0));
}

/* The noncentrality lambda at which chi^2_J(lambda) exceeds the alpha-quantile of chi^2_J
 * with probability 0.9 (power_of). */
static double lambda90(int J, double alpha)
{
    double c = chi2_quantile(J, alpha), l0 = 0, l1 = 1e6;
    for (int i = 0; i < 100; i++) {
        double lam = (l0 + l1) / 2;
        if (J + lam - 1.2815515655446004 * sqrt(2 * (J + 2 * lam)) < c) /* power_of(J, c, lam) < 0.9 */
            l0 = lam;
        else
            l1 = lam;
    }
    return l1;
}

/* Hotelling's T^2 of the pooled mean of the projections: the centred cross products W,
 * Cholesky-factored with the directions that are (nearly) combinations of the ones
 * before dropped (a direction that is zero for this scheme: no drift, no even part).
 * Reported for the record only: the systematic p-value is tolerant()'s. */
static void hotelling(slpi_verify_stats *st, const slpi_verify_sums *S)
{
    int J = st->dirs;
    double n = (double)st->observations, L[SLPI_STAT_DIRS][SLPI_STAT_DIRS], y[SLPI_STAT_DIRS];
    int keep[SLPI_STAT_DIRS], m = 0;
    for (int i = 0; i < J; i++) {
        double wii = S->cross[i * SLPI_STAT_DIRS + i] - S->sum[i] * S->sum[i] / n;
        double row[SLPI_STAT_DIRS];
        for (int k = 0; k < m; k++) {
            double wik = S->cross[i * SLPI_STAT_DIRS + keep[k]] - S->sum[i] * S->sum[keep[k]] / n;
            for (int q = 0; q < k; q++) wik -= row[q] * L[k][q];
            row[k] = wik / L[k][k];
        }
        double d = wii;
        for (int k = 0; k < m; k++) d -= row[k] * row[k];
        if (!(wii > 0) || !(d > 1e-10 * wii)) continue;
        for (int k = 0; k < m; k++) L[m][k] = row[k];
        L[m][m] = sqrt(d);
        keep[m++] = i;
    }
    double q = 0;
    for (int k = 0; k < m; k++) {
        double v = S->sum[keep[k]] / n;
        for (int j = 0; j < k; j++) v -= L[k][j] * y[j];
        y[k] = v / L[k][k];
        q += y[k] * y[k];
    }
    st->t2 = n * (n - 1) * q;
}

/* Direction j's mean a and sample variance v over the n pooled rows. */
static void dir_moments(double *a, double *v, const slpi_verify_sums *S, int j, double n)
{
    *a = S->sum[j] / n;
    *v = (S->cross[j * SLPI_STAT_DIRS + j] - n * *a * *a) / (n - 1);
}

/* Against the rounded step: the null |mean a_j| <= tau for every direction (the format's
 * data, DATA_BIAS), each direction's two-sided t test of the excess (|mean| - tau)+ /
 * its standard error, p = m times the smallest (Bonferroni over the m directions of
 * positive variance): valid, since |mean - mu_j| >= |mean| - tau when |mu_j| <= tau.
 * statistic: the largest excess t. T^2 stays the one of mean 0, for the record. */
static void tolerant(slpi_verify_stats *st, const slpi_verify_sums *S, int *used)
{
    double n = (double)st->observations, pmin = 1.0, tmax = 0;
    int m = 0;
    st->tolerance_u = st->tau_sum / n;
    for (int j = 0; j < st->dirs; j++) {
        double a, v;
        dir_moments(&a, &v, S, j, n);
        if (!(v > 0)) { /* every row's projection is the mean: beyond tau it is certain */
            pmin = fabs(a) > st->tolerance_u ? 0.0 : pmin;
            continue;
        }
        m++;
        double t = fmax(fabs(a) - st->tolerance_u, 0) / sqrt(v / n);
        tmax = fmax(tmax, t);
        pmin = fmin(pmin, slpi_oracle_f_tail(t * t, 1, n - 1));
    }
    *used = m;
    st->tol_t = tmax;
    st->p_systematic = pmin == 0 ? 0.0 : fmin(1.0, (m > 0 ? m : 1) * pmin); /* m = 0: r = 0 on every row */
}

void slpi_oracle_stat_finish(slpi_verify_stats *st, int paths)
{
    st->paths = paths;
    st->verdict = SLPI_VERDICT_UNABLE;
    st->detectable_effect_u = INFINITY;
    st->power_target = 0;
    st->p_value = st->p_systematic = st->p_size = 1.0;
    slpi_oracle_copies_apply(st); /* copies are one observation (docs/power.md#copies-amendment) */
    double n = (double)st->observations;
    if (st->observations < st->dirs + MIN_EXTRA_ROWS) return;
    st->against_rounded = 2 * st->rows_small > st->rows;
    const slpi_verify_sums *S = st->against_rounded ? &st->rounded : &st->exact;
    int m = 0;
    hotelling(st, S);
    tolerant(st, S, &m); /* the format's data allow tau in both forms (docs/power.md#shapes-amendment) */
    st->rms_u = sqrt(S->r2_sum / n);
    st->twin_rms_u = sqrt(st->t2_sum / n);
    double mean = S->size_sum / n, var = (S->size_sq - n * mean * mean) / (n - 1);
    st->size_t = var > 0 ? mean / sqrt(var / n) : mean > 0 ? INFINITY : 0.0;
    st->p_size = var > 0 ? 0.5 * erfc(st->size_t / sqrt(2.0)) : mean > 0 ? 0.0 : 1.0;
    int sys = st->p_systematic <= st->p_size;
    st->which = sys ? "systematic" : "size";
    st->statistic = sys ? st->tol_t : st->size_t; /* the statistic its p-value is of */
    st->p_value = sys ? st->p_systematic : st->p_size;
    /* the effect: the largest mean projection; the detectable one: the largest
     * sqrt(lambda90 / n) sigma_j over the directions T^2 used */
    int J = m > 0 ? m : 1;
    double lam = lambda90(J, st->alpha / 2), tau = st->tolerance_u, c = chi2_quantile(J, st->alpha / 2);
    st->detectable_effect_u = 0;
    st->power_target = 1; /* the least over the directions: of the worst-resolved one */
    for (int j = 0; j < st->dirs; j++) {
        double a, v;
        dir_moments(&a, &v, S, j, n);
        if (fabs(a) > fabs(st->effect_per_step_u) || j == 0) {
            st->effect_per_step_u = a;
            st->effect_direction = st->dir_name[j];
        }
        if (!(v > 0)) continue;
        st->detectable_effect_u = fmax(st->detectable_effect_u, tau + sqrt(lam / n * v));
        double e = fmax(TARGET_EFFECT - tau, 0); /* TARGET_EFFECT's excess over tau */
        st->power_target = fmin(st->power_target, power_of(J, c, n * e * e / v));
    }
    if (st->p_value <= st->alpha / 2)
        st->verdict = SLPI_VERDICT_FAIL;
    else if (st->detectable_effect_u <= TARGET_EFFECT)
        st->verdict = SLPI_VERDICT_PASS;
    slpi_oracle_diag_finish(&st->diag, st->against_rounded, S->r2_sum, st->alpha, st->verdict == SLPI_VERDICT_FAIL);
}

int slpi_verify_stat_reference(int *used, int asked, const slpi_precision *precision, int dim, slpi_error *err)
{
    double bound = SLPI_ORACLE_THRESHOLD * ceil(sqrt((double)(dim > 0 ? dim : 1))) * 0x1p-53;
    int allowed = bound <= SLPI_STAT_REF_FRACTION * precision->u;
    *used = asked == SLPI_STAT_REF_AUTO ? (allowed ? SLPI_STAT_REF_DOUBLE : SLPI_STAT_REF_ACCURATE) : asked;
    if (asked == SLPI_STAT_REF_DOUBLE && !allowed)
        return slpi_error_set(err, SLPI_EINPUT,
                              "--stat-reference double: the double path's error bound K m 2^-53 = %.3g (K = %g, m = "
                              "%.0f) exceeds %g u = %.3g at --precision %s: its statistics need the accurate or the "
                              "certified reference (docs/power.md#reference-rule)",
                              bound, SLPI_ORACLE_THRESHOLD, ceil(sqrt((double)(dim > 0 ? dim : 1))),
                              SLPI_STAT_REF_FRACTION, SLPI_STAT_REF_FRACTION * precision->u, precision->name);
    return SLPI_OK;
}

const char *slpi_verify_stat_verdict_name(slpi_verdict v)
{
    return v == SLPI_VERDICT_UNABLE ? "LOW-POWER" : slpi_verdict_name(v);
}
