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
 *   - G' in the mean-value forms (docs/design.md#mean-value-forms): after G enclosed at the
 *     point y, G' over y +/- r along 0 +/- r takes them (its Psi has the bits of the kept
 *     Psi(y) plus the derivative's sum, its M those of 1/2 Y + 1/4 U^* with U the kept
 *     Psi(y) y + dPsi Y + Psi W, formed here by the same operations), every entry intersects the direct form's over the
 *     same box and the enclosure of G'(y0)[z0] at points of the boxes (corners and random
 *     points), and its radius is at most 4 times the direct form's (plus 2^-900); along
 *     a direction box narrower than 0 +/- r (or after G at another point) the direct form
 *     runs, its bits;
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

/* 1 if every entry of <am, ar> intersects <bm, br> (n entries) */
static int intersect(const double *am, const double *ar, const double *bm, const double *br, int n)
{
    for (int i = 0; i < n; i++)
        if (!(fabs(am[i] - bm[i]) <= slpi_ref_mrmat_up(ar[i] + br[i]) * (1 + 0x1p-50))) return 0;
    return 1;
}

/* 1 if w's M has the bits of 1/2 Y + 1/4 U^*, U = Up + dPsi Y + Psi W (each sum and the
 * midpoint-radius operations of ref/isomp-mr.c's G') */
static int mean_value_M(const slpi_ref_isomp_mr *w)
{
    char why[160];
    int N = w->s->N, ok;
    slpi_ref_mr U = { 0 }, D = { 0 }, T = { 0 };
    size_t bytes = sizeof(double) * 2 * (size_t)N * N;
    ok = slpi_ref_mrmat_mul_mr(&D, &w->dPsi, &w->Y, why, sizeof why) &&
        slpi_ref_mrmat_mul_mr(&T, &w->Psi, &w->W, why, sizeof why) && slpi_ref_mrmat_init(&U, N, N, 2);
    if (ok) memcpy(U.mid, w->Up.mid, bytes), memcpy(U.rad, w->Up.rad, bytes);
    ok = ok && slpi_ref_mrmat_axpy(&U, 1, &D, 0) && slpi_ref_mrmat_axpy(&U, 1, &T, 0);
    for (int i = 0; i < N && ok; i++)
        for (int j = 0; j < N && ok; j++)
            for (int p = 0; p < 2 && ok; p++) {
                size_t e = ((size_t)i * N + j) * 2 + p, et = ((size_t)j * N + i) * 2 + p;
                double m = p ? -U.mid[et] : U.mid[et], r = U.rad[et];
                r = slpi_ref_mrmat_up(slpi_ref_mrmat_up(0.5 * r) + SLPI_REF_MRMAT_TINY);
                slpi_ref_mrmat_scalar_add(&m, &r, 0.5 * m, r, w->Y.mid[e], w->Y.rad[e]);
                r = slpi_ref_mrmat_up(slpi_ref_mrmat_up(0.5 * r) + SLPI_REF_MRMAT_TINY);
                ok = memcmp(&w->M.mid[e], &(double){ 0.5 * m }, sizeof m) == 0 && w->M.rad[e] == r;
            }
    slpi_ref_mrmat_clear(&U);
    slpi_ref_mrmat_clear(&D);
    slpi_ref_mrmat_clear(&T);
    return ok;
}

/* G' in the mean-value forms against the direct form (the header's list): s's map for
 * delta and xn, at the point y with box radii r (buf: 6n doubles) */
