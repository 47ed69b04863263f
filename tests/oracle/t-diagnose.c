/* t-diagnose.c — the arithmetic of verify's diagnosis (oracle/diagnose.c,
 * oracle/README.md#diagnosis) on rows made up here (no port, no step): each ingredient's
 * least-squares relative error, its sandwich interval and the part of sum |r|^2 it
 * explains, computed again by the test; the ranking by that part (a case where ranking by
 * t would differ); an ingredient without a direction not ranked; naming only beside a
 * FAIL; pooled sums equal to the rows added one by one; a local defect's window, and a
 * bump whose evidence beats the whole range's by less than the penalty 2 ln(528), which
 * is no window; separability, the first's t in its joint fit with another ingredient
 * computed again from the rows, at an angle the rows do not resolve and at one they do,
 * over all rows and over a named window's rows alone (window_separability), with the
 * degrees of freedom of the joint fit's sandwich (few rows carrying a direction: few_rows); the first
 * ranked again on a window's rows (window_first); a window's edges refined on the
 * pass over its rows (window_refine); one row made by slpi_oracle_diag_row on the fast path (fast_row); and the
 * first ingredient's p-value, its two-sided t tail times the ingredients ranked (all but
 * the solver's stop, 31) (Bonferroni), the tail integrated here from Student's density
 * (bonferroni). The rigid body's ISOMP gives the ingredients (32 of them: the step's 29,
 * its ten tolerance stops among them, and the drift's 3). SLPI_TEST_SEED draws other rows. */
#include <math.h>
#include <string.h>

#include "slpi/problem.h"
#include "slpi/fast.h"
#include "oracle/oracle.h"
#include "testutil.h"

#define ROWS 2000
#define NI 41
#define STOP 12 /* the solver's stop: given no direction here (an explicit step's) */

static int close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

/* a and b, two orders of one sum whose terms' magnitudes add to mag: equal to tol of mag (a
 * sum that cancels to near 0 keeps its terms' rounding, not a relative one) */
static int close_sum(double a, double b, double mag, double tol)
{
    return fabs(a - b) <= tol * fmax(mag, fmax(fabs(a), fabs(b)));
}

/* A row at step s: ingredient i's |D|^2 dd[i] and z[i] in both forms. */
static void row(double *out, long s, const double *dd, const double *z)
{
    memset(out, 0, SLPI_DIAG_FIELDS * sizeof *out);
    out[0] = (double)s;
    for (int i = 0; i < NI; i++) {
        out[1 + 3 * i] = dd[i];
        out[2 + 3 * i] = out[3 + 3 * i] = z[i];
    }
}

/* The window rule computed here from the rows (every |D|^2 = 1; z[s] ingredient 0's): the
 * noise s2, the median over the 32 bins of width 63 of z's variance within a bin; the
 * largest t^2 = (sum z)^2 / (n s2) of a run of bins with the sign of the whole range's
 * sum, less the whole range's; the run in *a..*b. */
static double best_t2(const double *z, int *a, int *b)
{
    double sum = 0, bin[SLPI_DIAG_BINS] = { 0 }, var[SLPI_DIAG_BINS] = { 0 }, best = -1;
    int w[SLPI_DIAG_BINS];
    for (int y = 0; y < SLPI_DIAG_BINS; y++) w[y] = y == 31 ? ROWS - 31 * 63 : 63;
    for (long s = 0; s < ROWS; s++) {
        sum += z[s];
        bin[s / 63] += z[s];
    }
    for (long s = 0; s < ROWS; s++) {
        double m = bin[s / 63] / w[s / 63];
        var[s / 63] += (z[s] - m) * (z[s] - m) / (w[s / 63] - 1);
    }
    for (int i = 1; i < SLPI_DIAG_BINS; i++) /* sorted, for the median */
        for (int j = i; j > 0 && var[j] < var[j - 1]; j--) {
            double t = var[j];
            var[j] = var[j - 1];
            var[j - 1] = t;
        }
    double s2 = (var[15] + var[16]) / 2;
    for (int x = 0; x < SLPI_DIAG_BINS; x++) {
        double e = 0, n = 0;
        for (int y = x; y < SLPI_DIAG_BINS; y++) {
            e += bin[y];
            n += w[y];
            if (e * sum > 0 && e * e / (n * s2) > best) {
                best = e * e / (n * s2);
                *a = x;
                *b = y;
            }
        }
    }
    return best - sum * sum / (ROWS * s2);
}

/* Rows of a local defect: z = 0.2 + sigma (alternating signs) for ingredient 0 and sigma
 * for the others, |D|^2 = 1, plus c for ingredient 0 on steps lo..hi-1, into d (when not
 * NULL); those of steps wlo..whi into w, binned over those steps (the window's pass);
 * ingredient 0's z into z[s] (when not NULL). */
