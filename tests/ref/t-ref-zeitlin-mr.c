/* t-ref-zeitlin-mr.c — the su(N) tables and basis transforms of the BLAS route
 * (ref/zeitlin-mr.c, docs/design.md#blas-route) against the Arb tables and transforms of
 * ref/zeitlin-basis.c, the same quantities computed two ways:
 *   - tables: every entry of the exact table V_m (balls at 256 bits) lies within the one
 *     radius rad[m] of mid[m] (the doubles of the compact tables), and no radius is
 *     wider than 2^-50 (N = 2, 7, 33, 64; 128 under SLPI_TEST_MULTIPLIER >= 4);
 *   - transforms: slpi_ref_zeitlin_noise_mr (sum_alpha w_alpha omega_alpha(X) Y_alpha
 *     for weight balls w) and slpi_ref_zeitlin_synthesis_mr contain the midpoints of the
 *     same through slpi_ref_zeitlin_analysis and _synthesis at 256 bits and intersect
 *     their balls, from every coefficient (alpha0 = 0) and from the noise's first
 *     (alpha0 = floor(N/2)^2 - 1), on three kinds of inputs: binary64 entries (plain),
 *     entries spread over 60 binades, and a tenth of them subnormal;
 *   - the centred form (slpi_ref_zeitlin_weighted_mr, the multiplier's solve): from a
 *     ball X of radius 2^-20 of its scale on every entry and the weights 1/lambda(l),
 *     lambda = -l(l+1) - 4 (balls of radius 2^-60), its ball contains the image of the
 *     midpoint and of four random corners of X, each through Arb's analysis and
 *     synthesis at 256 bits from the exact point; it is at most sqrt2 times as wide as
 *     slpi_ref_zeitlin_noise_mr's of the same ball on any entry (up to 2^-28 relative: a
 *     radius is a 30-bit mag, rounded up once more in the centred form): the plain form's
 *     radius is bounded per half table (ref/zeitlin-mr.c), norm(half) ||r half||, which
 *     sums to at least 1/sqrt2 of the whole table's norm ||r||, while the centred form
 *     bounds the whole diagonal's map at once, and the norms rho_m are at
 *     most sqrt(N - m) max|w| (1 + 2^-30) (infinity) and max|w| (1 + 2^-30) (rows' 2-norm),
 *     V_m being orthogonal;
 *   - the Poisson solve: slpi_ref_zeitlin_poisson_mr contains the midpoints of
 *     slpi_ref_zeitlin_poisson at 256 bits and intersects its balls, on the same kinds
 *     of X with radii on half of the entries, with shift 0 and 3/7 (the Zeitlin family);
 *   - the tables a process keeps for its next build: the same bits after another N's.
 * Internal interfaces ref/zeitlin.h, ref/mrmat.h. */
#include "kinds.h"
#include "ref/zeitlin.h"

#define PREC 256

/* the ball c contains the midpoint of r and the two intersect */
static int agrees(const arb_t c, const arb_t r)
{
    arb_t m;
    arb_init(m);
    arf_set(arb_midref(m), arb_midref(r));
    int ok = arb_contains(c, m) && arb_overlaps(c, r);
    arb_clear(m);
    return ok;
}

static void check_tables(const slpi_ref_zeitlin *z, const slpi_ref_zeitlin_mr *t)
{
    int N = z->N, bad = 0;
    arb_t d;
    arb_init(d);
    for (int m = 0; m < N; m++) {
        int n = N - m;
        TEST_CHECKF(t->rad[m] <= 0x1p-50, "N=%d m=%d: table radius %g", N, m, t->rad[m]);
        for (int a = 0; a < n; a++)
            for (int c = 0; c < n; c++) {
                arb_set_d(d, slpi_ref_zeitlin_mr_entry(t, m, a, c));
                mag_set_d(arb_radref(d), t->rad[m]);
                if (!arb_contains(d, arb_mat_entry(z->V + m, a, c)) && bad++ < 3)
                    TEST_CHECKF(0, "N=%d m=%d (%d, %d): %.17g +- %g misses the exact table", N, m, a, c,
                                slpi_ref_zeitlin_mr_entry(t, m, a, c), t->rad[m]);
            }
    }
    arb_clear(d);
}

