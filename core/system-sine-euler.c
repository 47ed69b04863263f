/* system-sine-euler.c — the sine-Euler system on su(N), N odd (docs/systems.md#sine-euler):
 * its descriptor (core/system.h). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-sine-euler.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"

static int state_dim(const slpi_problem *p)
{
    return p->sys.se.N * p->sys.se.N;
}

static int noise_count(const slpi_problem *p)
{
    return p->sys.se.noise ? 2 : 0;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    slpi_system_sun_name(p->sys.se.N, i, buf, n);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 0;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "su(%d)", p->sys.se.N);
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.se.noise ? "SALT noise: linear H_k" : "no noise";
    return 1;
}

/* RKMK §6 */
static void defaults(slpi_problem *p)
{
    p->sys.se.N = 3;
    p->sys.se.amp = 0.1;
    p->sys.se.noise = 1;
    p->sys.se.ic = SLPI_SE_IC_CANONICAL;
    p->sys.se.ic_seed = 1;
    p->grid.h = 0.5;
    p->grid.steps = 2000;
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

/* Fourier coefficients omega_m: canonical real-even (omega_(0,1) = 0.3, omega_(1,1) = -0.2,
 * omega_(1,0) = 0.45, omega_(1,-1) = -0.1, and omega_-m = omega_m), or random / complex
 * ones from ic_seed (splitmix64 uniforms in [-1/2, 1/2) for the modes after the zero mode,
 * omega_-m = conj omega_m). Mode order: m1 = -K..K, then m2 = -K..K, K = (N-1)/2, the zero
 * mode skipped; each path maps them with its own basis. */
static int default_state(const slpi_problem *p, double *om, slpi_error *err)
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


static int initial_size(const slpi_problem *p)
{
    return 2 * (p->sys.se.N * p->sys.se.N - 1);
}

static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    return slpi_system_check_traceless(x, p->sys.se.N, src, err);
}

static int validate(const slpi_problem *p, slpi_error *err)
{
    if (p->sys.se.N % 2 == 0)
        return slpi_error_set(err, SLPI_EINPUT, "N=%d: sine-Euler needs N odd (docs/systems.md#sine-euler)",
                              p->sys.se.N);
    return SLPI_OK;
}

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_se_noise[] = { "none", "two-mode", NULL };
static const char *const e_se_ic[] = { "canonical", "random", "complex", NULL };
_Static_assert(sizeof e_se_ic / sizeof e_se_ic[0] == SLPI_SE_IC_COMPLEX + 2, "a name an initial condition, then NULL");
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "N", SLPI_SYS_SINE_EULER, K_INT, OFF(sys.se.N), 0, NULL, 3, 99, "su(N), N odd" },
    { "amp", SLPI_SYS_SINE_EULER, K_DOUBLE, OFF(sys.se.amp), 0, NULL, 0, 1e6, "noise amplitude (0.1)" },
    { "noise", SLPI_SYS_SINE_EULER, K_ENUM, OFF(sys.se.noise), 0, e_se_noise, 0, 0, "none | two-mode (modes (1,1) and (1,-1))" },
    { "ic", SLPI_SYS_SINE_EULER, K_ENUM, OFF(sys.se.ic), 0, e_se_ic, 0, 0, "canonical | random | complex" },
    { "ic_seed", SLPI_SYS_SINE_EULER, K_U64, OFF(sys.se.ic_seed), 0, NULL, 0, 0, "seed of a random initial condition" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_sine_euler = {
    .name = "sine-euler",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_PAPER, "RKMK §6" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION, "SALT noise: linear H_k, consistent" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_PAPER, "RKMK §6, Fig. 9" },
        [SLPI_SCHEME_ISOMP] = { SLPI_EXTENSION, "su(N) is J-quadratic" },
        [SLPI_SCHEME_SVI] = { SLPI_EXTENSION, "SVI-LP on U(N); c = -1/4 N/A" },
    },
    .state_dim = state_dim,
    .noise_count = noise_count,
    .state_name = state_name,
    .truncates = truncates,
    .layout_algebra = layout_algebra,
    .le_consistent = le_consistent,
    .defaults = defaults,
    .initial_kind = SLPI_INITIAL_FOURIER,
    .initial_size = initial_size,
    .default_state = default_state,
    .check_state = check_state,
    .validate = validate,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .svi_form = SLPI_SVI_FORM_LP,
    .svi_forms = 1u << SLPI_SVI_FORM_LP,
    .tmk_tol = 1e-14,
};
/* clang-format on */