static void defect_rows(slpi_verify_diagnosis *d, slpi_verify_diagnosis *w, const slpi_problem *p, long lo, long hi,
                        double c, long wlo, long whi, double *z)
{
    double buf[SLPI_DIAG_FIELDS];
    slpi_oracle_diag_init(w, p, 3, wlo, whi, 0x1p-24);
    for (long s = 0; s < ROWS; s++) {
        double dd[NI], zi[NI];
        for (int i = 0; i < NI; i++) {
            dd[i] = 1;
            zi[i] = (i == 0 ? 0.2 : 0) + (s % 2 ? 1 : -1) + (i == 0 && s >= lo && s < hi ? c : 0);
        }
        if (z) z[s] = zi[0];
        row(buf, s, dd, zi);
        if (d) slpi_oracle_diag_add(d, buf);
        if (s >= wlo && s <= whi) slpi_oracle_diag_add(w, buf);
    }
}

/* defect_rows with c on steps 630..755 (bins 10 and 11 of width 63), d from empty and w
 * those steps' pass; the best t^2 of the rule computed here (best_t2). */
static double window_rows(slpi_verify_diagnosis *d, slpi_verify_diagnosis *w, const slpi_problem *p, double c,
                          double *z, int *a, int *b)
{
    slpi_oracle_diag_init(d, p, 3, 0, ROWS - 1, 0x1p-24);
    defect_rows(d, w, p, 630, 756, c, 630, 755, z);
    return best_t2(z, a, b);
}

/* slpi_oracle_diag_row on the rigid body's fast path, 4 steps from its initial state on
 * drawn increments: the row is at its step `to`; each ingredient's |D|^2 >= 0, some > 0;
 * with rr = 2 r the rounded form's z is exactly twice the exact form's (both are <r, D_i>
 * sums of the same products); a row whose steps fail (a start of NaN) is marked -1 and
 * slpi_oracle_diag_add leaves it out of the diagnosis (rows 0), without "out of memory". */
static void fast_row(const slpi_problem *p)
{
    slpi_fast *f = NULL;
    slpi_error err = { 0, "" };
    if (slpi_fast_create(&f, p, &err) != SLPI_OK) {
        TEST_CHECKF(0, "slpi_fast_create: %s", err.msg);
        return;
    }
    double x0[3], x1[3], r[3], rr[3], dw[4 * 3], out[SLPI_DIAG_FIELDS], bad[3] = { NAN, 0, 0 };
    TEST_CHECK(slpi_fast_initial_state(f, x0, &err) == SLPI_OK);
    for (int j = 0; j < 3; j++) {
        x1[j] = x0[j];
        r[j] = test_rand_uniform(-1, 1);
        rr[j] = 2 * r[j];
    }
    for (int l = 0; l < 12; l++) dw[l] = test_rand_uniform(-0.1, 0.1);
    slpi_oracle_local_row lr;
    memset(&lr, 0, sizeof lr);
    lr.from = 10;
    lr.to = 14;
    lr.start = x0;
    lr.state = x1;
    int nomem = 0, some = 0;
    slpi_oracle_diag_row(f, &lr, dw, 3, r, rr, 1.0, 3, out, &nomem);
    TEST_CHECKF(out[0] == 14 && !nomem, "a row of steps 10..14: marked %g (nomem %d)", out[0], nomem);
    for (int i = 0; i < NI; i++) {
        some |= out[1 + 3 * i] > 0;
        TEST_CHECKF(out[1 + 3 * i] >= 0 && out[3 + 3 * i] == 2 * out[2 + 3 * i],
                    "ingredient %d: |D|^2 %g, z %g, rounded form's z %g (rr = 2 r)", i, out[1 + 3 * i], out[2 + 3 * i],
                    out[3 + 3 * i]);
    }
    TEST_CHECK(some);
    lr.start = bad;
    slpi_oracle_diag_row(f, &lr, dw, 3, r, rr, 1.0, 3, out, &nomem);
    slpi_verify_diagnosis d;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    slpi_oracle_diag_add(&d, out);
    TEST_CHECKF(out[0] == -1 && d.rows == 0 && !nomem, "a row whose steps fail: marked %g, %ld rows (nomem %d)", out[0],
                d.rows, nomem);
    slpi_fast_free(f);
}

/* The rows of the separability cases, added to d (and those of steps lo..hi-1 to w, the
 * window's pass, when w is not NULL): two ingredients with a direction, drift (0) and
 * noise 1 (1), D_0 = a (1, 0) and D_1 = a (cos phi_s, sin phi_s) in a plane (a drawn per
 * row), phi_s = phi on steps lo..hi-1 and 90 deg elsewhere, r = amp D_0 + mix D_1 on those
 * steps (0 elsewhere) plus noise of `noise` in antithetic pairs of rows (the noise of row
 * 2m + 1 is row 2m's negated); the others no direction. rz holds each row's z_0, z_1 and rd
 * its |D_0|^2, |D_1|^2, <D_0, D_1>; returned: sum |r|^2. */
