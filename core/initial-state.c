/* initial-state.c — the problem's initial state (docs/systems.md), described once for both
 * paths. An explicit x0 / x0_file, or the system's default:
 *   rigid body   ISO form x = (sin 1.1, 0, cos 1.1) (ISO §6.1); SVI form
 *                Pi = (-0.5878, 0, 0.8090) as printed (SVI §7.1); with track_R, R = I
 *   heavy top    RKMK form pi = gamma = sqrt2/2 (-1, 1, 0) (E-R4); SVI form Pi = pi0,
 *                R = rotation by theta0 about e_1 (rows (1,0,0), (0,c,s), (0,-s,c)),
 *                Gamma = R^T e_3
 *   Manakov      X_ij = sin(1.1 i + 0.7 j + 0.3 i j) (1 <= i < j <= n), scaled to
 *                ||X||_F = sqrt 2
 *   vortices     4 unit vectors at the polar/azimuthal angles (theta, phi)/pi of `ang`
 *   Euler–Zeitlin  coefficients omega_alpha = cos(1.3 l + 0.7 j + 0.2) for l <= ic_lmax,
 *                scaled so that ||omega|| = scale, in the real basis Y_alpha of the
 *                quantized harmonics (alpha = l^2 - 1 + j)
 *   sine-Euler   Fourier coefficients omega_m: canonical real-even (omega_(0,1) = 0.3,
 *                omega_(1,1) = -0.2, omega_(1,0) = 0.45, omega_(1,-1) = -0.1, and
 *                omega_-m = omega_m), or random / complex ones from ic_seed (splitmix64
 *                uniforms in [-1/2, 1/2) for the modes after the zero mode, omega_-m =
 *                conj omega_m)
 * The two su(N) defaults are coefficients: each path maps them with its own basis (the
 * double path with its binary64 tables, the certified path in balls), so neither needs
 * the other. Mode order of the Fourier coefficients: m1 = -K..K, then m2 = -K..K,
 * K = (N-1)/2, the zero mode skipped.
 * An explicit x0 / x0_file is read and checked here too (slpi_problem_explicit_x0,
 * slpi_problem_check_state): finite, the right count, on the system's manifold. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "core/problem-struct.h"
#include "core/problem.h"
#include "core/parse.h"
#include "core/fpmode.h"
#include "core/expr.h"

#define IS_PI 3.14159265358979323846

slpi_initial_kind slpi_problem_initial_kind(const slpi_problem *p)
{
    if (p->sys.n_x0 > 0 || p->sys.x0_file[0]) return SLPI_INITIAL_VALUES;
    if (p->sys.system == SLPI_SYS_EULER_ZEITLIN) return SLPI_INITIAL_ZEITLIN;
    if (p->sys.system == SLPI_SYS_SINE_EULER) return SLPI_INITIAL_FOURIER;
    return SLPI_INITIAL_VALUES;
}

int slpi_problem_initial_size(const slpi_problem *p)
{
    switch (slpi_problem_initial_kind(p)) {
    case SLPI_INITIAL_ZEITLIN:
        return p->sys.ez.N * p->sys.ez.N - 1;
    case SLPI_INITIAL_FOURIER:
        return 2 * (p->sys.se.N * p->sys.se.N - 1);
    default:
        return slpi_problem_state_dim(p);
    }
}

static void rigid_body(const slpi_problem *p, double *x)
{
    if (p->sys.rb.form == SLPI_RB_FORM_ISO) {
        x[0] = sin(1.1);
        x[1] = 0;
        x[2] = cos(1.1);
    } else {
        x[0] = -0.5878;
        x[1] = 0;
        x[2] = 0.8090;
    }
    if (p->sys.rb.track_R && p->sys.rb.form == SLPI_RB_FORM_SVI)
        for (int i = 0; i < 9; i++) x[3 + i] = (i % 4 == 0);
}

static void heavy_top(const slpi_problem *p, double *x)
{
    if (p->sys.ht.form == SLPI_HT_FORM_RKMK) {
        double r = sqrt(2.0) / 2;
        double v[6] = { -r, r, 0, -r, r, 0 };
        memcpy(x, v, sizeof v);
        return;
    }
    double th = p->sys.ht.theta0, ct = cos(th), st = sin(th);
    double R[9] = { 1, 0, 0, 0, ct, st, 0, -st, ct };
    memcpy(x, p->sys.ht.pi0, 3 * sizeof *x);
    x[3] = 0;
    x[4] = -st;
    x[5] = ct;
    memcpy(x + 6, R, sizeof R);
}

static void manakov(const slpi_problem *p, double *x)
{
    int n = p->sys.mk.n, k = 0, d = n * (n - 1) / 2;
    double ss = 0;
    for (int i = 1; i <= n; i++)
        for (int j = i + 1; j <= n; j++, k++) {
            x[k] = sin(1.1 * i + 0.7 * j + 0.3 * i * j);
            ss += 2 * x[k] * x[k];
        }
    double f = sqrt(2.0 / ss);
    for (int i = 0; i < d; i++) x[i] *= f;
}

static int vortices(const slpi_problem *p, double *x, slpi_error *err)
{
    static const double ang[4][2] = { { 0.3, 0 }, { 0.45, 0.6 }, { 0.6, 1.3 }, { 0.35, 1.7 } };
    if (p->sys.pv.n != 4)
        return slpi_error_set(err, SLPI_EINPUT,
                              "point-vortices: the default initial condition is for 4 vortices "
                              "(n = %d): give x0",
                              p->sys.pv.n);
    for (int i = 0; i < 4; i++) {
        double th = ang[i][0] * IS_PI, ph = ang[i][1] * IS_PI;
        x[3 * i] = sin(th) * cos(ph);
        x[3 * i + 1] = sin(th) * sin(ph);
        x[3 * i + 2] = cos(th);
    }
    return SLPI_OK;
}

static void zeitlin(const slpi_problem *p, double *om)
{
    int N = p->sys.ez.N, dim = N * N - 1;
    double nrm = 0;
    memset(om, 0, (size_t)dim * sizeof *om);
    for (int l = 1; l <= slpi_problem_ic_lmax(p); l++)
        for (int j = 0; j <= 2 * l; j++) {
            double v = cos(1.3 * l + 0.7 * j + 0.2);
            om[l * l - 1 + j] = v;
            nrm += v * v;
        }
    for (int i = 0; i < dim; i++) om[i] *= p->sys.ez.scale / sqrt(nrm);
}

/* Fourier mode index of (m1, m2) (reduced into -K..K), -1 for the zero mode. */
static int fourier_mode(int N, int m1, int m2)
{
    int K = (N - 1) / 2;
    int r1 = ((m1 % N) + N) % N, r2 = ((m2 % N) + N) % N;
    if (r1 > K) r1 -= N;
    if (r2 > K) r2 -= N;
    int raw = (r1 + K) * N + (r2 + K), zero = K * N + K;
    return raw == zero ? -1 : raw < zero ? raw : raw - 1;
}