/* a random skew-Hermitian X of the given kind (exact binary64 parts) */
static void random_skew(acb_mat_t X, int kind)
{
    int N = (int)acb_mat_nrows(X);
    acb_mat_zero(X);
    for (int a = 0; a < N; a++) {
        arb_set_d(acb_imagref(acb_mat_entry(X, a, a)), entry(kind));
        for (int b = a + 1; b < N; b++) {
            arb_set_d(acb_realref(acb_mat_entry(X, a, b)), entry(kind));
            arb_set_d(acb_imagref(acb_mat_entry(X, a, b)), entry(kind));
            acb_conj(acb_mat_entry(X, b, a), acb_mat_entry(X, a, b));
            acb_neg(acb_mat_entry(X, b, a), acb_mat_entry(X, b, a));
        }
    }
}

/* radii 2^e times its own magnitude on every real and imaginary part of X, or (half) on
 * each with probability 1/2 */
static void set_radii(acb_mat_t X, int e, int half)
{
    int N = (int)acb_mat_nrows(X);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++)
            for (int part = 0; part < 2; part++) {
                arb_ptr x = part ? acb_imagref(acb_mat_entry(X, a, b)) : acb_realref(acb_mat_entry(X, a, b));
                if (!half || test_rand_int(2))
                    mag_set_d(arb_radref(x), ldexp(fabs(arf_get_d(arb_midref(x), ARF_RND_NEAR)), e));
            }
}

static void check_transforms(const slpi_ref_zeitlin *z, const slpi_ref_zeitlin_mr *t, int alpha0, int kind)
{
    int N = z->N, n = N * N - 1, bad = 0;
    acb_mat_t X, S, Smr;
    arb_ptr om = _arb_vec_init(n), ommr = _arb_vec_init(n);
    acb_mat_init(X, N, N);
    acb_mat_init(S, N, N);
    acb_mat_init(Smr, N, N);
    random_skew(X, kind);
    slpi_ref_zeitlin_analysis(om, X, z, PREC);
    /* the noise's sum: weights w (balls of radius 2^-60 of their scale on half of them) */
    double *w = malloc(sizeof(double) * 2 * (size_t)(n - alpha0));
    for (int al = alpha0; al < n; al++) {
        int i = al - alpha0;
        w[i] = gauss();
        w[n - alpha0 + i] = test_rand_int(2) ? 0 : ldexp(fabs(w[i]), -60);
        arb_set_d(ommr + i, w[i]);
        mag_set_d(arb_radref(ommr + i), w[n - alpha0 + i]);
        arb_mul(ommr + i, ommr + i, om + al, PREC);
    }
    slpi_ref_zeitlin_synthesis(S, ommr, alpha0, z, PREC);
    TEST_CHECKF(slpi_ref_zeitlin_noise_mr(Smr, X, alpha0, w, w + n - alpha0, t), "N=%d %s: noise_mr refused", N,
                kind_name[kind]);
    free(w);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            acb_srcptr e = acb_mat_entry(Smr, a, b), r = acb_mat_entry(S, a, b);
            if ((!agrees(acb_realref(e), acb_realref(r)) || !agrees(acb_imagref(e), acb_imagref(r))) && bad++ < 3)
                TEST_CHECKF(0, "N=%d %s alpha0=%d: noise sum X_%d%d misses Arb's", N, kind_name[kind], alpha0, a, b);
        }
    /* the synthesis from coefficient balls (radius 2^-60 of their scale) */
    for (int al = 0; al < n - alpha0; al++) {
        arb_set_d(om + al, entry(kind));
        mag_set_d(arb_radref(om + al),
                  test_rand_int(2) ? 0 : ldexp(fabs(arf_get_d(arb_midref(om + al), ARF_RND_NEAR)), -60));
    }
    slpi_ref_zeitlin_synthesis(S, om, alpha0, z, PREC);
    TEST_CHECKF(slpi_ref_zeitlin_synthesis_mr(Smr, om, alpha0, t, z, PREC), "N=%d %s: synthesis_mr refused", N,
                kind_name[kind]);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            acb_srcptr e = acb_mat_entry(Smr, a, b), r = acb_mat_entry(S, a, b);
            if ((!agrees(acb_realref(e), acb_realref(r)) || !agrees(acb_imagref(e), acb_imagref(r))) && bad++ < 3)
                TEST_CHECKF(0, "N=%d %s alpha0=%d: X_%d%d misses Arb's", N, kind_name[kind], alpha0, a, b);
        }
    acb_mat_clear(X);
    acb_mat_clear(S);
    acb_mat_clear(Smr);
    _arb_vec_clear(om, n);
    _arb_vec_clear(ommr, n);
}

