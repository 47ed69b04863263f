/* noise-ou.c — Ornstein–Uhlenbeck (coloured) transport noise (docs/noise.md#ou): the
 * key noise_tau (a correlation time per noise Hamiltonian), the exactly discretised OU
 * process driven by the canonical stream, and its increments at any level.
 *
 * ---- The contract (docs/noise.md#ou states it with its derivation) -------------------
 * Component k with correlation time tau > 0 replaces the Wiener increment by the exact
 * integral Y of the OU process eta, d eta = -eta/tau dt + dW/tau, over the step. On the
 * fine grid delta = h 2^-refine, fine index j (0, 1, ...):
 *   w_j   = the canonical fine white increment sqrt(delta) Z_j (stream (seed, path, k))
 *   z_j   = normal j + 1 of stream (seed, path, 2^31 + k)  (the OU stream)
 *   eta_0 = s0 * (normal 0 of the OU stream)              (stationary start)
 *   Y_j       = (g w_j + q eta_j) - r z_j
 *   eta_{j+1} = (a eta_j + c w_j) + s z_j
 * in binary64, round to nearest, no contraction, in this order, with the coefficients
 * (x = delta/tau, e = exp(-x), all exact reals, each rounded to nearest binary64 from an
 * Arb ball whose precision is raised until the rounding is unambiguous):
 *   a = e (0 when x > 708)   c = (1 - e)/delta   s = sqrt((1 - e^2)/(2 tau) - (1 - e)^2/delta)
 *   g = 1 - (1 - e)/x        q = tau (1 - e)      r = tau s        s0 = sqrt(1/(2 tau))
 * The increment of step n at (h, refine) is the dyadic pairwise binary64 sum of Y_j,
 * j = n 2^refine .. (n+1) 2^refine - 1 (the white hierarchy's tree), truncated per level
 * as white increments are. tau = 0: the white increment, bit for bit.
 */
#include "slpi/errors.h"
#include "slpi/noise.h"
#include "slpi/process.h"
#include "slpi/problem-shape.h"
#include "core/problem-struct.h"
#include "core/noise.h"
#include "core/parse.h"
#include "core/slpi-flint.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Fine values produced at once: a chunk of the tree sum (core/noise.h). */
#define OU_CHUNK (1 << SLPI_NOISE_CHUNK_LOG)
/* The interrupt flag (core/interrupt.c) is polled after every OU_POLL fine values, as
 * slpi_noise_increments polls its draws (core/noise-levels.c): one step at refine 24 is
 * 2^24 of them, a tenth of a second, and a source's block of steps many seconds. */
#define OU_POLL (1 << 20)

/* ---------------------------------------------------------------- the key */

/* slpi_noise_tau_parse, which the key's setter calls, is in core/parse.c (core/noise.h). */

int slpi_problem_noise_tau(const slpi_problem *p, double *tau, slpi_error *err)
{
    const int M = slpi_problem_noise_count(p);
    for (int k = 0; k < M; k++) tau[k] = 0;
    if (!p->noise.noise_tau[0]) return 0;
    double t[SLPI_NOISE_TAU_MAX];
    int n = slpi_noise_tau_parse(p->noise.noise_tau, t, SLPI_NOISE_TAU_MAX, err);
    if (n < 0) return -1;
    if (n != 1 && n != M) {
        slpi_error_set(err, SLPI_EINPUT,
                       "noise_tau=%.80s: %d values, the problem has %d noise Hamiltonians: give "
                       "one tau for all or one per Hamiltonian",
                       p->noise.noise_tau, n, M);
        return -1;
    }
    int any = 0;
    for (int k = 0; k < M; k++) {
        tau[k] = t[n == 1 ? 0 : k];
        any |= tau[k] > 0;
    }
    return any;
}

