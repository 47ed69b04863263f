
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "slpi/step.h"
#include "slpi/ensemble.h"
/* ensemble-model.h — the lock-step lanes of a model's ensembles (fast/model-lanes.c says
 * what and why), included after fast/ensemble-lanes.h by each of its instruction sets'
 * files, which define ENS_MODEL_FN, the entry point's name. A block of up to
 * SLPI_ENSEMBLE_BLOCK paths lives in slots of as many lanes (slpi_fast_model_soa.S); the
 * lane program and the so(3) blocks' iteration run over the registers (ENS_W lanes) that
 * still hold an active path. */
#define ENS_NV (SLPI_ENSEMBLE_BLOCK / ENS_W)

/* x^n by squaring: r = 1, b = x; per bit of n from the lowest, r *= b where it is set,
 * then b *= b (fast/model-tape.c's ipow for n >= 0, operation for operation). */
ENS_INLINE ens_vd ens_ipow(ens_vd x, unsigned n)
{
    ens_vd r = (ens_vd){ 0 } + 1.0, b = x;
    for (; n; n >>= 1, b = b * b)
        if (n & 1) r = r * b;
    return r;
}

/* The lane program on the registers vl[0..nvl), or on all (constant bounds: unrolled). */
ENS_INLINE void ens_program_on(const slpi_fast_model_soa *c, int q0, int q1, const int *vl, int nvl, const int all)
{
    ens_vd *S = (ens_vd *)__builtin_assume_aligned(c->S, 64);
    for (int q = q0; q < q1; q++) {
        const slpi_fast_lane_op *o = &c->prog[q];
        ens_vd *d = S + (size_t)o->d * ENS_NV;
        const ens_vd *a = S + (size_t)o->a * ENS_NV, *b = S + (size_t)o->b * ENS_NV, *e = S + (size_t)o->c * ENS_NV;
        const ens_vd *z = S + (size_t)o->acc * ENS_NV;                     /* the sum so far */
        const ens_vd nan = (ens_vd){ 0 } + NAN, kv = (ens_vd){ 0 } + o->k; /* kb: b's value */
#define ENS_EACH(stmt)                                                                                                 \
    do {                                                                                                               \
        for (int k = 0; k < (all ? ENS_NV : nvl); k++) {                                                               \
            const int v = all ? k : vl[k];                                                                             \
            stmt;                                                                                                      \
        }                                                                                                              \
    } while (0)
#define ENS_LANES(stmt)                                                                                                \
    do {                                                                                                               \
        for (int k = 0; k < (all ? ENS_NV : nvl); k++) {                                                               \
            const int v = all ? k : vl[k];                                                                             \
            for (int l = 0; l < ENS_W; l++) {                                                                          \
                stmt;                                                                                                  \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)
        switch (o->op) {
        case SLPI_LANE_ADD:
            ENS_EACH(d[v] = a[v] + b[v]);
            break;
        case SLPI_LANE_SUB:
            ENS_EACH(d[v] = a[v] - b[v]);
            break;
        case SLPI_LANE_MUL:
            if (o->kb)
                ENS_EACH(d[v] = a[v] * kv);
            else
                ENS_EACH(d[v] = a[v] * b[v]);
            break;
        case SLPI_LANE_NEG:
            ENS_EACH(d[v] = -a[v]);
            break;
        case SLPI_LANE_DIV:
            if (o->kb && o->k != 0)
                ENS_EACH(d[v] = a[v] / kv);
            else
                ENS_EACH(d[v] = ENS_SEL((b[v] < 0) | (b[v] > 0), a[v] / b[v], nan));
            break;
        case SLPI_LANE_SQR:
            ENS_EACH(d[v] = a[v] * a[v]);
            break;
        case SLPI_LANE_VALUE:
            ENS_LANES(d[v][l] = slpi_fast_tape_value(o->node, a[v][l], o->node->b >= 0 ? b[v][l] : 0));
            break;
        case SLPI_LANE_ACC:
            ENS_EACH(d[v] = z[v] + a[v]);
            break;
        case SLPI_LANE_DEC:
            ENS_EACH(d[v] = z[v] - a[v]);
            break;
        case SLPI_LANE_ACC_MUL:
            if (o->kb)
                ENS_EACH(d[v] = z[v] + a[v] * kv);
            else
                ENS_EACH(d[v] = z[v] + a[v] * b[v]);
            break;
        case SLPI_LANE_ACC_DIV:
            if (o->kb)
                ENS_EACH(d[v] = z[v] + a[v] / kv);
            else
                ENS_EACH(d[v] = z[v] + a[v] / b[v]);
            break;
        case SLPI_LANE_DEC_MULDIV:
            ENS_EACH(d[v] = z[v] - a[v] * b[v] / e[v]);
            break;
        case SLPI_LANE_ACC_SQR:
            ENS_EACH(d[v] = z[v] + 2 * a[v] * b[v]);
            break;
        case SLPI_LANE_ACC_DERIV:
            ENS_LANES(d[v][l] = z[v][l] + a[v][l] * slpi_fast_tape_deriv(o->node->op, o->node->arg, b[v][l], e[v][l]));
            break;
        case SLPI_LANE_ACC_POW_BASE: {
            const ens_vd *x = S + (size_t)o->e * ENS_NV;
            ENS_EACH(d[v] = z[v] + a[v] * b[v] * e[v] / x[v]);
            break;
        }
        case SLPI_LANE_ACC_POW_EXP:
            ENS_LANES(d[v][l] = z[v][l] + a[v][l] * b[v][l] * log(e[v][l]));
            break;
        case SLPI_LANE_FINITE:
            ENS_EACH(d[v] = z[v] + ((a[v] - a[v]) + (b[v] - b[v])));
            break;
        case SLPI_LANE_POWI: /* fast/model-tape.c's ipow, lane by lane the same products */
            ENS_EACH(d[v] = ens_ipow(a[v], (unsigned)o->n));
            break;
        case SLPI_LANE_ACC_POWI: { /* its reverse pass: y (n x^(n-1)) */
            const ens_vd nv = (ens_vd){ 0 } + (double)o->n;
            ENS_EACH(d[v] = z[v] + a[v] * (nv * ens_ipow(b[v], (unsigned)o->n - 1)));
            break;
        }
        }
#undef ENS_EACH
#undef ENS_LANES
    }
}

static void ens_program(const slpi_fast_model_soa *c, int q0, int q1, const int *vl, int nvl)
{
    if (nvl == ENS_NV)
        ens_program_on(c, q0, q1, vl, nvl, 1);
    else
        ens_program_on(c, q0, q1, vl, nvl, 0);
}

/* Psi(Y) = -xi, xi the gradient of sum_k seed_k H_k at the coordinates Y (fast/model.c
 * model_m_gen_sum; the so(3) pairing's weights are 1, g x 1 = g), read as ENS_P. Where the
 * roots or the gradient are not finite, the scalar path's domain fault and to_algebra
 * make Psi NaN and fail the step: the lanes of mask[v] mark it in flt[v] (the step then
 * fails there, whatever its sweeps made of the values). *seeds (then 0): the seeds changed
 * since the last call on these registers (the program's part that reads no coordinate is
 * run too). */
static void ens_model_psi(const slpi_fast_model_soa *c, const int *vl, int nvl, const ens_vl *mask, ens_vl *flt,
                          int *seeds)
{
    const ens_vd *S = (const ens_vd *)c->S;
    int tl[ENS_NV], nt = 0; /* the registers that need the test: a coordinate beyond bound */
    ens_program(c, *seeds ? 0 : c->nhoist, c->ncheck, vl, nvl); /* seeds: they changed */
    *seeds = 0;
    for (int k = 0; k < nvl; k++) {
        ens_vl out = (ens_vl){ 0 } - (c->bound == 0); /* NaN: out too */
        for (int i = 0; c->bound > 0 && i < c->dim; i++)
            out |= ~(ENS_ABS(S[(size_t)(c->y0 + i) * ENS_NV + vl[k]]) <= c->bound);
        tl[nt] = vl[k];
        nt += ens_any(&out);
    }
    if (!nt) return;
    ens_program(c, c->ncheck, c->nprog, tl, nt);
    for (int k = 0; k < nt; k++) {
        const int v = tl[k];
        flt[v] |= mask[v] & ~(S[(size_t)c->fin * ENS_NV + v] <= 0);
    }
}

/* Slot s, register v; component i of Psi. */
#define ENS_AT(s, v) S[ENS_NV * (size_t)(s) + (size_t)(v)]
#define ENS_P(i, v) (-ENS_AT(c->psi[i], v))

/* Block b of Psi on register v into P; *r += P_i - P_i (0, or NaN where a component is not
 * finite: the scalar path's to_algebra then makes all of Psi NaN and the step fails, so a
 * lane of ENS_FAULT's mask whose r is not 0 is marked in flt). */
#define ENS_LOAD_P(P, b, v, r)                                                                                         \
    _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++)                                                                \
    {                                                                                                                  \
        P[i] = ENS_P(3 * (b) + i, v);                                                                                  \
        r += P[i] - P[i];                                                                                              \
    }
#define ENS_FAULT(flt, mask, r) ((flt) |= (mask) & ~((r) <= 0))

/* out = X + k cross(P, Y) on every block (slpi_fast_blocks_comm, HAT: k = 1) of register v. */
ENS_INLINE void ens_model_comm(const slpi_fast_model_soa *c, const int nb, ens_vd *S, int v, int out, int y, double k,
                               const ens_vl *mask, ens_vl *flt)
{
    ens_vd r = (ens_vd){ 0 };
    for (int b = 0; b < nb; b++) {
        ens_vd P[3], Y[3], C[3];
        ENS_LOAD_P(P, b, v, r);
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Y[i] = ENS_AT(y + 3 * b + i, v);
        ens_cross(P, Y, C);
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) ENS_AT(out + 3 * b + i, v) =
            ENS_AT(c->x0 + 3 * b + i, v) + k * C[i];
    }
    ENS_FAULT(flt[v], mask[v], r);
}