static double plant_pair(slpi_verify_diagnosis *d, slpi_verify_diagnosis *w, double (*rz)[2], double (*rd)[3], long lo,
                         long hi, double phi, double amp, double mix, double noise)
{
    double r2 = 0, buf[SLPI_DIAG_FIELDS], dd[NI] = { 0 }, z[NI] = { 0 }, deg = acos(-1.0) / 180, a = 0, e[2] = { 0 };
    for (long s = 0; s < ROWS; s++) {
        for (int j = 0; s % 2 == 0 && j < 2; j++) e[j] = noise * (test_rand_uniform(-1, 1) + test_rand_uniform(-1, 1));
        a = s % 2 ? a : test_rand_uniform(0.5, 2.0);
        const int in = s >= lo && s < hi;
        const double c = cos((in ? phi : 90) * deg), sn = sin((in ? phi : 90) * deg);
        const double r[2] = { (in ? (amp + mix * c) * a : 0) + (s % 2 ? -e[0] : e[0]),
                              (in ? mix * sn * a : 0) + (s % 2 ? -e[1] : e[1]) };
        z[0] = rz[s][0] = a * r[0];
        z[1] = rz[s][1] = a * (c * r[0] + sn * r[1]);
        dd[0] = dd[1] = rd[s][0] = rd[s][1] = a * a;
        rd[s][2] = a * a * c;
        r2 += r[0] * r[0] + r[1] * r[1];
        row(buf, s, dd, z);
        buf[SLPI_DIAG_PAIR(0, 1)] = rd[s][2];
        slpi_oracle_diag_add(d, buf);
        if (w && in) slpi_oracle_diag_add(w, buf);
    }
    return r2;
}

/* The joint fit r ~ b_f D_f + b_j D_j over the rows lo..hi-1 of plant_pair (fa f's index,
 * 0 or 1), computed here from the rows' scores (e = (z_f, z_j) - G_row b, the sandwich
 * G^-1 sum e e^T G^-1 n / (n - 1)): f's t, and j's into *tj; each t's degrees of freedom
 * (Satterthwaite's, docs/power.md#separability-df: (sum q)^2 / sum q^2 over the rows, q =
 * v^T G_row v for v the coefficient's row of G^-1, at most n - 2) into df[0] and df[1]. */
static double sandwich_t(double (*rz)[2], double (*rd)[3], long lo, long hi, int fa, double *tj, double *df)
{
    int fb = 1 - fa;
    double G[2][2] = { { 0 } }, S[2] = { 0 }, M[2][2] = { { 0 } }, n = (double)(hi - lo), q[2] = { 0 }, q2[2] = { 0 };
    for (long s = lo; s < hi; s++) {
        G[0][0] += rd[s][fa];
        G[1][1] += rd[s][fb];
        G[0][1] += rd[s][2];
        S[0] += rz[s][fa];
        S[1] += rz[s][fb];
    }
    G[1][0] = G[0][1];
    double det = G[0][0] * G[1][1] - G[0][1] * G[0][1];
    double Gi[2][2] = { { G[1][1] / det, -G[0][1] / det }, { -G[0][1] / det, G[0][0] / det } };
    double b[2] = { Gi[0][0] * S[0] + Gi[0][1] * S[1], Gi[1][0] * S[0] + Gi[1][1] * S[1] };
    for (long s = lo; s < hi; s++) {
        double e[2] = { rz[s][fa] - rd[s][fa] * b[0] - rd[s][2] * b[1],
                        rz[s][fb] - rd[s][2] * b[0] - rd[s][fb] * b[1] };
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) M[i][j] += e[i] * e[j];
        for (int k = 0; k < 2; k++) {
            double qs =
                Gi[k][0] * Gi[k][0] * rd[s][fa] + 2 * Gi[k][0] * Gi[k][1] * rd[s][2] + Gi[k][1] * Gi[k][1] * rd[s][fb];
            q[k] += qs;
            q2[k] += qs * qs;
        }
    }
    double v[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        df[k] = fmin(n - 2, q[k] * q[k] / q2[k]);
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) v[k] += Gi[k][i] * M[i][j] * Gi[j][k];
    }
    *tj = b[1] / sqrt(v[1] * n / (n - 1));
    return b[0] / sqrt(v[0] * n / (n - 1));
}

/* The pair of the first with j in d: its degrees of freedom those of sandwich_t (df), and
 * the first's critical t c with P(|t_nu| > c) = 1e-3 (one pair) for its own nu. diagnose.c
 * expands sum q^2 over the pooled sums, which lose digits to cancellation at angles near 0
 * (1.6e-3 of df at 0.1 deg, against 1e-9 at 30): 1 % of df there. */
