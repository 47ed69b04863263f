/* t-ref-isomp-mr.c — ISOMP's map on the BLAS route in midpoint–radius doubles
 * (ref/isomp-mr.c) and the Euler–Zeitlin generator sum under it (ref/euler-zeitlin.c's
 * m_gen_sum_mr, ref/zeitlin-mr.c), the same quantities computed two ways:
 *   - the packed sums of G, G' and the update (the upper triangle and the diagonal's
 *     imaginary parts alone) against slpi_ref_isomp_sum_mr's whole matrix of the same
 *     products, packed afterwards: the same bits, midpoints and radii;
 *   - G without its radii (orad NULL, an iteration's point, ref/krawczyk-mr.c) against
 *     the midpoints of G with them: the same bits;
 *   - the generator sum B = sum_k delta_k B_k(X) (and along W) without radii (B->rad NULL)
 *     against the midpoints of the same sum with radii: the same bits, signed zeros
 *     included;
 *   - the noise weights, made once for a step's increments and kept: a system that summed
 *     with other increments first gives the bits of a fresh system's sum;
 * on su(N), N = 2, 5, 16, 33 (64 under SLPI_TEST_MULTIPLIER >= 4), states of three kinds
 * (plain, entries over 60 binades, a tenth of them subnormal), with noise (Q) and without,
 * the drift's increment h = 0.01 and 0. Internal interfaces ref/isomp-mr.h, ref/system.h. */
#include "core/problem-struct.h"
#include "kinds.h"
#include "ref/isomp-mr.h"
#include "ref/mrmat.h"

slpi_ref_system_ctor slpi_ref_sys_euler_zeitlin; /* ref/euler-zeitlin.c */

#define PREC 128

static int make_system(slpi_problem *p, slpi_ref_system *s, int N, slpi_ez_noise noise)
{
    slpi_error err;
    slpi_problem_init(p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_ISOMP);
    p->sys.ez.N = N;
    p->sys.ez.noise = noise;
    p->sys.ez.amp = 2.0;
    p->cert.prec = PREC;
    memset(s, 0, sizeof *s);
    int ok = slpi_ref_sys_euler_zeitlin(s, p, &err) == SLPI_OK;
    TEST_CHECKF(ok, "N=%d: the system: %s", N, err.msg);
    return ok;
}

/* X = the packed state x (radii r) as an N x N complex matrix of doubles */
static int state_mr(slpi_ref_mr *X, const slpi_ref_system *s, const double *x, const double *r)
{
    arb_ptr v = _arb_vec_init(s->state_dim);
    acb_mat_t M;
    acb_mat_init(M, s->N, s->N);
    for (int i = 0; i < s->state_dim; i++) {
        arb_set_d(v + i, x[i]);
        mag_set_d(arb_radref(v + i), r[i]);
    }
    s->m_unpack(s, M, v, PREC);
    int ok = slpi_ref_mrmat_get(X, M, 2);
    acb_mat_clear(M);
    _arb_vec_clear(v, s->state_dim);
    return ok;
}

/* the packed coordinates of the whole matrix S (upper triangle, imaginary diagonal) */
static void pack(double *om, double *orad, const slpi_ref_mr *S)
{
    int N = S->rows, idx = N;
    for (int a = 0; a < N; a++) {
        size_t e = ((size_t)a * N + a) * 2 + 1;
        om[a] = S->mid[e], orad[a] = S->rad[e];
    }
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++, idx += 2)
            for (int p = 0; p < 2; p++) {
                size_t e = ((size_t)a * N + b) * 2 + p;
                om[idx + p] = S->mid[e], orad[idx + p] = S->rad[e];
            }
}