int slpi_problem_white_only(const slpi_problem *p, const char *who, slpi_error *err)
{
    if (!p->noise.noise_tau[0]) return SLPI_OK;
    double tau[SLPI_NOISE_TAU_MAX];
    int n = slpi_noise_tau_parse(p->noise.noise_tau, tau, SLPI_NOISE_TAU_MAX, err), any = 0;
    if (n < 0) return SLPI_EINPUT;
    for (int k = 0; k < n; k++) any |= tau[k] > 0;
    if (any)
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s is for white noise only; noise_tau=%.80s makes the noise coloured "
                              "(docs/noise.md#ou): drop noise_tau",
                              who, p->noise.noise_tau);
    return SLPI_OK;
}

/* ---------------------------------------------------------- coefficients */

/* The round-to-nearest binary64 of the exact value in v when both ends of the ball round
 * to the same double (rounding is monotone, so every point between does too). */
static int round_d(const arb_t v, double *out)
{
    if (!arb_is_finite(v)) return 0;
    arf_t lo, hi;
    arf_init(lo), arf_init(hi);
    arb_get_lbound_arf(lo, v, 8192); /* directed: still bounds */
    arb_get_ubound_arf(hi, v, 8192);
    const double a = arf_get_d(lo, ARF_RND_NEAR), b = arf_get_d(hi, ARF_RND_NEAR);
    arf_clear(lo), arf_clear(hi);
    if (a != b || !isfinite(a)) return 0;
    *out = a;
    return 1;
}