static void critical_t(const slpi_verify_diagnosis *d, int j, const double *df, double phi)
{
    double tol = phi < 1 ? 1e-2 : 1e-9;
    TEST_CHECKF(close_rel(d->sep_df[j], df[0], tol) && close_rel(d->other_df[j], df[1], tol),
                "phi %g deg: degrees of freedom %g and %g, want %g and %g", phi, d->sep_df[j], d->other_df[j], df[0],
                df[1]);
    TEST_CHECKF(close_rel(slpi_oracle_f_tail(d->sep_crit[j] * d->sep_crit[j], 1, d->sep_df[j]), 1e-3, 1e-6),
                "phi %g deg: the critical t %g has P(|t_%g| > c) = %g, want 1e-3 (one pair)", phi, d->sep_crit[j],
                d->sep_df[j], slpi_oracle_f_tail(d->sep_crit[j] * d->sep_crit[j], 1, d->sep_df[j]));
}

/* Separability (oracle/diagnose.c's header comment): rows of two ingredients with a
 * direction, drift (0) and noise 1 (1), D_0 = a (1, 0) and D_1 = a (cos phi, sin phi) in a
 * plane (a drawn per row), r = D_0 + noise of 0.5 (a single t near 120), in antithetic
 * pairs of rows (the noise sums to 0: the joint t is its expectation t_0 sin(phi), not a
 * draw that crosses the critical t at the rate alpha); the others no direction. Both
 * joint t's as sandwich_t computes them; at 0.1 deg (a joint t near 0.2) the rows do not
 * separate the two, whichever is first; at 30 deg (near 60) they do, drift first, noise
 * 1's joint t near 0. With mix: r = D_0 + D_1 at 30 deg, both joint t's beyond the
 * critical t: not separated, "both", and no factor of rows (NaN). */
static void separability(const slpi_problem *p, double phi, double mix)
{
    slpi_verify_diagnosis d;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    static double rz[ROWS][2], rd[ROWS][3];
    slpi_oracle_diag_finish(&d, 0, plant_pair(&d, NULL, rz, rd, 0, ROWS, phi, 1, mix, 0.5), 1e-3, 1);
    int fa = d.order[0], fb = 1 - fa;
    double tj, df[2], t = sandwich_t(rz, rd, 0, ROWS, fa, &tj, df);
    TEST_CHECKF(d.named && d.ranked == 2 && (fa == 0 || phi < 1 || mix > 0) && close_rel(d.sep_t[fb], t, 1e-6) &&
                    fabs(d.other_t[fb] - tj) <= 1e-6 * fmax(1, fabs(tj)) && fabs(d.angle[fb] - phi) <= 1e-6 * phi,
                "phi %g deg, mix %g: named %d, %d ranked, first %s, joint t %g and %g (want %g and %g), angle %g", phi,
                mix, d.named, d.ranked, d.name[fa], d.sep_t[fb], d.other_t[fb], t, tj, d.angle[fb]);
    critical_t(&d, fb, df, phi);
    if (mix > 0)
        TEST_CHECKF(d.alike == 1 && !d.separated[fb] && d.both[fb] && fabs(t) > 20 && fabs(tj) > 20 &&
                        isnan(d.more_rows),
                    "mix %g at %g deg: alike %d, separated %d, both %d, joint t %g and %g, more rows %g", mix, phi,
                    d.alike, d.separated[fb], d.both[fb], t, tj, d.more_rows);
    else if (phi < 1)
        TEST_CHECKF(d.alike == 1 && !d.separated[fb] && !d.both[fb] && fabs(t) < 1 &&
                        close_rel(d.more_rows, d.sep_crit[fb] * d.sep_crit[fb] / (t * t), 1e-5),
                    "phi %g deg: alike %d, separated %d, joint t %g, more rows x%g", phi, d.alike, d.separated[fb], t,
                    d.more_rows);
    else
        TEST_CHECKF(d.alike == 0 && d.separated[fb] && !d.both[fb] && t > 20 && fabs(tj) < 1 && d.more_rows == 1,
                    "phi %g deg: alike %d, separated %d, joint t %g and %g", phi, d.alike, d.separated[fb], t, tj);
}

/* Separability when a few rows carry the other's direction (docs/power.md#separability-df):
 * drift (0) with D_0 = a (1, 0) on every row, noise 1 (1) with D_1 = (0, 1) on 4 rows only
 * (steps 100..103, orthogonal to D_0), r = 3 D_0 plus noise of 0.5 in antithetic pairs, and
 * r's second component 1.3, 0.7, 1.3, 0.7 on those rows: noise 1's joint t is 1 / (0.3 /
 * sqrt(4)) sqrt((n - 1) / n), 6.67, beyond the critical t of n - 2 degrees of freedom (3.3)
 * but not that of the 4 its sandwich has (8.61): the rows separate them, no "both". */
