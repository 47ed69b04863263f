/* t-stat-constants.c — the exact constants of verify's statistical test (oracle/stat.c,
 * oracle/README.md#statistics) against the test's own computation of the same formulas,
 * on rows made up here (no port, no certified step): only the arithmetic of the rule.
 *
 * From synthetic rows (projections a_j on J = 4 directions, |r|^2, the twin's |t|^2,
 * the rounded step's projections and the allowance tau), the library's
 *  - Hotelling's T^2 = n (n - 1) m' W^-1 m (W the centred cross products), kept for
 *    the record;
 *  - systematic p-value, against the exact and the rounded step alike since the shapes
 *    amendment (docs/power.md#shapes-amendment): each direction's two-sided t test of
 *    (|mean| - tau)+ / sqrt(v / n), v the sample variance with Bessel's n - 1, on n - 1
 *    degrees of freedom (the F(1, n - 1) tail I_{d2/(d2 + d1 F)}(d2/2, d1/2)), times J
 *    (Bonferroni over the directions);
 *  - size test: t = mean(d) / sqrt(v_d / n), d = |r|^2 - (2 ceil(sqrt(dim)))^2 |t|^2,
 *    v_d with n - 1, p = Q(t) (one-sided normal);
 *  - detectable effect: max_j tau + sqrt(lambda v_j / n), lambda the noncentrality at
 *    which chi^2_J's alpha/2-quantile is passed with probability 0.9 (normal
 *    approximation of the noncentral chi^2);
 *  - pooled files: the small-step rows of every file count (the choice of the rounded
 *    step is made on the pooled rows), the pool is the rows added one by one;
 *  - copies (oracle/stat-copies.c, docs/power.md#copies-amendment): rows of one step
 *    whose fingerprints lie within their spread are one observation, their mean (the
 *    test of the other rows and that mean), pooled or not (a group of rows that are not
 *    copies, split between the files after its first row, counts every row); one
 *    fingerprint beyond the spread and
 *    every row counts, and then their shared offset FAILs;
 * are each the test's own value (relative 1e-9; 1e-7 for the effect, found by
 * bisection), with the incomplete beta and gamma functions written here (continued
 * fractions in long double), not Arb's. The tolerances were fixed before the first run:
 * each planted change (degrees of freedom, Bessel's correction, alpha instead of
 * alpha/2, the Bonferroni factor, the pooled small-step rows) moves its value by more
 * than 1 %. SLPI_TEST_SEED draws other rows. */
#include <math.h>
#include <string.h>

#include "oracle/oracle.h"
#include "testutil.h"

#define J 4   /* M = 1 noise component: state, drift, even, odd */
#define DIM 9 /* envelope 2 ceil(sqrt(9)) = 6 */

/* I_x(a, b), the regularized incomplete beta function, by its continued fraction
 * (modified Lentz), with the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where it converges
 * slowly. */
static long double beta_cf(long double a, long double b, long double x)
{
    const long double tiny = 1e-300L;
    long double c = 1, d = 1 - (a + b) * x / (a + 1), h;
    d = fabsl(d) < tiny ? tiny : d;
    d = 1 / d;
    h = d;
    for (int m = 1; m < 10000; m++) {
        long double m2 = 2.0L * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int half = 0; half < 2; half++) {
            d = 1 + aa * d;
            d = fabsl(d) < tiny ? tiny : d;
            c = 1 + aa / c;
            c = fabsl(c) < tiny ? tiny : c;
            d = 1 / d;
            long double del = d * c;
            h *= del;
            if (half == 1 && fabsl(del - 1) < 1e-19L) return h;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
    }
    return h;
}

static long double ibeta(long double x, long double a, long double b)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    long double lb = lgammal(a + b) - lgammal(a) - lgammal(b) + a * logl(x) + b * logl(1 - x);
    if (x < (a + 1) / (a + b + 2)) return expl(lb) * beta_cf(a, b, x) / a;
    return 1 - expl(lb) * beta_cf(b, a, 1 - x) / b;
}

/* P(F_{d1, d2} > f) */
static double own_f_tail(double f, double d1, double d2)
{
    return f > 0 ? (double)ibeta(d2 / (d2 + d1 * (long double)f), d2 / 2.0L, d1 / 2.0L) : 1.0;
}

/* Q(s, x), the regularized upper incomplete gamma function: series below s + 1,
 * continued fraction above. */