int slpi_noise_ou_coef(slpi_ou_coef *o, double tau, double delta)
{
    memset(o, 0, sizeof *o);
    o->tau = tau;
    if (!(tau > 0) || !(delta > 0) || !isfinite(tau) || !isfinite(delta)) return -1;
    arb_t x, e, om, v, w, t, d;
    arb_init(x), arb_init(e), arb_init(om), arb_init(v), arb_init(w), arb_init(t), arb_init(d);
    int ok = 0;
    const int flush = delta / tau > 708; /* a = 0 (docs/noise.md#ou): x > 708, decided in binary64 */
    for (slong prec = 128; prec <= 8192 && !ok; prec *= 2) {
        arb_set_d(t, tau);
        arb_set_d(d, delta);
        arb_div(x, d, t, prec);
        arb_neg(e, x);
        arb_exp(e, e, prec); /* e = exp(-x) */
        arb_sub_si(om, e, 1, prec);
        arb_neg(om, om); /* 1 - e */
        ok = flush ? (o->a = 0, 1) : round_d(e, &o->a);
        arb_div(v, om, d, prec);
        ok = ok && round_d(v, &o->c); /* (1 - e)/delta */
        arb_mul(v, e, e, prec);
        arb_sub_si(v, v, 1, prec);
        arb_neg(v, v);
        arb_div(v, v, t, prec);
        arb_mul_2exp_si(v, v, -1); /* (1 - e^2)/(2 tau) */
        arb_mul(w, om, om, prec);
        arb_div(w, w, d, prec);
        arb_sub(v, v, w, prec);
        if (!arb_is_positive(v)) {
            ok = 0;
            continue;
        }
        arb_sqrt(v, v, prec); /* s */
        ok = ok && round_d(v, &o->s);
        arb_mul(v, v, t, prec);
        ok = ok && round_d(v, &o->r); /* tau s */
        arb_div(v, om, x, prec);
        arb_sub_si(v, v, 1, prec);
        arb_neg(v, v);
        ok = ok && round_d(v, &o->g); /* 1 - (1 - e)/x */
        arb_mul(v, om, t, prec);
        ok = ok && round_d(v, &o->q); /* tau (1 - e) */
        arb_mul_2exp_si(v, t, 1);
        arb_inv(v, v, prec);
        arb_sqrt(v, v, prec);
        ok = ok && round_d(v, &o->s0); /* sqrt(1/(2 tau)) */
    }
    arb_clear(x), arb_clear(e), arb_clear(om), arb_clear(v), arb_clear(w), arb_clear(t), arb_clear(d);
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------- the process */

double slpi_noise_ou_start(uint64_t seed, uint64_t path, uint32_t component, const slpi_ou_coef *o)
{
    return o->s0 * slpi_noise_normal(seed, path, SLPI_NOISE_OU_STREAM + component, 0);
}

/* Y_j and eta_{j+1} for the len fine values w[i], z[i] from *eta (y may be w). */
static void ou_fine(const slpi_ou_coef *o, const double *w, const double *z, size_t len, double *eta, double *y)
{
    double e = *eta;
    for (size_t i = 0; i < len; i++) {
        const double wi = w[i], zi = z[i];
        const double yi = (o->g * wi + o->q * e) - o->r * zi;
        e = (o->a * e + o->c * wi) + o->s * zi;
        y[i] = yi;
    }
    *eta = e;
}

int slpi_noise_ou_steps(uint64_t seed, uint64_t path, uint32_t component, double h, int refine, const slpi_ou_coef *o,
                        uint64_t first, size_t count, double *eta, double *out, double *eta_at, slpi_error *err)
{
    if (refine < 0 || refine > SLPI_NOISE_MAX_REFINE || first >= (UINT64_C(1) << (62 - refine)) ||
        count >= (UINT64_C(1) << (62 - refine)) - first)
        return slpi_error_set(err, SLPI_EINPUT, "noise_tau: refine=%d, steps %llu..: out of range", refine,
                              (unsigned long long)first);
    const double delta = ldexp(h, -refine);
    slpi_noise_tree tree;
    slpi_noise_tree_init(&tree, refine);
    double w[OU_CHUNK], z[OU_CHUNK];
    uint64_t j = first << refine;
    const uint64_t end = (first + count) << refine;
    size_t n = 0;
    if (eta_at && count > 0) eta_at[0] = *eta;
    while (j < end) {
        if (j > first << refine && (j - (first << refine)) % OU_POLL == 0 && slpi_interrupt_pending())
            return slpi_error_set(err, SLPI_EINTR, "noise_tau: interrupted at step %llu",
                                  (unsigned long long)(first + n));
        const size_t len = end - j < OU_CHUNK ? (size_t)(end - j) : OU_CHUNK;
        int rc = slpi_noise_increments(seed, path, component, delta, 0, j, len, w, err);
        if (rc != SLPI_OK) return rc;
        slpi_noise_normals(seed, path, SLPI_NOISE_OU_STREAM + component, j + 1, len, z);
        j += len;
        if (eta_at && tree.outer == 0) { /* eta at each step's start: one step at a time */
            const size_t per = (size_t)1 << refine;
            for (size_t i = 0; i < len; i += per) {
                ou_fine(o, w + i, z + i, per, eta, w + i);
                if (n + i / per + 1 < count) eta_at[n + i / per + 1] = *eta;
            }
        } else {
            ou_fine(o, w, z, len, eta, w);
        }
        const size_t k = slpi_noise_tree_add(out + n, &tree, w, len);
        n += k;
        if (eta_at && tree.outer > 0 && k > 0 && n < count) eta_at[n] = *eta;
    }
    return SLPI_OK;
}

/* slpi_noise_levels for an OU component (core/noise.h): level 0 by slpi_noise_ou_steps at
 * refine 0, each level above by pairwise sums, as the white hierarchy. */
int slpi_noise_ou_levels(uint64_t seed, uint64_t path, size_t npaths, uint32_t component, double h, int nup,
                         const slpi_ou_coef *o, double *eta, uint64_t first, size_t count, double *const *lev,
                         slpi_error *err)
{
    const size_t stride = (size_t)nup + 1;
    for (size_t q = 0; q < npaths; q++) {
        double *const *l = lev + q * stride;
        int rc = slpi_noise_ou_steps(seed, path + q, component, h, 0, o, first, count, eta + q, l[0], NULL, err);
        if (rc != SLPI_OK) return rc;
        for (int i = 1; i <= nup; i++) {
            slpi_noise_pair_sums(l[i - 1], count >> i, l[i]);
        }
    }
    return SLPI_OK;
}