static void few_rows(const slpi_problem *p)
{
    slpi_verify_diagnosis d;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    double r2 = 0, buf[SLPI_DIAG_FIELDS], dd[NI] = { 0 }, z[NI] = { 0 }, a = 0, e = 0;
    for (long s = 0; s < ROWS; s++) {
        if (s % 2 == 0) e = 0.5 * (test_rand_uniform(-1, 1) + test_rand_uniform(-1, 1));
        a = s % 2 ? a : test_rand_uniform(0.5, 2.0);
        const int in = s >= 100 && s < 104;
        const double r[2] = { 3 * a + (s % 2 ? -e : e), in ? (s % 2 ? 0.7 : 1.3) : 0 };
        z[0] = a * r[0];
        dd[0] = a * a;
        z[1] = in ? r[1] : 0;
        dd[1] = in ? 1 : 0;
        r2 += r[0] * r[0] + r[1] * r[1];
        row(buf, s, dd, z);
        slpi_oracle_diag_add(&d, buf);
    }
    slpi_oracle_diag_finish(&d, 0, r2, 1e-3, 1);
    int f = d.order[0], j = 1 - f;
    TEST_CHECKF(
        d.named && d.ranked == 2 && f == 0 && close_rel(d.other_t[j], 0.4 / 0.3 * 5 * sqrt(1999.0 / 2000), 1e-6) &&
            close_rel(d.other_df[j], 4, 1e-9),
        "few rows: named %d, %d ranked, first %s, noise 1's joint t %g (want %g) on %g degrees of freedom (want 4)",
        d.named, d.ranked, d.name[f], d.other_t[j], 0.4 / 0.3 * 5 * sqrt(1999.0 / 2000), d.other_df[j]);
    TEST_CHECKF(d.separated[j] && !d.both[j] && d.alike == 0,
                "few rows: separated %d, both %d, alike %d (the joint t %g on %g degrees of freedom)", d.separated[j],
                d.both[j], d.alike, d.other_t[j], d.other_df[j]);
}

/* Separability on a window's rows (docs/power.md#window-sandwich): drift (0) and noise 1
 * (1) with D_0 = a (1, 0) and D_1 = a (cos phi_s, sin phi_s), phi_s = phi on steps
 * 630..755 (bins 10 and 11) and 90 deg elsewhere (pooled over all rows some 86 deg apart:
 * the whole rows separate them), r = 3 D_0 on those steps plus noise of 0.5 in antithetic
 * pairs of rows. The window named is 630..755; the pass over its rows (w) gives the joint
 * t's, those sandwich_t computes on the window's rows, the critical t for its 126 rows; at
 * 0.1 deg its rows do not separate the two, at 30 deg they do. Before the window's pass
 * nothing is called alike. */
static void window_separability(const slpi_problem *p, double phi)
{
    slpi_verify_diagnosis d, w;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    slpi_oracle_diag_init(&w, p, 3, 0, ROWS - 1, 0x1p-24);
    static double rz[ROWS][2], rd[ROWS][3];
    slpi_oracle_diag_finish(&d, 0, plant_pair(&d, &w, rz, rd, 630, 756, phi, 3, 0, 0.5), 1e-3, 1);
    TEST_CHECKF(d.named && d.from == 630 && d.to == 755 && d.alike == 0, "phi %g: named %d, window %ld..%ld, alike %d",
                phi, d.named, d.from, d.to, d.alike);
    slpi_oracle_diag_window(&d, &w, 0, 1e-3);
    int f = d.order[0], j = 1 - f;
    double tj, df[2], t = sandwich_t(rz, rd, 630, 756, f, &tj, df);
    TEST_CHECKF(d.ranked == 2 && close_rel(d.sep_t[j], t, 1e-6) &&
                    fabs(d.other_t[j] - tj) <= 1e-6 * fmax(1, fabs(tj)) && fabs(d.angle[j] - phi) <= 1e-6 * phi,
                "phi %g deg in the window: first %s, joint t %g and %g (want %g and %g), angle %g", phi, d.name[f],
                d.sep_t[j], d.other_t[j], t, tj, d.angle[j]);
    TEST_CHECKF(df[0] < 124 && df[1] < 124, "phi %g deg: the window's degrees of freedom %g and %g (126 rows)", phi,
                df[0], df[1]);
    critical_t(&d, j, df, phi);
    TEST_CHECKF(phi < 1 ? d.alike == 1 && !d.separated[j] && fabs(t) < 1 : d.alike == 0 && d.separated[j] && t > 20,
                "phi %g deg in the window: alike %d, separated %d, joint t %g (first %d)", phi, d.alike, d.separated[j],
                t, f);
}

/* The first on a window's rows (docs/power.md#window-first): noise 1 (1), the planted one,
 * with D_1 = a (1, 0) on steps 630..755 and 3 a (0, 1) elsewhere, and drift (0) with
 * D_0 = a (cos 20 deg, sin 20 deg) there and a (0, 0.01) elsewhere; r = 3 D_1 on those
 * steps plus noise of 0.5 in antithetic pairs of rows. Over all rows drift explains more
 * (D_1's length outside the window, where nothing is planted, dilutes noise 1's share);
 * on the window's rows (the pass w) noise 1 does: it is first, and "off by ... there" is
 * its sum z / sum |D|^2 over those rows, computed here. */
