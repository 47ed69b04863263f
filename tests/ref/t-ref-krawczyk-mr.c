/* t-ref-krawczyk-mr — the Jacobian-free fixed-point test on midpoint–radius doubles
 * (ref/krawczyk-mr.c), whose iteration encloses an image only where its stopping rule may
 * decide: the same iteration computed two ways. On linear contractions G(y) = a y + b
 * (a a power of two, so a y is exact; each image's radius its sum's rounding plus an
 * extra radius R, the images' "width" the stop reads), against this file's reference
 * iteration that encloses every image (the rule before the change, verbatim):
 *   - the limit (its midpoints, the last iterate, and its radius, from the last two
 *     steps and the last image's radius) is the reference's bit for bit, and the
 *     return code and the reason where it fails: fast (a = 2^-20) and slow (a = 1/2)
 *     contractions from afar, with R = 0, 2^-56 and 2^-40 (wide: the rule learns R from
 *     its first enclosed image); a guess one step from the fixed point, where the
 *     reference stops at its first image (the step made again, enclosed); a repelling map
 *     (a = 2), refused "does not contract"; at 128 and 53 bits;
 *   - the certified result holds the fixed point b / (1 - a) (Arb, exact);
 *   - the iteration evaluated some images without their radii (Gmr with a NULL radius)
 *     where it took more than two evaluations, and enclosed at most 4 where it converged
 *     (the first, one made again, and the last two): the saving is there;
 *   - a wide image (R = 2^-40) with a guess one step away, where the reference stops
 *     before the rule knows any radius: the fixed point still held, at most one
 *     evaluation more. */
#include "testutil.h"
#include "ref/krawczyk.h"
#include "ref/mrmat.h"

#include <float.h>

#define NV 4

typedef struct {
    double a, b[NV], extra;
    long calls, bare; /* Gmr evaluations, those without radii */
} lin;

static double up(double x)
{
    return slpi_ref_mrmat_up(x);
}

/* G(y) = a y + b on <ym, yr>: a y exact (a a power of two), the sum rounded once */
static int lin_G(void *ctx, double *om, double *orad, const double *ym, const double *yr)
{
    lin *L = ctx;
    L->calls++;
    L->bare += orad == NULL;
    for (int i = 0; i < NV; i++) {
        om[i] = L->a * ym[i] + L->b[i];
        if (orad != NULL)
            orad[i] = up(up(up(ldexp(fabs(om[i]), -52)) + (yr ? L->a * yr[i] : 0)) + L->extra) + DBL_TRUE_MIN;
    }
    return 1;
}

/* G'(y)[z] = a z, exact */
static int lin_dG(void *ctx, double *om, double *orad, const double *ym, const double *yr, const double *zm,
                  const double *zr)
{
    lin *L = ctx;
    (void)ym, (void)yr;
    for (int i = 0; i < NV; i++) om[i] = L->a * zm[i], orad[i] = L->a * zr[i];
    return 1;
}

/* the reference: ref/krawczyk-mr.c's iteration with every image enclosed and its limit
 * (limit_set); 1 converged, 0 not (why set) */
static int reference(lin *L, double *yl, double *t_out, const double *guess, slong prec, char *why, size_t len,
                     long *evals)
{
    double y[NV], gm[NV], gr[NV], dprev = INFINITY, d = 0, rg = 0;
    const int maxit = prec > 128 ? (int)(200 * prec / 128) : 200;
    memcpy(y, guess, sizeof y);
    *evals = 0;
    for (int it = 0; it < maxit; it++) {
        lin_G(L, gm, gr, y, NULL);
        ++*evals;
        double dd = 0, ym = 1, tol = 0;
        for (int i = 0; i < NV; i++) {
            tol = fmax(tol, gr[i]);
            dd = fmax(dd, fabs(gm[i] - y[i]));
            ym = fmax(ym, fabs(gm[i]));
        }
        memcpy(y, gm, sizeof y);
        d = dd, rg = tol;
        if (dd <= fmax(4 * tol, ldexp(ym, (int)(8 - prec)))) {
            double t = up(d + rg);
            if (isfinite(dprev) && d < dprev) {
                double q = up(d / dprev), one_q = nextafter(1 - q, 0);
                t = up(up(t * q) / one_q);
            }
            *t_out = up(t + rg);
            memcpy(yl, y, sizeof y);
            return 1;
        }
        if (!isfinite(dd) || dd >= dprev) {
            snprintf(why, len, "fixed-point iteration does not contract at %ld bits (its step grew at %ld bits)",
                     (long)prec, (long)prec);
            return 0;
        }
        dprev = dd;
    }
    snprintf(why, len, "fixed-point iteration did not reach its tolerance within its cap of %d iterations at %ld bits",
             maxit, (long)prec);
    return 0;
}

/* one case: a, b (fixed point near 2^-10 .. 2^-9), the guess off the fixed point by
 * `off` (absolute; NAN: the guess 0), the extra radius; exact: the limit must be the
 * reference's bit for bit */