/* splitmix64 uniform in [-1/2, 1/2) (53 bits). */
static double fourier_uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53 - 0.5;
}

static int fourier(const slpi_problem *p, double *om, slpi_error *err)
{
    int N = p->sys.se.N, nm = N * N - 1, K = (N - 1) / 2;
    memset(om, 0, 2 * (size_t)nm * sizeof *om);
    if (p->sys.se.ic == SLPI_SE_IC_CANONICAL) {
        static const int mode[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 1, -1 } };
        static const double val[4] = { 0.3, -0.2, 0.45, -0.1 };
        for (int i = 0; i < 4; i++) {
            om[2 * fourier_mode(N, mode[i][0], mode[i][1])] = val[i];
            om[2 * fourier_mode(N, -mode[i][0], -mode[i][1])] = val[i];
        }
        return SLPI_OK;
    }
    if (p->sys.se.ic != SLPI_SE_IC_RANDOM && p->sys.se.ic != SLPI_SE_IC_COMPLEX)
        return slpi_error_set(err, SLPI_EINPUT, "sine-euler: unknown initial condition %d", (int)p->sys.se.ic);
    uint64_t st = p->sys.se.ic_seed;
    for (int k = nm / 2; k < nm; k++) { /* the modes after the zero mode */
        int raw = k < K * N + K ? k : k + 1, m1 = raw / N - K, m2 = raw % N - K;
        double re = fourier_uniform(&st), im = p->sys.se.ic == SLPI_SE_IC_COMPLEX ? fourier_uniform(&st) : 0;
        int neg = fourier_mode(N, -m1, -m2);
        om[2 * k] = re;
        om[2 * k + 1] = im;
        om[2 * neg] = re;
        om[2 * neg + 1] = -im;
    }
    return SLPI_OK;
}