static long double gamma_q(long double s, long double x)
{
    if (x <= 0) return 1;
    long double lg = s * logl(x) - x - lgammal(s);
    if (x < s + 1) {
        long double sum = 1 / s, term = sum;
        for (int n = 1; n < 100000 && fabsl(term) > fabsl(sum) * 1e-21L; n++) {
            term *= x / (s + n);
            sum += term;
        }
        return 1 - expl(lg) * sum;
    }
    long double b = x + 1 - s, c = 1e300L, d = 1 / b, h = d;
    for (int i = 1; i < 100000; i++) {
        long double an = -i * (i - s);
        b += 2;
        d = an * d + b;
        d = fabsl(d) < 1e-300L ? 1e-300L : d;
        c = b + an / c;
        c = fabsl(c) < 1e-300L ? 1e-300L : c;
        d = 1 / d;
        long double del = d * c;
        h *= del;
        if (fabsl(del - 1) < 1e-20L) break;
    }
    return expl(lg) * h;
}

/* lambda: the chi^2_m quantile c at level a by bisection of gamma_q, then the root of
 * m + lambda - z sqrt(2 (m + 2 lambda)) = c in closed form (s = sqrt(2 (m + 2 lambda))
 * solves s^2 / 4 - z s + m / 2 - c = 0), z the normal's 0.9 quantile. */
static double own_lambda(int m, double a)
{
    long double lo = 0, hi = 1e4;
    for (int i = 0; i < 200; i++) {
        long double mid = (lo + hi) / 2;
        if (gamma_q(m / 2.0L, mid / 2) > a)
            lo = mid;
        else
            hi = mid;
    }
    long double z = 1.2815515655446004L, c = hi;
    long double s = 2 * (z + sqrtl(z * z - (m / 2.0L - c)));
    return (double)((s * s / 2 - m) / 2);
}

static int rel_close(double a, double b, double tol)
{
    return a == b || fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

static double normal(void)
{
    double u = test_rand_uniform(0x1p-53, 1), v = test_rand_uniform(0, 1);
    return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

typedef struct {
    int n;
    double a[64][J], r2[64], t2[64], ar[64][J], rr2[64], tau[64];
    int kind[64];
    long step[64];                      /* the row spans steps step..step + 1 */
    double fp[64][SLPI_STAT_COPY_PROJ]; /* its fingerprint */
} rows;

/* n rows: projections N(mean_j, sd_j), kind 1 or 2 */
static void make_rows(rows *R, int n, int kind, const double *mean, const double *sd)
{
    R->n = n;
    for (int i = 0; i < n; i++) {
        R->kind[i] = kind;
        for (int j = 0; j < J; j++) {
            R->a[i][j] = mean[j] + sd[j] * normal();
            R->ar[i][j] = mean[j] + sd[j] * normal();
        }
        R->r2[i] = 3 + normal() * normal();
        R->t2[i] = 0.1 + 0.05 * normal() * normal();
        R->rr2[i] = 2 + normal() * normal();
        R->tau[i] = 0.05 * (1 + test_rand_uniform(0, 1));
        R->step[i] = i; /* every row its own steps: no group of copies */
        for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) R->fp[i][q] = 1e3 * normal();
    }
}

/* The fingerprint of row i for the copies rule (oracle/stat-copies.c): R->fp[i], spread 1. */
static void add_rows(slpi_verify_stats *st, const rows *R, int from, int to)
{
    for (int i = from; i < to; i++) {
        double row[SLPI_STAT_FIELDS] = { 0 }, *rounded = row + 3 + SLPI_STAT_DIRS;
        for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) row[SLPI_STAT_COPY_FIELD + q] = R->fp[i][q];
        row[SLPI_STAT_COPY_FIELD + SLPI_STAT_COPY_PROJ] = 1.0;
        row[0] = R->kind[i];
        for (int j = 0; j < J; j++) row[1 + j] = R->a[i][j], rounded[j] = R->ar[i][j];
        row[1 + SLPI_STAT_DIRS] = R->r2[i];
        row[2 + SLPI_STAT_DIRS] = R->t2[i];
        rounded[SLPI_STAT_DIRS] = R->rr2[i];
        rounded[SLPI_STAT_DIRS + 1] = R->tau[i];
        TEST_CHECK(slpi_oracle_stat_add(st, R->step[i], R->step[i] + 1, row) == 0);
    }
}