/* The start of the solve in Y (fast/isomp.c isomp_predict): Euler's X + [Psi(X), X]/2 with
 * the increments halved, then for predictor=cayley (I - P/2)^{-1} X (I + P/2)^{-1} with
 * P = Psi(Euler's) (slpi_fast_blocks_ainv, HAT, a = 1/2). */
ENS_INLINE void ens_model_predict(const slpi_fast_model_soa *c, const int nb, const int *vl, int nvl,
                                  const ens_vl *mask, ens_vl *flt, int *seeds)
{
    ens_vd *S = (ens_vd *)c->S;
    for (int k = 0; k < nvl; k++)
        for (int j = 0; j <= c->M; j++) ENS_AT(c->s0 + j, vl[k]) = 0 + 0.5 * ENS_AT(c->d0 + j, vl[k]);
    *seeds = 1;
    ens_model_psi(c, vl, nvl, mask, flt, seeds); /* Y holds X */
    for (int k = 0; k < nvl; k++) {
        ens_model_comm(c, nb, S, vl[k], c->y0, c->x0, 1.0, mask, flt); /* Psi's slots are not Y's */
        for (int j = 0; j <= c->M; j++) ENS_AT(c->s0 + j, vl[k]) = 0 + ENS_AT(c->d0 + j, vl[k]);
    }
    *seeds = 1;
    if (c->predict != SLPI_FAST_PREDICT_CAYLEY) return;
    ens_model_psi(c, vl, nvl, mask, flt, seeds);
    for (int k = 0; k < nvl; k++) {
        ens_vd r = (ens_vd){ 0 };
        for (int b = 0; b < nb; b++) {
            ens_vd P[3], X[3], C[3];
            ENS_LOAD_P(P, b, vl[k], r);
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) X[i] = ENS_AT(c->x0 + 3 * b + i, vl[k]);
            const ens_vd q = 1 / (1 + 0.25 * ENS_DOT(P, P));
            ens_cross(P, X, C);
            _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) ENS_AT(c->y0 + 3 * b + i, vl[k]) =
                q * (X[i] + 0.5 * C[i]);
        }
        ENS_FAULT(flt[vl[k]], mask[vl[k]], r);
    }
}