static void check_mean_value(const char *tag, const slpi_ref_system *s, const double *delta, const slpi_ref_mr *xn,
                             const double *y, const double *r, double *buf, int n)
{
    slpi_ref_isomp_mr w, d;
    double *om = buf, *orad = om + n, *dm = orad + n, *dr = dm + n, *y0 = dr + n, *z0 = y0 + n;
    double *zero = z0, *half = y0; /* for the first and last checks */
    int N = s->N;
    if (!slpi_ref_isomp_mr_init(&w, s, delta, xn, PREC) || !slpi_ref_isomp_mr_init(&d, s, delta, xn, PREC)) {
        TEST_CHECKF(0, "%s: the mean-value checks' workspaces", tag);
        return;
    }
    memset(zero, 0, sizeof(double) * (size_t)n);
    int ok = slpi_ref_isomp_G_mr(&w, dm, dr, y, NULL) && slpi_ref_isomp_dG_mr(&w, om, orad, y, r, zero, r) &&
        slpi_ref_isomp_dG_mr(&d, dm, dr, y, r, zero, r);
    TEST_CHECKF(ok, "%s: G' refused", tag);
    if (!ok) goto done;
    slpi_ref_mr P = { 0 };
    ok = slpi_ref_mrmat_init(&P, N, N, 2);
    if (ok) {
        size_t bytes = sizeof(double) * 2 * (size_t)N * N;
        memcpy(P.mid, w.Pp.mid, bytes), memcpy(P.rad, w.Pp.rad, bytes);
        ok = slpi_ref_mrmat_axpy(&P, 1, &w.dPsi, 0) && same_bits(P.mid, w.Psi.mid, 2 * N * N) &&
            same_bits(P.rad, w.Psi.rad, 2 * N * N);
    }
    slpi_ref_mrmat_clear(&P);
    TEST_CHECKF(ok, "%s: G' after G at its point did not take the mean-value forms (Psi is not Pp + dPsi)", tag);
    TEST_CHECKF(mean_value_M(&w), "%s: G''s M in the mean-value forms is not 1/2 Y + 1/4 (Up + dPsi Y + Psi W)^*", tag);
    TEST_CHECKF(intersect(om, orad, dm, dr, n), "%s: G' in the mean-value forms misses the direct form's", tag);
    int tight = 1;
    for (int i = 0; i < n && tight; i++) tight = orad[i] <= 4 * dr[i] + 0x1p-900;
    TEST_CHECKF(tight, "%s: G' in the mean-value forms wider than 4x the direct form's", tag);
    for (int k = 0; k < 6; k++) { /* points of the boxes: corners (k < 2), then random */
        for (int i = 0; i < n; i++) {
            double a = k < 2 ? (k ? 1 : -1) * (i % 2 ? 1 : -1) : test_rand_uniform(-1, 1);
            double b = k < 2 ? (k ? -1 : 1) : test_rand_uniform(-1, 1);
            y0[i] = y[i] + 0.5 * a * r[i], z0[i] = 0.5 * b * r[i]; /* half: inside despite rounding */
        }
        int okp = slpi_ref_isomp_dG_mr(&d, dm, dr, y0, NULL, z0, NULL);
        TEST_CHECKF(okp && intersect(om, orad, dm, dr, n),
                    "%s: G' in the mean-value forms misses G'(y0)[z0] at a point of its boxes (%d)", tag, k);
    }
    /* along 0 +/- r/2: not the forms, the direct form's bits; likewise after G elsewhere */
    for (int i = 0; i < n; i++) half[i] = 0.5 * r[i];
    memset(zero, 0, sizeof(double) * (size_t)n);
    ok = slpi_ref_isomp_G_mr(&w, dm, dr, y, NULL) && slpi_ref_isomp_dG_mr(&w, om, orad, y, r, zero, half) &&
        slpi_ref_isomp_dG_mr(&d, dm, dr, y, r, zero, half);
    TEST_CHECKF(ok && same_bits(om, dm, n) && same_bits(orad, dr, n),
                "%s: G' along a narrower direction box differs from the direct form", tag);
    ok = slpi_ref_isomp_G_mr(&w, dm, dr, half, NULL) && slpi_ref_isomp_dG_mr(&w, om, orad, y, r, zero, r) &&
        slpi_ref_isomp_dG_mr(&d, dm, dr, y, r, zero, r);
    TEST_CHECKF(ok && same_bits(om, dm, n) && same_bits(orad, dr, n),
                "%s: G' after G at another point differs from the direct form", tag);
done:
    slpi_ref_isomp_mr_clear(&w);
    slpi_ref_isomp_mr_clear(&d);
}

/* One su(N) system, a state X_n, a point y and a direction z of the given kind */
static void check_case(int N, slpi_ez_noise noise, double h, int kind)
{
    slpi_problem p, p2;
    slpi_ref_system s, s2;
    if (!make_system(&p, &s, N, noise) || !make_system(&p2, &s2, N, noise)) return;
    int n = s.state_dim, M = s.M;
    double *buf = calloc(10 * (size_t)n + 2 * ((size_t)M + 1), sizeof(double));
    double *mv = calloc(6 * (size_t)n, sizeof(double)); /* the mean-value checks' vectors */
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

    check_mean_value(tag, &s, delta, &xn, y, zr, mv, n);

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
    free(mv);
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