typedef struct {
    double p_sys, t2, size_t, p_size, effect, tol;
} own;

/* The test's own statistics of the rows (use_rounded: the rounded step's projections). */
static void own_stats(const rows *R, int use_rounded, double alpha, own *o)
{
    int n = R->n;
    long double mean[J] = { 0 }, W[J][J + 1] = { { 0 } }, v[J];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < J; j++) mean[j] += (use_rounded ? R->ar[i][j] : R->a[i][j]) / (long double)n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < J; j++)
            for (int k = 0; k < J; k++)
                W[j][k] += ((use_rounded ? R->ar[i][j] : R->a[i][j]) - mean[j]) *
                    ((use_rounded ? R->ar[i][k] : R->a[i][k]) - mean[k]);
    for (int j = 0; j < J; j++) v[j] = W[j][j] / (n - 1); /* Bessel */
    for (int j = 0; j < J; j++) W[j][J] = mean[j];
    for (int c = 0; c < J; c++) /* W z = mean, no pivoting needed: W is positive definite */
        for (int i = c + 1; i < J; i++) {
            long double g = W[i][c] / W[c][c];
            for (int k = c; k <= J; k++) W[i][k] -= g * W[c][k];
        }
    long double z[J], q = 0;
    for (int i = J - 1; i >= 0; i--) {
        z[i] = W[i][J];
        for (int k = i + 1; k < J; k++) z[i] -= W[i][k] * z[k];
        z[i] /= W[i][i];
    }
    for (int j = 0; j < J; j++) q += z[j] * mean[j];
    o->t2 = (double)((long double)n * (n - 1) * q);
    /* both forms: the data's allowance tau (docs/power.md#shapes-amendment) */
    long double tau = 0, pmin = 1;
    for (int i = 0; i < n; i++) tau += R->tau[i];
    tau /= n;
    o->tol = (double)tau;
    for (int j = 0; j < J; j++) {
        long double t = fmaxl(fabsl(mean[j]) - tau, 0) / sqrtl(v[j] / n);
        /* two-sided t on n - 1 degrees of freedom: I_{nu / (nu + t^2)}(nu / 2, 1 / 2) */
        long double p = ibeta((n - 1) / (n - 1 + t * t), (n - 1) / 2.0L, 0.5L);
        pmin = fminl(pmin, p);
    }
    o->p_sys = (double)fminl(1, J * pmin);
    long double env = 2 * 3, dm = 0, dv = 0; /* ENVELOPE 2 times ceil(sqrt(DIM)) */
    for (int i = 0; i < n; i++) dm += ((use_rounded ? R->rr2[i] : R->r2[i]) - env * env * R->t2[i]) / n;
    for (int i = 0; i < n; i++) {
        long double d = (use_rounded ? R->rr2[i] : R->r2[i]) - env * env * R->t2[i] - dm;
        dv += d * d / (n - 1); /* Bessel */
    }
    o->size_t = (double)(dm / sqrtl(dv / n));
    o->p_size = 0.5 * erfc(o->size_t / sqrt(2.0));
    double lam = own_lambda(J, alpha / 2); /* two tests: the power at alpha / 2 */
    o->effect = 0;
    for (int j = 0; j < J; j++) o->effect = fmax(o->effect, o->tol + sqrt(lam / n * (double)v[j]));
}

static void compare(const char *what, const slpi_verify_stats *st, const own *o)
{
    printf("t-stat-constants: %s: p_systematic %.10g (own %.10g), size t %.10g (own %.10g), detects %.10g u "
           "(own %.10g)\n",
           what, st->p_systematic, o->p_sys, st->size_t, o->size_t, st->detectable_effect_u, o->effect);
    TEST_CHECKF(rel_close(st->p_systematic, o->p_sys, 1e-9), "%s: systematic p %.17g, own %.17g", what,
                st->p_systematic, o->p_sys);
    TEST_CHECKF(rel_close(st->t2, o->t2, 1e-9), "%s: T^2 %.17g, own %.17g", what, st->t2, o->t2);
    TEST_CHECKF(rel_close(st->size_t, o->size_t, 1e-9) && rel_close(st->p_size, o->p_size, 1e-9),
                "%s: size t %.17g p %.17g, own %.17g %.17g", what, st->size_t, st->p_size, o->size_t, o->p_size);
    TEST_CHECKF(rel_close(st->detectable_effect_u, o->effect, 1e-7), "%s: detectable %.17g, own %.17g", what,
                st->detectable_effect_u, o->effect);
    TEST_CHECKF(rel_close(st->tolerance_u, o->tol, 1e-12), "%s: tau %.17g, own %.17g", what, st->tolerance_u, o->tol);
}