/* One sweep on register v: W = X + [P,Y]/2 + P Y P/4 (slpi_fast_blocks_isomp, HAT), its
 * increment d and norm m; Y <- W on the active lanes. A component of P that is not finite
 * needs no mark here: P.Y is then not finite (P_i Y_i is, for Y_i = 0 too), so is every
 * component of W (P Y P = -(P.Y) P, 0 times it included), the last one's increment with
 * them, and the step fails on d as the scalar path's does on its all-NaN Psi. */
ENS_INLINE void ens_model_sweep(const slpi_fast_model_soa *c, const int nb, ens_vd *S, int v, const ens_vl *act,
                                ens_vd *dp, ens_vd *mp)
{
    ens_vd d = (ens_vd){ 0 }, m = (ens_vd){ 0 };
    for (int b = 0; b < nb; b++) {
        ens_vd P[3], Y[3], C[3];
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) P[i] = ENS_P(3 * b + i, v);
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++) Y[i] = ENS_AT(c->y0 + 3 * b + i, v);
        ens_cross(P, Y, C);
        const ens_vd py = ENS_DOT(P, Y);
        _Pragma("GCC unroll 3") for (int i = 0; i < 3; i++)
        {
            const ens_vd w = ENS_AT(c->x0 + 3 * b + i, v) + 0.5 * C[i] + 0.25 * (-py * P[i]);
            ENS_UPD(d, ENS_ABS(w - Y[i]));
            ENS_UPD(m, ENS_ABS(w));
            ENS_AT(c->y0 + 3 * b + i, v) = ENS_SEL(act[v], w, Y[i]);
        }
    }
    *dp = d;
    *mp = m;
}