/* the width of a complex ball's two parts, the larger */
static double width(acb_srcptr e)
{
    return fmax(mag_get_d(arb_radref(acb_realref(e))), mag_get_d(arb_radref(acb_imagref(e))));
}

/* The centred form of the weighted sum against Arb's transforms of points of the ball */
static void check_weighted(const slpi_ref_zeitlin *z, const slpi_ref_zeitlin_mr *t, int kind)
{
    int N = z->N, n = N * N - 1, bad = 0;
    acb_mat_t X, Xp, S, C, W;
    arb_ptr om = _arb_vec_init(n);
    double *w = malloc(sizeof(double) * 2 * (size_t)n), *rho = malloc(sizeof(double) * 2 * (size_t)N), wmax = 0;
    acb_mat_init(X, N, N);
    acb_mat_init(Xp, N, N);
    acb_mat_init(S, N, N);
    acb_mat_init(C, N, N);
    acb_mat_init(W, N, N);
    random_skew(X, kind);
    set_radii(X, -20, 0);
    for (int al = 0; al < n; al++) {
        int l = slpi_ref_zeitlin_degree(al);
        w[al] = -1.0 / (l * (l + 1) + 4);
        w[n + al] = ldexp(fabs(w[al]), -60);
        wmax = fmax(wmax, fabs(w[al]) + w[n + al]);
    }
    TEST_CHECKF(slpi_ref_zeitlin_weights_norm_mr(rho, w, w + n, t), "N=%d: weights_norm_mr refused", N);
    for (int m = 0; m < N; m++)
        TEST_CHECKF(rho[2 * m] <= sqrt(N - m) * wmax * (1 + 0x1p-30) && rho[2 * m + 1] <= wmax * (1 + 0x1p-30),
                    "N=%d m=%d: norms %g, %g beyond sqrt(n) max|w|, max|w| = %g", N, m, rho[2 * m], rho[2 * m + 1],
                    wmax);
    TEST_CHECKF(slpi_ref_zeitlin_weighted_mr(C, X, w, w + n, rho, t), "N=%d %s: weighted_mr refused", N,
                kind_name[kind]);
    TEST_CHECKF(slpi_ref_zeitlin_noise_mr(W, X, 0, w, w + n, t), "N=%d %s: noise_mr refused", N, kind_name[kind]);
    for (int pt = 0; pt < 5; pt++) { /* the midpoint, then four corners */
        for (int a = 0; a < N; a++)
            for (int b = 0; b < a; b++) { /* the analysed lower part, mirrored */
                acb_srcptr x = acb_mat_entry(X, a, b);
                double re = arf_get_d(arb_midref(acb_realref(x)), ARF_RND_NEAR);
                double im = arf_get_d(arb_midref(acb_imagref(x)), ARF_RND_NEAR);
                if (pt > 0) {
                    re += (test_rand_int(2) ? 1 : -1) * mag_get_d(arb_radref(acb_realref(x))) * (1 - 0x1p-40);
                    im += (test_rand_int(2) ? 1 : -1) * mag_get_d(arb_radref(acb_imagref(x))) * (1 - 0x1p-40);
                }
                acb_set_d_d(acb_mat_entry(Xp, a, b), re, im);
                acb_set_d_d(acb_mat_entry(Xp, b, a), -re, im);
            }
        for (int a = 0; a < N; a++) {
            double im = arf_get_d(arb_midref(acb_imagref(acb_mat_entry(X, a, a))), ARF_RND_NEAR);
            if (pt > 0)
                im += (test_rand_int(2) ? 1 : -1) * mag_get_d(arb_radref(acb_imagref(acb_mat_entry(X, a, a)))) *
                    (1 - 0x1p-40);
            acb_set_d_d(acb_mat_entry(Xp, a, a), 0, im);
        }
        slpi_ref_zeitlin_analysis(om, Xp, z, PREC);
        for (int al = 0; al < n; al++) {
            arb_t wb;
            arb_init(wb);
            arb_set_d(wb, w[al]);
            mag_set_d(arb_radref(wb), w[n + al]);
            arb_mul(om + al, om + al, wb, PREC);
            arb_clear(wb);
        }
        slpi_ref_zeitlin_synthesis(S, om, 0, z, PREC);
        for (int a = 0; a < N; a++)
            for (int b = 0; b < N; b++) {
                acb_srcptr e = acb_mat_entry(C, a, b), r = acb_mat_entry(S, a, b);
                if ((!agrees(acb_realref(e), acb_realref(r)) || !agrees(acb_imagref(e), acb_imagref(r))) && bad++ < 3)
                    TEST_CHECKF(0, "N=%d %s point %d: centred sum X_%d%d misses Arb's", N, kind_name[kind], pt, a, b);
            }
    }
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++)
            if (width(acb_mat_entry(C, a, b)) > width(acb_mat_entry(W, a, b)) * sqrt(2.0) * (1 + 0x1p-28) && bad++ < 3)
                TEST_CHECKF(0, "N=%d %s: centred X_%d_%d %.17g wider than sqrt2 the plain %.17g", N, kind_name[kind], a,
                            b, width(acb_mat_entry(C, a, b)), width(acb_mat_entry(W, a, b)));
    acb_mat_clear(X);
    acb_mat_clear(Xp);
    acb_mat_clear(S);
    acb_mat_clear(C);
    acb_mat_clear(W);
    _arb_vec_clear(om, n);
    free(w);
    free(rho);
}