static void check_case(const char *what, double a, double off, double extra, slong prec, int exact)
{
    lin L = { a, { 0 }, extra, 0, 0 };
    double guess[NV];
    arb_ptr gs = _arb_vec_init(NV), y = _arb_vec_init(NV), limit = _arb_vec_init(NV);
    arb_t fix, t;
    arb_init(fix);
    arb_init(t);
    for (int i = 0; i < NV; i++) {
        L.b[i] = ldexp(test_rand_uniform(1, 2), -10) * (1 - (a < 1 ? a : 0.5)) * (test_rand_int(2) ? 1 : -1);
        guess[i] = isnan(off) ? 0 : L.b[i] / (1 - a) + off * (test_rand_int(2) ? 1 : -1);
        arb_set_d(gs + i, guess[i]);
    }
    slpi_ref_fixmap g = { NV, &L, NULL, NULL, NULL, 0, lin_G, lin_dG, 0 };
    char why[200] = "", rwhy[200] = "";
    int rc = slpi_ref_krawczyk_fixed_limit_mr(y, limit, &g, gs, prec, why, sizeof why);
    double yl[NV], tl = 0;
    long evals = 0;
    int rrc = reference(&L, yl, &tl, guess, prec, rwhy, sizeof rwhy, &evals);
    if (exact) {
        TEST_CHECKF((rc == 1) == (rrc == 1) && (rrc == 1 || rc == -1),
                    "%s (a=%g, %ld bits): returned %d, the reference %d", what, a, (long)prec, rc, rrc);
        if (rrc != 1) TEST_CHECKF(!strcmp(why, rwhy), "%s: reason '%s', the reference's '%s'", what, why, rwhy);
        int same = rrc == 1 && rc == 1;
        for (int i = 0; i < NV && same; i++) {
            arb_set_d(t, yl[i]);
            mag_set_d(arb_radref(t), tl);
            same = arb_equal(limit + i, t);
        }
        if (rrc == 1)
            TEST_CHECKF(same, "%s (a=%g, %ld bits): the limit %s is not the reference's %.17g +/- %.3g", what, a,
                        (long)prec, arb_get_str(limit, 20, 0), yl[0], tl);
        long own = L.calls - evals; /* the reference's evaluations are L's too */
        if (evals > 2)
            TEST_CHECKF(L.bare > 0 && (rc != 1 || own - L.bare <= 4),
                        "%s (a=%g): %ld evaluations, %ld enclosed (the reference: %ld)", what, a, own, own - L.bare,
                        evals);
    } else {
        TEST_CHECKF(rc == 1 && rrc == 1, "%s (a=%g): returned %d (%s), the reference %d", what, a, rc, why, rrc);
        long own = L.calls - evals; /* the reference's evaluations are L's too */
        TEST_CHECKF(own - L.bare <= evals + 1 && own <= evals + 2,
                    "%s (a=%g): %ld evaluations (%ld enclosed), the reference %ld", what, a, own, own - L.bare, evals);
    }
    for (int i = 0; i < NV && rc == 1; i++) { /* the fixed point b / (1 - a), exactly */
        arb_set_d(fix, 1 - a);
        arb_set_d(t, L.b[i]);
        arb_div(fix, t, fix, 256);
        TEST_CHECKF(arb_contains(y + i, fix), "%s (a=%g, %ld bits): entry %d %s misses the fixed point %s", what, a,
                    (long)prec, i, arb_get_str(y + i, 20, 0), arb_get_str(fix, 20, 0));
    }
    _arb_vec_clear(gs, NV);
    _arb_vec_clear(y, NV);
    _arb_vec_clear(limit, NV);
    arb_clear(fix);
    arb_clear(t);
}

int main(void)
{
    test_start("t-ref-krawczyk-mr", 7);
    static const slong precs[] = { 128, 53 };
    for (long it = 0; it < test_iters(20); it++)
        for (int pi = 0; pi < 2; pi++) {
            slong prec = precs[pi];
            check_case("fast, from 0", 0x1p-20, NAN, 0, prec, 1);
            check_case("slow, from 0", 0.5, NAN, 0, prec, 1);
            check_case("slow, from 0, radius 2^-56", 0.5, NAN, 0x1p-56, prec, 1);
            /* the first step 2^-54 at most, below 4 R = 2^-52: the reference stops at once */
            check_case("one step away", 0.5, 0x1p-54, 0x1p-54, prec, 1);
            check_case("fast, one step away", 0x1p-20, 0x1p-54, 0x1p-54, prec, 1);
            check_case("repelling", 2.0, 0x1p-30, 0, prec, 1);
            check_case("wide images", 0.5, NAN, 0x1p-40, prec, 1);
            check_case("wide images, fast", 0x1p-20, NAN, 0x1p-40, prec, 1);
            /* the reference stops at once (the step 2^-45 within 4 R = 2^-38), before this
             * rule knows any radius: one evaluation later at most */
            check_case("wide images, one step away", 0.5, 0x1p-44, 0x1p-40, prec, 0);
        }
    TEST_END();
}
