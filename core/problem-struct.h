/* core/problem-struct.h — the members of a problem (slpi_problem, opaque in slpi.h:
 * docs/design.md#opaque-problem). The library reads them here; outside core/ a file that
 * includes this header is on its way to the key table's getters, and tests/repo/
 * t-architecture.sh counts those files: the count may only go down. Not installed. */
#ifndef SLPI_CORE_PROBLEM_STRUCT_H
#define SLPI_CORE_PROBLEM_STRUCT_H

#include <stdint.h>
#include "slpi/registry.h"
#include "core/problem-options.h"
#include "core/expr.h"

struct slpi_problem {
    /* what */
    slpi_system_id system;
    slpi_scheme_id scheme;
    char preset[64]; /* docs/experiments.md case name, "" if none */

    /* rigid body (docs/systems.md#rigid-body) */
    struct {
        slpi_rb_form form;
        double inertia[3];
        slpi_rb_noise noise;
        double amp;
        double h0_scale;
        int track_R;
    } rb;
    /* heavy top (docs/systems.md#heavy-top) */
    struct {
        slpi_ht_form form;
        double inertia[3];
        double mga[3];
        double mg;
        slpi_ht_noise noise;
        double alpha[3];
        double k[2];
        int potential_printed;
        double theta0;
        double pi0[3];
        int exp_form; /* fast RKMK orbit map: 0 cancellation-free coefficients (default),
                         1 textbook Rodrigues (1 - cos t)/t^2, 2 expm (scaling and squaring),
                         3 textbook Rodrigues with cos t one ulp up (audit R2) */
    } ht;
    /* (SVI form: default state Pi0 = ht.pi0, R0 = rotation by ht.theta0 about e_1,
     *  Gamma0 = R0^T e_3; RKMK form: pi0 = gamma0 = sqrt2/2 (-1, 1, 0).) */
    /* Manakov so(n) (docs/systems.md#manakov) */
    struct {
        int n;
        double amp;
        int noise;
    } mk;
    /* point vortices su(2)^n (docs/systems.md#point-vortices) */
    struct {
        int n;
        slpi_vortex_model model;
        double amp;
        int noise;
    } pv;
    /* Euler–Zeitlin su(N) (docs/systems.md#euler-zeitlin) */
    struct {
        int N;
        slpi_ez_noise noise;
        double amp;
        int ic_lmax;
        double scale;
        /* the Zeitlin family (docs/systems.md#zeitlin-family): psi = (Delta_N -
         * kappa^2)^{-1}(X - F), F = rotation's Coriolis term plus background_modes;
         * noise=modes: H_k = <X, amp_k Y_(l_k, m_k)>; lists "l:m:amp,...";
         * noise=fields: H_k = <X, xi_k>, the xi_k read from the file noise_fields by
         * slpi_problem_finish, which sets n_fields (M) and the file's digest */
        double kappa;
        double rotation;
        char noise_modes[SLPI_EZ_MODES_TEXT];
        char background_modes[SLPI_EZ_MODES_TEXT];
        char noise_fields[SLPI_PATH_MAX];
        uint64_t noise_fields_digest;
        int n_fields;
        /* multiplier: L as its spectral multiplier lambda(l), an expression in l
         * (core/expr.h), in place of Delta_N - kappa^2; "" none */
        char multiplier[SLPI_EXPR_MAX_TEXT];
    } ez;
    /* sine-Euler su(N), N odd (docs/systems.md#sine-euler) */
    struct {
        int N;
        double amp;
        int noise;
        slpi_se_ic ic;
        uint64_t ic_seed;
    } se;
    /* a model (docs/models.md): algebra, Hamiltonian, noise Hamiltonians noise_H1..noise_HM
     * (M = the highest index given; gaps are an error) and parameters param.NAME, all as
     * the text given, parsed by core/expr.h */
    struct {
        char algebra[SLPI_MODEL_NAME_MAX];
        slpi_algebra alg; /* algebra parsed once, by the key's setter (dim 0: not given;
                             slpi_problem_algebra) */
        char H[SLPI_EXPR_MAX_TEXT];
        char noise_H[SLPI_MODEL_MAX_NOISE][SLPI_EXPR_MAX_TEXT];
        int nparam;
        char param_name[SLPI_MODEL_MAX_PARAMS][SLPI_MODEL_NAME_MAX];
        char param_text[SLPI_MODEL_MAX_PARAMS][SLPI_MODEL_PARAM_TEXT];
        double param[SLPI_MODEL_MAX_PARAMS];
        /* key t0: the time of step 0 as given ("": not given, t0 = 0) and its binary64
         * rounding; step n's Hamiltonians read t = t0 + (n + c) h (docs/models.md#time) */
        char t0_text[SLPI_MODEL_PARAM_TEXT];
        double t0;
        /* cb[0] for H, cb[k] for noise_Hk: set by slpi_problem_set_callback */
        slpi_model_code cb[1 + SLPI_MODEL_MAX_NOISE];
    } model;