/* The system's default, computed rounding to nearest whatever the caller's direction (the
 * caller of slpi_problem_initial_state sets it: core/fpmode.h), so that a default means
 * one state. */
static int default_state(const slpi_problem *p, double *x, slpi_error *err)
{
    switch (p->sys.system) {
    case SLPI_SYS_RIGID_BODY:
        rigid_body(p, x);
        return SLPI_OK;
    case SLPI_SYS_HEAVY_TOP:
        heavy_top(p, x);
        return SLPI_OK;
    case SLPI_SYS_MANAKOV:
        manakov(p, x);
        return SLPI_OK;
    case SLPI_SYS_POINT_VORTICES:
        return vortices(p, x, err);
    case SLPI_SYS_EULER_ZEITLIN:
        zeitlin(p, x);
        return SLPI_OK;
    case SLPI_SYS_SINE_EULER:
        return fourier(p, x, err);
    case SLPI_SYS_MODEL:
        return slpi_error_set(err, SLPI_EINPUT, "system=model has no default initial state: give x0= or x0_file=");
    default:
        return slpi_error_set(err, SLPI_EINPUT, "initial state: unknown system %d", (int)p->sys.system);
    }
}

int slpi_problem_initial_state(const slpi_problem *p, double *x, slpi_error *err)
{
    int given = slpi_problem_explicit_x0(p, x, err);
    if (given < 0) return err ? err->code : SLPI_EINPUT;
    if (given) return SLPI_OK;
    slpi_fpmode r = slpi_round_nearest();
    int rc = default_state(p, x, err);
    slpi_round_restore(r);
    return rc;
}

/* ------------------------------------------------------------ an explicit x0 */

/* An explicit initial state must lie on the system's manifold (the constraints the
 * schemes preserve, docs/conventions.md): within SLPI_MANIFOLD_TOL, absolute for |gamma| and the
 * rotation R, relative to max(1, max |x|) per diagonal entry for the trace of su(N). */
static int orthogonal(const double *R, double *defect)
{
    double d = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double g = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j] - (i == j);
            if (fabs(g) > d) d = fabs(g);
        }
    double det =
        R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
    *defect = d > fabs(det - 1) ? d : fabs(det - 1);
    return *defect <= SLPI_MANIFOLD_TOL;
}