/* n <= SLPI_ENSEMBLE_BLOCK paths of nb so(3) blocks from SoA x (component i of path r at
 * x[i nl + r]) and increments dW: one ISOMP-COMM step (fast/isomp.c isomp_step). */
ENS_INLINE long ens_model_block(slpi_fast_model_soa *c, const int nb, int n, long nl, double h, double *x,
                                const double *dW, long *iters, slpi_fast_lane *lane)
{
    ens_vd *S = (ens_vd *)c->S;
    const int nv = (n + ENS_W - 1) / ENS_W, dim = 3 * nb;
    /* Registers v < nv are set below, and only they are read; vl and ok are zeroed only
     * because gcc cannot see that (-Wmaybe-uninitialized): zeroing all five arrays took 4 %
     * of the model's ensemble (memset of 2.5 kB a block). */
    int vl[ENS_NV] = { 0 }, nvl = 0;
    ens_vl act[ENS_NV], ok[ENS_NV] = { { 0 } }, flt[ENS_NV], st[ENS_NV], its[ENS_NV];
    ens_iter it[ENS_NV];
    for (int v = 0; v < nv; v++) { /* X_n, then delta: h, dW; lanes nk.. repeat lane 0 (never stored) */
        const int nk = ens_lanes_in(n, v);
        ens_vl fin = ens_lanes_below(nk); /* slpi_fast_step: a state or increment not finite is INVALID */
        for (int i = 0; i < dim + 1 + c->M; i++) {
            ens_vd *o = &ENS_AT(i < dim ? c->x0 + i : c->d0 + i - dim, v);
            if (i == dim)
                *o = (ens_vd){ 0 } + h;
            else
                ens_load(o, (i < dim ? x + i * nl : dW + (i - dim - 1) * nl) + v * ENS_W, nk);
            fin &= ENS_FINITE(*o);
        }
        act[v] = ok[v] = fin;
        flt[v] = its[v] = (ens_vl){ 0 };
        st[v] = ENS_SELI(fin, (ens_vl){ 0 } - 1, (ens_vl){ 0 } + SLPI_STEP_INVALID);
        it[v] = (ens_iter){ { 0 }, { 0 }, { 0 } };
        for (int i = 0; i < dim; i++) ENS_AT(c->y0 + i, v) = ENS_AT(c->x0 + i, v);
        for (int j = 0; j <= c->M; j++) ENS_AT(c->s0 + j, v) = 0 + ENS_AT(c->d0 + j, v);
        vl[nvl++] = v;
    }
    int seeds = 1; /* the seeds are set on every register */
    if (c->predict) ens_model_predict(c, nb, vl, nvl, ok, flt, &seeds);
    for (int n_it = 1; nvl > 0; n_it++) {
        ens_model_psi(c, vl, nvl, act, flt, &seeds);
        int keep = 0;
        for (int k = 0; k < nvl; k++) {
            const int v = vl[k];
            ens_vd d, m;
            ens_model_sweep(c, nb, S, v, act, &d, &m);
            ens_check_all(&c->pol, n_it, 1, &it[v], &d, &m, &act[v], &st[v], &its[v]);
            vl[keep] = v; /* kept where a lane is active: no branch to mispredict */
            keep += ens_any(&act[v]);
        }
        nvl = keep;
    }
    /* The solve's faults fail the step, the state unchanged; then, as fast/isomp.c and
     * slpi_fast_step, the update is written and fails the step where it is not finite,
     * and where the update's Psi has a fault it is NaN (to_algebra's NaN, negated). */
    ens_vl fin[ENS_NV];
    for (int v = 0; v < nv; v++) {
        st[v] = ENS_SELI(flt[v] & (st[v] < SLPI_STEP_NOT_CONVERGED), (ens_vl){ 0 } + SLPI_STEP_DIVERGED, st[v]);
        ok[v] &= st[v] < SLPI_STEP_NOT_CONVERGED;
        vl[v] = v;
        fin[v] = (ens_vl){ 0 };
    }
    ens_model_psi(c, vl, nv, ok, fin, &seeds); /* seeds: delta (as the solve's); Y: the solution */
    long bad = 0;
    for (int v = 0; v < nv; v++) {
        ens_model_comm(c, nb, S, v, c->w0, c->y0, 1.0, ok, fin);
        ens_vl good = ~fin[v];
        for (int i = 0; i < dim; i++) {
            ENS_AT(c->w0 + i, v) = ENS_SEL(fin[v], -((ens_vd){ 0 } + NAN), ENS_AT(c->w0 + i, v));
            good &= ENS_FINITE(ENS_AT(c->w0 + i, v));
        }
        st[v] = ENS_SELI(ok[v] & ~good, (ens_vl){ 0 } + SLPI_STEP_DIVERGED, st[v]);
        const int nk = ens_lanes_in(n, v);
        const long fails = ens_tally(nk, &st[v], &its[v], iters, lane ? lane + v * ENS_W : NULL);
        const int whole = !fails && nk == ENS_W; /* else lane by lane, the solved ones */
        for (int l = 0; !whole && l < nk; l++)
            for (int i = 0; ok[v][l] && i < dim; i++) x[i * nl + v * ENS_W + l] = ENS_AT(c->w0 + i, v)[l];
        for (int i = 0; whole && i < dim; i++) memcpy(x + i * nl + v * ENS_W, &ENS_AT(c->w0 + i, v), sizeof(ens_vd));
        bad += fails;
    }
    return bad;
}
#undef ENS_AT
#undef ENS_P
#undef ENS_LOAD_P
#undef ENS_FAULT