    /* initial condition: explicit values (n_x0 > 0), a file, or the system default */
    int n_x0;
    double x0[SLPI_MAX_X0];
    char x0_file[SLPI_PATH_MAX];

    /* scheme options (docs/schemes.md#solver solver policy and per-scheme switches) */
    double tol; /* 0 = the scheme's default */
    int maxit;  /* 0 = the scheme's default */
    slpi_cap_policy on_cap;
    int fixed_iters; /* > 0: exactly this many iterations, then ACCEPT */
    slpi_isomp_update isomp_update;
    int reproject;
    double svi_c; /* +0.25 (true Cayley) or -0.25 (as printed) */
    slpi_svi_form svi_form;
    slpi_svi_output svi_output;
    int dexp_order; /* q of the truncated dexp^{-1} (RKMK) */
    slpi_solver_kind solver;
    slpi_tol_scale tol_scale; /* what tol is relative to (docs/schemes.md#solver) */
    int warm_start;           /* ISOMP: 1 starts from the previous step's correction, 2 extrapolates two */
    slpi_predictor
        predictor; /* ISOMP's cold start: Euler predictor (default), X_n, or the Cayley congruence at the Euler predictor */

    /* time grid: h and steps. Set either (h, steps), (h, T) or (T, level): then
     * slpi_problem_finish gives h = T 2^-level and steps = T / h, never rounded. */
    double h;
    long steps;
    double T;                    /* 0: not given */
    int level;                   /* -1: not given */
    int output_every;            /* write every k-th step (1 = all) */
    char save_at[SLPI_PATH_MAX]; /* key save_at: "t1,t2,...", rows at these times on the step
                                    grid instead of every output_every-th step ("": none) */

    /* canonical noise (docs/noise.md, docs/noise.md#contract) */
    uint64_t seed;
    uint64_t path;
    slpi_trunc_mode truncate;
    double trunc_ell; /* ell of A_h = sqrt(2 ell |ln h|); papers: 2 */
    int refine;       /* fine levels summed into one step (0: none) */
    char noise_file[SLPI_PATH_MAX];
    int seed_from_file;                  /* key seed=file: slpi_problem_finish takes seed, path and
                              refine from noise_file's header (docs/noise.md#files) */
    uint64_t noise_digest;               /* FNV-1a 64 of noise_file's bytes, set by slpi_problem_finish
                              (0: not yet); a given one must be the file's */
    char noise_tau[SLPI_NOISE_TAU_TEXT]; /* key noise_tau: "" (white), one correlation time
                              or one per noise Hamiltonian (docs/noise.md#ou, core/noise-ou.c) */

    /* certified path */
    long prec;                /* working precision in bits (default 128) */
    long prec_max;            /* cap for automatic precision doubling */
    int ref_lohner;           /* key propagation: SLPI_PROPAGATION_AUTO (default), _BALL or
                                 _LOHNER (the ref path's mean-value form; slpi_ref_set_lohner) */
    slpi_matmul_route matmul; /* key matmul: who encloses the O(N^3) products */

    /* 1 after slpi_problem_set changed the time grid of a problem with T or level in
     * force, until slpi_problem_finish resolves it: slpi_fast_create and slpi_ref_create
     * refuse the problem then */
    int unfinished;
};

#endif