static void window_first(const slpi_problem *p)
{
    slpi_verify_diagnosis d, w;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    slpi_oracle_diag_init(&w, p, 3, 0, ROWS - 1, 0x1p-24);
    double r2 = 0, buf[SLPI_DIAG_FIELDS], dd[NI] = { 0 }, z[NI] = { 0 }, a = 0, e[2] = { 0 }, Sw = 0, Dw = 0;
    const double c = cos(acos(-1.0) / 9), sn = sin(acos(-1.0) / 9);
    for (long s = 0; s < ROWS; s++) {
        for (int j = 0; s % 2 == 0 && j < 2; j++) e[j] = 0.5 * (test_rand_uniform(-1, 1) + test_rand_uniform(-1, 1));
        a = s % 2 ? a : test_rand_uniform(0.5, 2.0);
        const int in = s >= 630 && s < 756;
        const double r[2] = { (in ? 3 * a : 0) + (s % 2 ? -e[0] : e[0]), s % 2 ? -e[1] : e[1] };
        const double d0[2] = { in ? a * c : 0, in ? a * sn : 0.01 * a }, d1[2] = { in ? a : 0, in ? 0 : 3 * a };
        z[0] = d0[0] * r[0] + d0[1] * r[1];
        z[1] = d1[0] * r[0] + d1[1] * r[1];
        dd[0] = d0[0] * d0[0] + d0[1] * d0[1];
        dd[1] = d1[0] * d1[0] + d1[1] * d1[1];
        if (in) {
            Sw += z[1];
            Dw += dd[1];
        }
        r2 += r[0] * r[0] + r[1] * r[1];
        row(buf, s, dd, z);
        buf[SLPI_DIAG_PAIR(0, 1)] = d0[0] * d1[0] + d0[1] * d1[1];
        slpi_oracle_diag_add(&d, buf);
        if (in) slpi_oracle_diag_add(&w, buf);
    }
    slpi_oracle_diag_finish(&d, 0, r2, 1e-3, 1);
    int before = d.order[0];
    slpi_oracle_diag_window(&d, &w, 0, 1e-3);
    TEST_CHECKF(d.named && d.share[0] > d.share[1] && before == 0 && d.from == 630 && d.to == 755 && d.order[0] == 1 &&
                    close_rel(d.window_rel, Sw / Dw, 1e-9) && d.separated[0],
                "window first: named %d, shares %g (drift) %g (noise 1), window %ld..%ld, first %s, off by %g "
                "there (want %g), drift separated %d",
                d.named, d.share[0], d.share[1], d.from, d.to, d.name[d.order[0]], d.window_rel, Sw / Dw,
                d.separated[0]);
}

/* The window's edges refined (docs/power.md#window-refine): c = 3 on steps 600..799, whose
 * ends fall inside the diagnosis pass's bins of 63 steps. The window named is 567..818
 * (bins 9..12); the pass over its rows, binned over them (32 bins of 8 steps), trims it to
 * within a bin of 600..799, and the pass over that run gives 3 there. A window the defect
 * fills (630..755) is not narrowed. */
static void window_refine(const slpi_problem *p)
{
    static slpi_verify_diagnosis d, w;
    long from = -1, to = -1;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    defect_rows(&d, &w, p, 600, 800, 3, 0, -1, NULL);
    slpi_oracle_diag_finish(&d, 0, 4000, 1e-3, 1);
    TEST_CHECKF(d.named && d.from == 567 && d.to == 818, "3 on 600..799: window %ld..%ld, want 567..818", d.from, d.to);
    defect_rows(NULL, &w, p, 600, 800, 3, d.from, d.to, NULL);
    slpi_oracle_diag_window(&d, &w, 0, 1e-3);
    int narrower = slpi_oracle_diag_refine(&d, &w, 0, &from, &to);
    TEST_CHECKF(w.width == 8 && narrower && labs(from - 600) < 8 && labs(to - 799) < 8,
                "refined: %d, %ld..%ld (bins of %ld), want within 8 of 600..799", narrower, from, to, w.width);
    defect_rows(NULL, &w, p, 600, 800, 3, from, to, NULL);
    d.from = from;
    d.to = to;
    slpi_oracle_diag_window(&d, &w, 0, 1e-3);
    TEST_CHECKF(d.order[0] == 0 && fabs(d.window_rel - 3.2) < 0.1, "over the refined run: first %s, off by %g there",
                d.name[d.order[0]], d.window_rel);
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    defect_rows(&d, &w, p, 630, 756, 3, 0, -1, NULL);
    slpi_oracle_diag_finish(&d, 0, 4000, 1e-3, 1);
    defect_rows(NULL, &w, p, 630, 756, 3, d.from, d.to, NULL);
    slpi_oracle_diag_window(&d, &w, 0, 1e-3);
    TEST_CHECKF(d.from == 630 && d.to == 755 && !slpi_oracle_diag_refine(&d, &w, 0, &from, &to),
                "3 on 630..755: window %ld..%ld narrowed to %ld..%ld", d.from, d.to, from, to);
}