int main(void)
{
    test_start("t-stat-constants", 71);
    static rows R;
    const double alpha = 1e-3;
    /* the independent functions against values known in closed form: F(2, d2) has the
     * tail (1 + 2 f / d2)^(-d2/2), chi^2_2 the tail e^(-c/2), and lambda for chi^2_1 */
    TEST_CHECKF(rel_close(own_f_tail(1.7, 2, 9), pow(1 + 2 * 1.7 / 9, -4.5), 1e-15), "F tail %.17g",
                own_f_tail(1.7, 2, 9));
    TEST_CHECKF(rel_close((double)gamma_q(1, 3.5), exp(-3.5), 1e-15), "gamma Q %.17g", (double)gamma_q(1, 3.5));
    TEST_CHECK(rel_close((double)gamma_q(0.5, 2.0), erfc(sqrt(2.0)), 1e-15));
    TEST_CHECK(rel_close(0.5 * erfc(1.2815515655446004 / sqrt(2.0)), 0.1, 1e-12));

    /* 24 rows with a mean that both systematic tests see (p from 1e-9 to 0.05 over the
     * seeds: the Bonferroni factor J stays visible) */
    const double mean[J] = { 0.3, -0.2, 0.1, 0.8 }, sd[J] = { 1, 0.5, 2, 0.8 };
    for (int kind = 1; kind <= 2; kind++) {
        make_rows(&R, 24, kind, mean, sd);
        slpi_verify_stats st;
        slpi_oracle_stat_init(&st, 1, DIM, alpha);
        TEST_CHECK(st.dirs == J && st.envelope == 6);
        add_rows(&st, &R, 0, R.n);
        slpi_oracle_stat_finish(&st, 1);
        TEST_CHECK(st.rows == R.n && st.rows_small == (kind == 2 ? R.n : 0) && st.against_rounded == (kind == 2));
        own o;
        own_stats(&R, kind == 2, alpha, &o);
        compare(kind == 1 ? "exact step" : "rounded step", &st, &o);
        /* the verdict's threshold: p <= alpha / 2 */
        TEST_CHECK((st.verdict == SLPI_VERDICT_FAIL) == (fmin(o.p_sys, o.p_size) <= alpha / 2));
    }

    /* pooled: a first file of 6 rows of large steps, a second of 20 small-step rows; the
     * pool is the 26 rows added one by one, against the rounded step (20 of 26 small) */
    {
        rows big;
        make_rows(&R, 26, 2, mean, sd);
        make_rows(&big, 6, 1, mean, sd);
        for (int i = 0; i < 6; i++) {
            R.kind[i] = 1;
            memcpy(R.a[i], big.a[i], sizeof R.a[i]);
        }
        slpi_verify_stats one, first, second;
        slpi_oracle_stat_init(&one, 1, DIM, alpha);
        slpi_oracle_stat_init(&first, 1, DIM, alpha);
        slpi_oracle_stat_init(&second, 1, DIM, alpha);
        add_rows(&one, &R, 0, R.n);
        add_rows(&first, &R, 0, 6);
        add_rows(&second, &R, 6, R.n);
        slpi_oracle_stat_merge(&first, &second);
        slpi_oracle_stat_finish(&one, 2);
        slpi_oracle_stat_finish(&first, 2);
        TEST_CHECKF(first.rows == 26 && first.rows_small == 20 && first.against_rounded && one.against_rounded,
                    "pooled: %ld rows, %ld small, against the rounded step: %d", first.rows, first.rows_small,
                    first.against_rounded);
        TEST_CHECKF(rel_close(first.p_value, one.p_value, 1e-12) && rel_close(first.tau_sum, one.tau_sum, 1e-12) &&
                        rel_close(first.detectable_effect_u, one.detectable_effect_u, 1e-12),
                    "pooled p %.17g, one by one %.17g", first.p_value, one.p_value);
    }

    /* copies (docs/power.md#copies-amendment): 20 rows of their own steps, then 30 rows
     * of steps 100..101 sharing an offset of 1 on every direction, their fingerprints
     * within the spread 1 on every projection. The test is the one of the 20 rows and
     * the 30's mean; with one projection of one row beyond the spread it is the one of
     * all 50; pooled from two halves it is the same as one by one. */
    {
        const double zero[J] = { 0, 0, 0, 0 }, off[J] = { 1, 1, 1, 1 }, one_sd[J] = { 1, 1, 1, 1 };
        const double tiny[J] = { 1e-3, 1e-3, 1e-3, 1e-3 };
        rows copies, solo, mean;
        make_rows(&R, 20, 1, zero, one_sd);
        make_rows(&copies, 30, 1, off, tiny);
        for (int i = 0; i < 30; i++) {
            int k = 20 + i;
            R.kind[k] = 1;
            memcpy(R.a[k], copies.a[i], sizeof R.a[k]);
            memcpy(R.ar[k], copies.ar[i], sizeof R.ar[k]);
            R.r2[k] = copies.r2[i], R.t2[k] = copies.t2[i], R.rr2[k] = copies.rr2[i], R.tau[k] = copies.tau[i];
            R.step[k] = 100;
            for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) R.fp[k][q] = 5e3 + test_rand_uniform(0, 1);
        }
        R.step[19] = R.step[0]; /* rows 0 and 19: a group of two rows that are not copies */
        R.n = 50;
        mean = R;
        mean.n = 21;
        memset(mean.a[20], 0, sizeof mean.a[20]);
        memset(mean.ar[20], 0, sizeof mean.ar[20]);
        mean.r2[20] = mean.t2[20] = mean.rr2[20] = mean.tau[20] = 0;
        for (int i = 20; i < 50; i++) {
            for (int j = 0; j < J; j++) mean.a[20][j] += R.a[i][j] / 30, mean.ar[20][j] += R.ar[i][j] / 30;
            mean.r2[20] += R.r2[i] / 30, mean.t2[20] += R.t2[i] / 30;
            mean.rr2[20] += R.rr2[i] / 30, mean.tau[20] += R.tau[i] / 30;
        }
        slpi_verify_stats st, half, rest, all;
        own o;
        slpi_oracle_stat_init(&st, 1, DIM, alpha);
        add_rows(&st, &R, 0, R.n);
        slpi_oracle_stat_finish(&st, 1);
        TEST_CHECKF(st.rows == 50 && st.observations == 21 && st.copies_groups == 1 && !st.copies,
                    "copies: %ld rows, %ld observations, %ld groups", st.rows, st.observations, st.copies_groups);
        own_stats(&mean, 0, alpha, &o);
        compare("copies, one observation", &st, &o);
        /* pooled from two files that split both groups after their first rows, 0 and 20 */
        slpi_oracle_stat_init(&half, 1, DIM, alpha);
        slpi_oracle_stat_init(&rest, 1, DIM, alpha);
        add_rows(&half, &R, 0, 1);
        add_rows(&half, &R, 20, 21);
        add_rows(&rest, &R, 1, 20);
        add_rows(&rest, &R, 21, R.n);
        TEST_CHECK(slpi_oracle_stat_merge(&half, &rest) == 0 && !rest.copies);
        slpi_oracle_stat_finish(&half, 2);
        TEST_CHECKF(half.observations == 21 && rel_close(half.p_value, st.p_value, 1e-12),
                    "copies pooled: %ld observations, p %.17g against %.17g", half.observations, half.p_value,
                    st.p_value);
        /* one row of the 30 off by more than the spread on one projection: all 50 count */
        solo = R;
        solo.fp[37][2] += 1.5;
        slpi_oracle_stat_init(&all, 1, DIM, alpha);
        add_rows(&all, &solo, 0, solo.n);
        slpi_oracle_stat_finish(&all, 1);
        TEST_CHECKF(all.observations == 50 && all.copies_groups == 0, "not copies: %ld observations", all.observations);
        own_stats(&solo, 0, alpha, &o);
        compare("not copies, every row", &all, &o);
        TEST_CHECKF(all.verdict == SLPI_VERDICT_FAIL && st.verdict != SLPI_VERDICT_FAIL,
                    "the shared offset FAILs 50 rows (%s), not 21 observations (%s)",
                    slpi_verify_stat_verdict_name(all.verdict), slpi_verify_stat_verdict_name(st.verdict));
    }
    TEST_END();
}
