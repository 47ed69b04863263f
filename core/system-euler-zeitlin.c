/* system-euler-zeitlin.c — Euler–Zeitlin on su(N) and its family (docs/systems.md#euler-zeitlin,
 * #zeitlin-family): its descriptor (core/system.h). The family's mode lists and fields
 * file are core/zeitlin-family.c's. */
#include <stddef.h>
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "core/problem-struct.h"
#include "core/system.h"
#include "core/system-euler-zeitlin.h"
#include "slpi/errors.h"
#include "core/problem-key-table.h"
#include "core/zeitlin-family.h"
#include "core/problem.h"

int slpi_problem_ic_lmax(const slpi_problem *p)
{
    int top = p->sys.ez.N - 1 < 11 ? p->sys.ez.N - 1 : 11;
    return p->sys.ez.ic_lmax ? p->sys.ez.ic_lmax : top;
}

static int state_dim(const slpi_problem *p)
{
    return p->sys.ez.N * p->sys.ez.N;
}

static int noise_count(const slpi_problem *p)
{
    /* degrees l = floor(N/2) .. N-1, 2l+1 real basis elements each (docs/systems.md#euler-zeitlin) */
    int lmin = p->sys.ez.N / 2;
    if (p->sys.ez.noise == SLPI_EZ_NOISE_MODES) return slpi_zeitlin_modes_count(p->sys.ez.noise_modes);
    if (p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS) return p->sys.ez.n_fields; /* read by slpi_problem_finish */
    return p->sys.ez.noise ? p->sys.ez.N * p->sys.ez.N - lmin * lmin : 0;
}

static void state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    slpi_system_sun_name(p->sys.ez.N, i, buf, n);
}

static int truncates(const slpi_problem *p)
{
    (void)p;
    return 1;
}

static int layout_algebra(const slpi_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "su(%d)", p->sys.ez.N);
    return 1;
}

static int le_consistent(const slpi_problem *p, const char **why)
{
    *why = p->sys.ez.noise == SLPI_EZ_NOISE_Q     ? "reading (Q): H = a_l omega^2/2 is a function of one "
                                                    "coordinate"
        : p->sys.ez.noise == SLPI_EZ_NOISE_L      ? "reading (L): linear H_k"
        : p->sys.ez.noise == SLPI_EZ_NOISE_MODES  ? "noise=modes: linear H_k"
        : p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS ? "noise=fields: linear H_k"
                                                  : "no noise";
    return 1;
}

/* ISO §6.4, strong-test size */
static void defaults(slpi_problem *p)
{
    p->sys.ez.N = 12;
    p->sys.ez.noise = SLPI_EZ_NOISE_Q;
    p->sys.ez.amp = 2.0;
    p->sys.ez.ic_lmax = 0;
    p->sys.ez.scale = 1.0; /* 0: min(11, N-1), slpi_problem_ic_lmax */
    p->grid.h = 0x1p-8;
    p->grid.steps = 100;
}

/* coefficients omega_alpha = cos(1.3 l + 0.7 j + 0.2) for l <= ic_lmax, scaled so that
 * ||omega|| = scale, in the real basis Y_alpha of the quantized harmonics
 * (alpha = l^2 - 1 + j): each path maps them with its own basis */
static int default_state(const slpi_problem *p, double *om, slpi_error *err)
{
    (void)err;
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
    return SLPI_OK;
}

static int initial_size(const slpi_problem *p)
{
    return p->sys.ez.N * p->sys.ez.N - 1;
}

static int check_state(const slpi_problem *p, const double *x, const char *src, slpi_error *err)
{
    return slpi_system_check_traceless(x, p->sys.ez.N, src, err);
}

static int validate(const slpi_problem *p, slpi_error *err)
{
    if (p->sch.scheme == SLPI_SCHEME_TMK && p->sys.ez.N > 32)
        return slpi_error_set(err, SLPI_EINPUT,
                              "scheme tmk is not applicable to euler-zeitlin with N=%d > 32: the chord matrix is "
                              "dense of size (N^2-1)^2",
                              p->sys.ez.N);
    if (slpi_problem_ic_lmax(p) > p->sys.ez.N - 1)
        return slpi_error_set(err, SLPI_EINPUT, "ic_lmax=%d: must be at most N-1 = %d", p->sys.ez.ic_lmax,
                              p->sys.ez.N - 1);
    if (slpi_zeitlin_family_check(p, err) != SLPI_OK) return SLPI_EINPUT;
    return SLPI_OK;
}