/* P(|T| > t) for Student's T with nu degrees of freedom: Simpson's rule on its density over
 * [t, t + 40], 40000 intervals (for nu ~ 2000 the density falls by e^-700 over that span;
 * the rule's error is below 1e-10 of the tail for t <= 10). */
static double student_tail(double t, double nu)
{
    double c = lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * log(nu * 3.14159265358979323846), h = 40.0 / 40000,
           sum = 0;
    for (int k = 0; k <= 40000; k++) {
        double x = t + k * h, w = k == 0 || k == 40000 ? 1 : k % 2 ? 4 : 2;
        sum += w * exp(c - (nu + 1) / 2 * log1p(x * x / nu));
    }
    return 2 * sum * h / 3;
}

/* Rows where one ingredient (3) is off by c = 0.011 per row beside noise of SD 0.082 (t
 * about 6, below 2 with probability 5e-5), the others noise only, every |D|^2 1: the first
 * ranked ingredient's p is its t's two-sided tail times the 17 ingredients ranked, to 1e-6
 * (a p 17 times too small, the factor lost, is off by 16/17). */
static void bonferroni(const slpi_problem *p)
{
    slpi_verify_diagnosis d;
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    double buf[SLPI_DIAG_FIELDS];
    for (long s = 0; s < ROWS; s++) {
        double dd[NI], z[NI];
        for (int i = 0; i < NI; i++) {
            dd[i] = i == STOP ? 0 : 1;
            z[i] = i == STOP ? 0 : (i == 3 ? 0.011 : 0) + 0.1 * (test_rand_uniform(-1, 1) + test_rand_uniform(-1, 1));
        }
        row(buf, s, dd, z);
        slpi_oracle_diag_add(&d, buf);
    }
    slpi_oracle_diag_finish(&d, 0, ROWS, 1e-3, 1);
    double t = d.t[d.order[0]], want = fmin(1.0, (NI - 1) * student_tail(t, ROWS - 1));
    TEST_CHECKF(d.ranked == NI - 1 && want > 0 && want < 0.5 && close_rel(d.p, want, 1e-6),
                "the first ingredient (%s, t %g): p %.9g, want %.9g (Bonferroni over %d ranked)", d.name[d.order[0]], t,
                d.p, want, d.ranked);
}