static int same_bits(const double *a, const double *b, int n)
{
    return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

/* the packed <om, orad> of the map `map` has the bits of slpi_ref_isomp_sum_mr's whole
 * matrix of the sum t, packed afterwards (n packed coordinates; buf: 2n doubles) */
static void check_packed(const char *tag, const char *map, const double *om, const double *orad, const slpi_ref_mr *xn,
                         const slpi_ref_isomp_sum *t, int n, double *buf)
{
    slpi_ref_mr S = { 0 };
    int ok = slpi_ref_isomp_sum_mr(&S, xn, t);
    if (ok) pack(buf, buf + n, &S);
    slpi_ref_mrmat_clear(&S);
    TEST_CHECKF(ok && same_bits(om, buf, n) && same_bits(orad, buf + n, n),
                "%s: %s's packed sum differs from the whole sum's", tag, map);
}

/* One su(N) system, a state X_n, a point y and a direction z of the given kind */
static void check_case(int N, slpi_ez_noise noise, double h, int kind)
{
    slpi_problem p, p2;
    slpi_ref_system s, s2;
    if (!make_system(&p, &s, N, noise) || !make_system(&p2, &s2, N, noise)) return;
    int n = s.state_dim, M = s.M;
    double *buf = calloc(10 * (size_t)n + 2 * ((size_t)M + 1), sizeof(double));
    double *x = buf, *zero = x + n, *y = zero + n, *zm = y + n, *zr = zm + n, *om = zr + n, *orad = om + n;
    double *om2 = orad + n, *pm = om2 + n, *pr = pm + n, *delta = pr + n, *other = delta + M + 1;
    for (int i = 0; i < n; i++) {
        x[i] = entry(kind);
        y[i] = x[i] + ldexp(entry(kind), -20);
        zm[i] = ldexp(entry(kind), -30);
        zr[i] = ldexp(fabs(zm[i]), -10);
    }
    delta[0] = h, other[0] = h;
    for (int k = 1; k <= M; k++) delta[k] = 0.1 * gauss(), other[k] = 0.1 * gauss();
    slpi_ref_mr xn = { 0 };
    slpi_ref_isomp_mr w, w2;
    int ok = state_mr(&xn, &s, x, zero) && slpi_ref_isomp_mr_init(&w, &s, delta, &xn, PREC) &&
        slpi_ref_isomp_mr_init(&w2, &s2, other, &xn, PREC);
    TEST_CHECKF(ok, "N=%d %s: the map's workspace", N, kind_name[kind]);
    if (!ok) goto done;
    char tag[96];
    snprintf(tag, sizeof tag, "N=%d %s %s h=%g", N, kind_name[kind],
             noise == SLPI_EZ_NOISE_Q ? "noise (Q)" : "no noise", h);

    /* G enclosed, packed two ways; then without radii */
    TEST_CHECKF(slpi_ref_isomp_G_mr(&w, om, orad, y, NULL), "%s: G refused", tag);
    slpi_ref_isomp_sum g = { &w.Psi, &w.Y, &w.Psi, NULL, NULL, 0, 0.5, 0.25, 0 };
    check_packed(tag, "G", om, orad, &xn, &g, n, pm);
    TEST_CHECK(slpi_ref_isomp_G_mr(&w, om2, NULL, y, NULL));
    TEST_CHECKF(same_bits(om, om2, n), "%s: G without radii differs from G's midpoints", tag);

    /* the generator sum and its derivative without radii: Psi's midpoints, as with them */
    slpi_ref_mr B = { 0 }, Bm = { 0 };
    TEST_CHECK(slpi_ref_mrmat_init(&B, N, N, 2) && slpi_ref_mrmat_init(&Bm, N, N, 2));
    double *keep = Bm.rad;
    Bm.rad = NULL;
    for (int d = 0; d < 2; d++) {
        const slpi_ref_mr *W = d ? &w.W : NULL;
        if (d) TEST_CHECK(state_mr(&w.W, &s, zm, zr));
        int okb = s.m_gen_sum_mr(&s, &B, delta, &w.Y, W, PREC) && s.m_gen_sum_mr(&s, &Bm, delta, &w.Y, W, PREC);
        TEST_CHECKF(okb && same_bits(B.mid, Bm.mid, 2 * N * N),
                    "%s: the generator sum%s without radii differs from its midpoints", tag, d ? "'s derivative" : "");
    }
    Bm.rad = keep;

    /* G' and the update, packed two ways (the update's as balls: its radii rounded up
     * to mags the same way) */
    TEST_CHECKF(slpi_ref_isomp_dG_mr(&w, om, orad, y, zr, zm, zr), "%s: G' refused", tag);
    slpi_ref_isomp_sum dg = { &w.Psi, &w.W, &w.Psi, &w.dPsi, &w.M, 1, 0.5, 0.25, 0 };
    check_packed(tag, "G'", om, orad, &xn, &dg, n, pm);
    arb_ptr yb = _arb_vec_init(n), xb = _arb_vec_init(n);
    for (int i = 0; i < n; i++) arb_set_d(yb + i, y[i]);
    TEST_CHECKF(slpi_ref_isomp_update_mr(&w, xb, yb), "%s: the update refused", tag);
    for (int i = 0; i < n; i++) {
        om[i] = arf_get_d(arb_midref(xb + i), ARF_RND_NEAR);
        arb_set_d(yb + i, om[i]);
        mag_set(arb_radref(yb + i), arb_radref(xb + i));
        orad[i] = mag_get_d(arb_radref(xb + i));
    }
    slpi_ref_isomp_sum up = { &w.Psi, &w.Y, NULL, NULL, NULL, 0, 1, 0, 0 };
    slpi_ref_mr S = { 0 };
    int oku = slpi_ref_isomp_sum_mr(&S, &xn, &up), same = oku;
    if (oku) pack(pm, pr, &S);
    for (int i = 0; i < n && same; i++) {
        arb_set_d(xb + i, pm[i]);
        mag_set_d(arb_radref(xb + i), pr[i]);
        same = arb_equal(xb + i, yb + i);
    }
    TEST_CHECKF(same, "%s: the update's packed sum differs from the whole sum's", tag);
    slpi_ref_mrmat_clear(&S);
    _arb_vec_clear(yb, n);
    _arb_vec_clear(xb, n);

    /* the weights kept for a step's increments: other increments first, then delta's,
     * against the first system's, which never saw others */
    TEST_CHECK(slpi_ref_isomp_G_mr(&w2, om2, NULL, y, NULL));
    w2.delta = delta;
    TEST_CHECK(slpi_ref_isomp_G_mr(&w2, pm, pr, y, NULL) && slpi_ref_isomp_G_mr(&w, om, orad, y, NULL));
    TEST_CHECKF(same_bits(om, pm, n) && same_bits(orad, pr, n),
                "%s: G after other increments differs from a fresh system's", tag);
    slpi_ref_mrmat_clear(&B);
    slpi_ref_mrmat_clear(&Bm);
    slpi_ref_isomp_mr_clear(&w);
    slpi_ref_isomp_mr_clear(&w2);
done:
    slpi_ref_mrmat_clear(&xn);
    free(buf);
    slpi_ref_system_clear(&s);
    slpi_ref_system_clear(&s2);
}

int main(void)
{
    test_start("t-ref-isomp-mr", 20261202);
    static const int Ns[] = { 2, 5, 16, 33, 64 };
    for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++) {
        if (Ns[i] > 33 && test_iters(1) < 4) continue;
        for (int kind = 0; kind < K_COUNT; kind++)
            for (long it = 0; it < test_iters(Ns[i] <= 5 ? 3 : 1); it++) {
                check_case(Ns[i], SLPI_EZ_NOISE_Q, 0.01, kind);
                check_case(Ns[i], SLPI_EZ_NOISE_Q, 0, kind);
                check_case(Ns[i], SLPI_EZ_NOISE_NONE, 0.01, kind);
            }
        printf("  N=%d: packed sums, sums without radii and kept weights: the same bits\n", Ns[i]);
    }
    flint_cleanup();
    TEST_END();
}