/* The Poisson solve in midpoint–radius doubles against Arb's at 256 bits, from X of the
 * given kind with radii 2^-60 of their scale on half of the entries */
static void check_poisson(slpi_ref_zeitlin *z, int kind)
{
    int N = z->N, bad = 0;
    acb_mat_t X, P, Pmr;
    acb_mat_init(X, N, N);
    acb_mat_init(P, N, N);
    acb_mat_init(Pmr, N, N);
    random_skew(X, kind);
    set_radii(X, -60, 1);
    slpi_ref_zeitlin_poisson(P, X, z, PREC);
    slpi_ref_zeitlin_factors_mr(z);
    TEST_CHECKF(slpi_ref_zeitlin_poisson_mr(Pmr, X, z), "N=%d %s: poisson_mr refused", N, kind_name[kind]);
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            acb_srcptr e = acb_mat_entry(Pmr, a, b), r = acb_mat_entry(P, a, b);
            if ((!agrees(acb_realref(e), acb_realref(r)) || !agrees(acb_imagref(e), acb_imagref(r))) && bad++ < 3)
                TEST_CHECKF(0, "N=%d %s shift %s: P_%d%d (re %s) misses Arb's (re %s)", N, kind_name[kind],
                            arb_is_zero(z->shift) ? "0" : "3/7", a, b, arb_get_str(acb_realref(e), 20, 0),
                            arb_get_str(acb_realref(r), 20, 0));
        }
    acb_mat_clear(X);
    acb_mat_clear(P);
    acb_mat_clear(Pmr);
}