int main(void)
{
    test_start("t-diagnose", 2711);
    slpi_problem *p = NULL;
    slpi_error err = { 0, "" };
    TEST_CHECK(test_problem(&p, "iso/rigid-body/trajectories", ROWS, &err) == SLPI_OK);
    slpi_verify_diagnosis d, half[2];
    slpi_oracle_diag_init(&d, p, 3, 0, ROWS - 1, 0x1p-24);
    TEST_CHECKF(d.n == NI && !strcmp(d.name[STOP], "solver stop") && !strcmp(d.name[NI - 1], "drift dH/dx3"),
                "%d ingredients", d.n);
    for (int h = 0; h < 2; h++) slpi_oracle_diag_init(&half[h], p, 3, 0, ROWS - 1, 0x1p-24);
    /* ingredient 1: z = 0.1 dd, noise 1e-6 (large t, small share); ingredient 2: z = 0.3 dd,
     * noise 0.3 (the larger share, a smaller t); the solver's stop no direction (dd = 0);
     * the others noise only */
    double S[NI] = { 0 }, D[NI] = { 0 }, ZD[NI] = { 0 }, D2[NI] = { 0 }, ZZ[NI] = { 0 }, r2 = 0;
    double AZ[NI] = { 0 }, AZD[NI] = { 0 }; /* the sums of |z| and |z| dd, the merge's scale */
    double buf[SLPI_DIAG_FIELDS];
    for (long s = 0; s < ROWS; s++) {
        double dd[NI], z[NI];
        for (int i = 0; i < NI; i++) {
            dd[i] = i == STOP ? 0 : test_rand_uniform(0.5, 2.0);
            double e = test_rand_uniform(-1, 1) + test_rand_uniform(-1, 1);
            z[i] = i == STOP ? 0 : i == 1 ? 0.1 * dd[i] + 1e-6 * e : i == 2 ? 0.3 * dd[i] + 0.3 * e : 0.1 * e;
            S[i] += z[i];
            D[i] += dd[i];
            ZD[i] += z[i] * dd[i];
            D2[i] += dd[i] * dd[i];
            ZZ[i] += z[i] * z[i];
            AZ[i] += fabs(z[i]);
            AZD[i] += fabs(z[i]) * dd[i];
        }
        r2 += 1.0;
        row(buf, s, dd, z);
        slpi_oracle_diag_add(&d, buf);
        slpi_oracle_diag_add(&half[s % 2], buf);
    }
    slpi_oracle_diag_merge(&half[0], &half[1]);
    TEST_CHECK(half[0].rows == d.rows && !memcmp(half[0].bin_rows, d.bin_rows, sizeof d.bin_rows));
    for (int i = 0; i < NI; i++)
        TEST_CHECKF(close_sum(half[0].z[0][i], d.z[0][i], AZ[i], 1e-12) &&
                        close_sum(half[0].zd[1][i], d.zd[1][i], AZD[i], 1e-12) &&
                        close_rel(half[0].d4[i], d.d4[i], 1e-12) &&
                        close_rel(half[0].bin_zz[1][7][i], d.bin_zz[1][7][i], 1e-12),
                    "merged sums of ingredient %d", i);
    slpi_verify_diagnosis e = d;
    slpi_oracle_diag_finish(&d, 0, r2, 1e-3, 1);
    double n = ROWS;
    int stop_ranked = 0;
    for (int k = 0; k < d.ranked; k++) stop_ranked |= d.order[k] == STOP;
    TEST_CHECKF(d.ranked == NI - 1 && !stop_ranked, "an ingredient without a direction is not ranked: %d ranked",
                d.ranked);
    for (int i = 0; i < NI; i++) {
        if (i == STOP) continue;
        double beta = S[i] / D[i], res = ZZ[i] - 2 * beta * ZD[i] + beta * beta * D2[i];
        double se = sqrt(res * n / (n - 1)) / D[i];
        TEST_CHECKF(close_rel(d.rel[i], beta, 1e-9) && close_rel(d.hi[i] - d.lo[i], 2 * 1.959963984540054 * se, 1e-9) &&
                        close_rel(d.share[i], S[i] * S[i] / D[i] / r2, 1e-9),
                    "ingredient %d: rel %g (want %g), interval %g (want %g), share %g", i, d.rel[i], beta,
                    d.hi[i] - d.lo[i], 2 * 1.96 * se, d.share[i]);
    }
    TEST_CHECKF(d.order[0] == 2 && d.order[1] == 1 && d.t[1] > d.t[2], "order %d %d, t %g %g", d.order[0], d.order[1],
                d.t[1], d.t[2]);
    TEST_CHECKF(d.named && d.p <= 1e-3 && d.from < 0, "a FAIL names %s (p %g), over all steps (%ld)",
                d.name[d.order[0]], d.p, d.from);
    slpi_oracle_diag_finish(&e, 0, r2, 1e-3, 0);
    TEST_CHECKF(!e.named && e.p <= 1e-3, "beside a PASS nothing is named (p %g)", e.p);

    /* windows: first c = 3 on steps 630..755, then c such that the best run's t^2 beats the
     * whole range's by 6 < 2 ln(528), the penalty (found by bisection on the rule computed
     * here) */
    static double zs[ROWS];
    static slpi_verify_diagnosis w;
    for (int k = 0; k < 2; k++) {
        double lo = 0, hi = 3, c = 3;
        int a = -1, b = -1;
        for (int it = 0; k == 1 && it < 60; it++) {
            c = (lo + hi) / 2;
            if (window_rows(&d, &w, p, c, zs, &a, &b) > 6)
                hi = c;
            else
                lo = c;
        }
        double t2 = window_rows(&d, &w, p, c, zs, &a, &b);
        slpi_oracle_diag_finish(&d, 0, 4000, 1e-3, 1);
        slpi_oracle_diag_window(&d, &w, 0, 1e-3);
        TEST_CHECKF(d.named && d.order[0] == 0, "window case %d: named %d, first %s", k, d.named, d.name[d.order[0]]);
        if (k == 0)
            TEST_CHECKF(d.from == 630 && d.to == 755 && a == 10 && b == 11 && close_rel(d.window_rel, 3.2, 1e-9),
                        "c = 3 on steps 630..755: window %ld..%ld, off by %g there (t^2 %g, bins %d..%d)", d.from, d.to,
                        d.window_rel, t2, a, b);
        else
            TEST_CHECKF(d.from < 0 && t2 > 5.9 && t2 < 6.1,
                        "a bump of t^2 %g (c = %g, bins %d..%d): window %ld..%ld, none wanted", t2, c, a, b, d.from,
                        d.to);
    }
    separability(p, 0.1, 0);
    separability(p, 30, 0);
    separability(p, 30, 1);
    few_rows(p);
    window_separability(p, 0.1);
    window_separability(p, 30);
    window_first(p);
    window_refine(p);
    fast_row(p);
    bonferroni(p);
    slpi_problem_free(p);
    TEST_END();
}