/* The block's kernel for one so(3) block (the so3 models) apart: its loops unrolled. */
static long ens_model_block1(slpi_fast_model_soa *c, int n, long nl, double h, double *x, const double *dW, long *iters,
                             slpi_fast_lane *lane)
{
    return ens_model_block(c, 1, n, nl, h, x, dW, iters, lane);
}

static long ens_model_blocks(slpi_fast_model_soa *c, int n, long nl, double h, double *x, const double *dW, long *iters,
                             slpi_fast_lane *lane)
{
    return ens_model_block(c, c->nb, n, nl, h, x, dW, iters, lane);
}

long ENS_MODEL_FN(slpi_fast_model_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                  slpi_fast_lane *lane);
long ENS_MODEL_FN(slpi_fast_model_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                  slpi_fast_lane *lane)
{
    long bad = 0;
    for (long r = 0; r < nl; r += SLPI_ENSEMBLE_BLOCK) {
        const int n = nl - r < SLPI_ENSEMBLE_BLOCK ? (int)(nl - r) : SLPI_ENSEMBLE_BLOCK;
        bad += (c->nb == 1 ? ens_model_block1 : ens_model_blocks)(c, n, nl, h, x + r, dW + r, iters,
                                                                  lane ? lane + r : NULL);
    }
    return bad;
}
#undef ENS_NV