#define OFF(f) offsetof(slpi_problem, f)
static const char *const e_ez_noise[] = { "none", "Q", "L", "modes", "fields", NULL };
_Static_assert(sizeof e_ez_noise / sizeof e_ez_noise[0] == SLPI_EZ_NOISE_FIELDS + 2, "a name a noise, then NULL");
/* the system's keys (core/problem-key-table.h), in `slpi list --keys` order */
// clang-format off
static const slpi_key_def keys[] = {
    { "N", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(sys.ez.N), 0, NULL, 2, 1024, "su(N)" },
    { "noise", SLPI_SYS_EULER_ZEITLIN, K_ENUM, OFF(sys.ez.noise), 0, e_ez_noise, 0, 0, "none | Q (default) | L: the built-in noise (43)/(44) | modes: noise_modes | fields: noise_fields" },
    { "amp", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(sys.ez.amp), 0, NULL, 0, 1e6, "a_l = amp / (l (l+1)) (0.1 long run, 2 strong test)" },
    { "ic_lmax", SLPI_SYS_EULER_ZEITLIN, K_INT, OFF(sys.ez.ic_lmax), 0, NULL, 0, 1023, "initial condition uses degrees l <= ic_lmax, at most N-1 (0, the default: min(11, N-1), the papers' 11 where N allows)" },
    { "scale", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE, OFF(sys.ez.scale), 0, NULL, 1e-12, 1e12, "Frobenius norm of the initial condition" },
    /* the Zeitlin family (docs/systems.md#zeitlin-family) */
    { "kappa", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE0, OFF(sys.ez.kappa), 0, NULL, 0, 1e6, "quasi-geostrophic: the stream function is psi = (Delta_N - kappa^2)^-1 (X - F), spectral multiplier -l(l+1) - kappa^2 (kappa = 1/deformation radius; 0: Euler)" },
    { "rotation", SLPI_SYS_EULER_ZEITLIN, K_DOUBLE0, OFF(sys.ez.rotation), 0, NULL, -1e6, 1e6, "Omega of the rotating sphere: F gains the Coriolis term f = 2 Omega cos(theta), 2 Omega sqrt(4 pi/3) on Y_(1,0); X is the potential vorticity. Time runs in the matrix unit: t_sphere = c_N t, c_N = sqrt(16 pi/(N(N^2-1))) (a Rossby-Haurwitz wave of degree l, order m turns at m 2 Omega c_N/(l(l+1)+kappa^2); docs/systems.md#time-unit)" },
    { "background_modes", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(sys.ez.background_modes), SLPI_EZ_MODES_TEXT, NULL, 0, 0, "fixed background vorticity F += sum amp Y_(l,m), as l:m:amp,... (m > 0 cosine, m < 0 sine, 1 <= l <= N-1); F gives H its linear term" },
    { "noise_modes", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(sys.ez.noise_modes), SLPI_EZ_MODES_TEXT, NULL, 0, 0, "noise=modes: one noise Hamiltonian H_k = <X, amp Y_(l,m)> per entry l:m:amp,... (transport noise; M = the entries)" },
    { "multiplier", SLPI_SYS_EULER_ZEITLIN, K_STRING, OFF(sys.ez.multiplier), SLPI_EXPR_MAX_TEXT, NULL, 0, 0, "the Poisson operator L as its spectral multiplier lambda(l), an expression in l (e.g. -l*(l+1)-4, -(l*(l+1))^2): psi = L^-1 (X - F); finite and nonzero at l = 1..N-1, not reading t (L is one operator for the run); in place of kappa (O(N^3) per solve, not kappa's O(N^2))" },
    { "noise_fields", SLPI_SYS_EULER_ZEITLIN, K_PATH, OFF(sys.ez.noise_fields), SLPI_PATH_MAX, NULL, 0, 0, "noise=fields: a file of fields xi_k, one noise Hamiltonian H_k = <X, xi_k> per line of the N^2-1 coefficients on Y_(l,m), l = 1..N-1, m = 0, 1, -1, ..., l, -l ('#' comments; M = the lines)" },
    { "noise_fields_digest", SLPI_SYS_EULER_ZEITLIN, K_U64, OFF(sys.ez.noise_fields_digest), 0, NULL, 0, 0, "FNV-1a 64 of the noise_fields file's bytes: recorded in the header by every run; given (verify, resume), the file must have it" },
};
// clang-format on
#undef OFF

/* clang-format off */
const slpi_system_desc slpi_system_euler_zeitlin = {
    .name = "euler-zeitlin",
    .applicability = {
        [SLPI_SCHEME_TMK] = { SLPI_EXTENSION, "N <= 32 only: the chord matrix is dense of size (N^2-1)^2 (N/A at N = 128)" },
        [SLPI_SCHEME_RKMK_LE] = { SLPI_EXTENSION,
            "Stratonovich-consistent under both readings ((Q): H = a_l omega^2/2 is a function of one "
            "coordinate; (L): linear; docs/schemes.md#rkmk; slpi_problem_le_consistent; claim X4)" },
        [SLPI_SCHEME_RKMK_HEUN] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_IM_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_TRAP_DIRECT] = { SLPI_EXTENSION, "" },
        [SLPI_SCHEME_ISOMP] = { SLPI_PAPER, "ISO §6.4" },
        [SLPI_SCHEME_SVI] = { SLPI_EXTENSION, "SVI-LP on U(N); c = -1/4 N/A" },
    },
    .state_dim = state_dim,
    .noise_count = noise_count,
    .state_name = state_name,
    .truncates = truncates,
    .layout_algebra = layout_algebra,
    .le_consistent = le_consistent,
    .defaults = defaults,
    .initial_kind = SLPI_INITIAL_ZEITLIN,
    .initial_size = initial_size,
    .default_state = default_state,
    .check_state = check_state,
    .validate = validate,
    .keys = keys,
    .nkeys = (int)(sizeof keys / sizeof keys[0]),
    .svi_form = SLPI_SVI_FORM_LP,
    .svi_forms = 1u << SLPI_SVI_FORM_LP,
    .blas_route = 1,
    .isomp_warm_start = 1,
};
/* clang-format on */
