/* core/view-system.h — the system a problem integrates: one view of a problem, read-only once finished
 * (docs/design.md#views). A file outside core/ reads a problem through the views it
 * needs (slpi_view_system(p)->member), never through the struct (core/problem-struct.h), so a change
 * to another concern's members recompiles none of it. Not installed. */
#ifndef SLPI_CORE_VIEW_SYSTEM_H
#define SLPI_CORE_VIEW_SYSTEM_H

#include <stdint.h>
#include "slpi/registry-ids.h"
#include "core/problem-options.h"
#include "slpi/limits.h"
#include "core/algebra-type.h"

typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* The system, its parameters by system (one member a built-in system, model for a
 * model) and the initial condition. */
typedef struct slpi_system_view {
    slpi_system_id system;
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
} slpi_system_view;

/* p's system view: owned by p, valid while p lives and unchanged. */
const slpi_system_view *slpi_view_system(const slpi_problem *p);
/* p's system view to change, for a problem the caller is building (before
 * slpi_problem_finish or slpi_problem_plan; a plan's problem is never changed). */
slpi_system_view *slpi_view_system_edit(slpi_problem *p);

#endif