/* The tables a process keeps (ref/zeitlin-mr-tables.c): a build of N after one of N + 1,
 * and one after that, give the first build's bits, and the kept copy is the caller's own
 * (the build it came from cleared first). */
static void check_kept(int N)
{
    slpi_ref_zeitlin_mr a, b, c, d;
    TEST_CHECK(slpi_ref_zeitlin_mr_init(&a, N) && slpi_ref_zeitlin_mr_init(&b, N + 1));
    TEST_CHECK(slpi_ref_zeitlin_mr_init(&c, N) && slpi_ref_zeitlin_mr_init(&d, N));
    int same[2] = { 1, 1 };
    for (int k = 0; k < 2; k++) {
        const slpi_ref_zeitlin_mr *x = k ? &d : &c;
        same[k] = x->N == N && memcmp(x->rad, a.rad, (size_t)N * sizeof *a.rad) == 0 &&
            memcmp(x->nrm, a.nrm, 2 * (size_t)N * sizeof *a.nrm) == 0;
        for (int m = 0; m < N && same[k]; m++) {
            size_t n = (size_t)(N - m);
            same[k] = memcmp(x->mid[m], a.mid[m], (n + 1) / 2 * n * sizeof(double)) == 0;
        }
        if (!k) slpi_ref_zeitlin_mr_clear(&c);
    }
    TEST_CHECKF(same[0] && same[1], "N=%d: the tables after those of N+1 %s, built again %s", N,
                same[0] ? "the same" : "differ", same[1] ? "the same" : "differ");
    printf("  N=%d: the tables built after those of N+1 and again: the same bits\n", N);
    slpi_ref_zeitlin_mr_clear(&a);
    slpi_ref_zeitlin_mr_clear(&b);
    slpi_ref_zeitlin_mr_clear(&d);
}

int main(void)
{
    test_start("t-ref-zeitlin-mr", 20261124);
    check_kept(12);
    int Ns[] = { 2, 7, 33, 64, 128 };
    for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++) {
        int N = Ns[i];
        if (N > 64 && test_iters(1) < 4) continue;
        slpi_ref_zeitlin z;
        slpi_ref_zeitlin_mr t;
        slpi_error err;
        TEST_CHECK(slpi_ref_zeitlin_init(&z, N, PREC, &err) == SLPI_OK &&
                   slpi_ref_zeitlin_harmonics(&z, &err) == SLPI_OK);
        TEST_CHECKF(slpi_ref_zeitlin_mr_init(&t, N), "N=%d: mr tables", N);
        check_tables(&z, &t);
        for (int kind = 0; kind < K_COUNT; kind++)
            for (long it = 0; it < test_iters(N <= 7 ? 4 : 1); it++) {
                check_transforms(&z, &t, 0, kind);
                check_transforms(&z, &t, (N / 2) * (N / 2) - 1, kind);
                check_poisson(&z, kind);
                check_weighted(&z, &t, kind);
            }
        arb_t shift; /* the Zeitlin family's Delta_N - kappa^2 */
        arb_init(shift);
        arb_set_ui(shift, 3);
        arb_div_ui(shift, shift, 7, PREC);
        slpi_ref_zeitlin_set_shift(&z, shift, PREC);
        for (int kind = 0; kind < K_COUNT; kind++) check_poisson(&z, kind);
        arb_clear(shift);
        slpi_ref_zeitlin_mr_clear(&t);
        slpi_ref_zeitlin_clear(&z);
    }
    flint_cleanup();
    TEST_END();
}