static int check_manifold(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    double d;
    int n = 0;
    switch (p->sys.system) {
    case SLPI_SYS_RIGID_BODY:
        if (p->sys.rb.track_R && !orthogonal(x + 3, &d))
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s: R is not a rotation: max(|R^T R - I|, |det R - 1|) = %.3g > %g", src, d,
                                  SLPI_MANIFOLD_TOL);
        return SLPI_OK;
    case SLPI_SYS_HEAVY_TOP: {
        const double *g = x + 3;
        double norm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (!(fabs(norm - 1) <= SLPI_MANIFOLD_TOL))
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s: |%s| = %.17g: the direction of gravity must be a unit "
                                  "vector (within %g)",
                                  src, p->sys.ht.form == SLPI_HT_FORM_SVI ? "Gamma" : "gamma", norm, SLPI_MANIFOLD_TOL);
        if (p->sys.ht.form == SLPI_HT_FORM_SVI && !orthogonal(x + 6, &d))
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s: R is not a rotation: max(|R^T R - I|, |det R - 1|) = %.3g > %g", src, d,
                                  SLPI_MANIFOLD_TOL);
        return SLPI_OK;
    }
    case SLPI_SYS_EULER_ZEITLIN:
        n = p->sys.ez.N;
        break;
    case SLPI_SYS_SINE_EULER:
        n = p->sys.se.N;
        break;
    case SLPI_SYS_MODEL:
        if (!slpi_problem_algebra(p) || slpi_problem_algebra(p)->kind != SLPI_ALGEBRA_SUN) return SLPI_OK;
        n = slpi_problem_algebra(p)->n;
        break;
    default:
        return SLPI_OK;
    }
    /* su(N): Im X_aa (the first N values) sum to 0 */
    double tr = 0, scale = 1;
    for (int i = 0; i < n * n; i++) scale = fabs(x[i]) > scale ? fabs(x[i]) : scale;
    for (int i = 0; i < n; i++) tr += x[i];
    if (!(fabs(tr) <= SLPI_MANIFOLD_TOL * scale * n))
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: the trace of X is %.3g i: an su(%d) state is traceless (the "
                              "diagonal values Im X_aa must sum to 0 within %g max(1, max|x|) N)",
                              src, tr, n, SLPI_MANIFOLD_TOL);
    return SLPI_OK;
}

int slpi_problem_check_state(const slpi_problem *p, const double *x, slpi_error *err)
{
    for (int i = 0; i < slpi_problem_state_dim(p); i++)
        if (!isfinite(x[i])) return slpi_error_set(err, SLPI_EINPUT, "x0[%d] = %g: not finite", i, x[i]);
    return check_manifold(p, x, "x0", err);
}

int slpi_problem_explicit_x0(const slpi_problem *p, double *x, slpi_error *err)
{
    int dim = slpi_problem_state_dim(p);
    if (p->sys.n_x0 > 0) {
        if (p->sys.n_x0 != dim) {
            slpi_error_set(err, SLPI_EINPUT, "x0: %d values given, the state has %d", p->sys.n_x0, dim);
            return -1;
        }
        memcpy(x, p->sys.x0, (size_t)dim * sizeof(double));
        return check_manifold(p, x, "x0", err) == SLPI_OK ? 1 : -1;
    }
    if (!p->sys.x0_file[0]) return 0;
    FILE *f = slpi_input_open(p->sys.x0_file, err);
    if (!f) return -1;
    int count = 0, lineno = 0, rc = 1;
    char *line = NULL; /* whole lines: a fixed buffer would split a number at its edge */
    size_t cap = 0;
    ssize_t len;
    while (rc == 1 && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0'; /* CRLF is harmless here */
        if (slpi_parse_text_line(p->sys.x0_file, lineno, line, (size_t)len, err) != SLPI_OK) {
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *save = NULL, where[SLPI_PATH_MAX + 32];
        snprintf(where, sizeof where, "%s:%d:", p->sys.x0_file, lineno);
        for (char *tok = strtok_r(line, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
            double v;
            if (slpi_parse_double(where, tok, -DBL_MAX, DBL_MAX, &v, err) != SLPI_OK) {
                rc = -1;
                break;
            }
            if (count == dim) {
                slpi_error_set(err, SLPI_EINPUT, "%s:%d: more than the %d values of the state", p->sys.x0_file, lineno,
                               dim);
                rc = -1;
                break;
            }
            x[count++] = v;
        }
    }
    free(line);
    fclose(f);
    if (rc == 1 && count != dim) {
        slpi_error_set(err, SLPI_EINPUT, "%s: %d values, the state has %d", p->sys.x0_file, count, dim);
        rc = -1;
    }
    if (rc == 1 && check_manifold(p, x, p->sys.x0_file, err) != SLPI_OK) rc = -1;
    return rc;
}
