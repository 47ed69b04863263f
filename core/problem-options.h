/* core/problem-options.h — the enumerated options of a problem's keys (their names are in
 * core/problem-keys.c's key table), for the struct (core/problem-struct.h) and the code
 * that reads them: private, not installed (their text limits are slpi/limits.h's). */
#ifndef SLPI_CORE_PROBLEM_OPTIONS_H
#define SLPI_CORE_PROBLEM_OPTIONS_H


typedef struct slpi_problem slpi_problem; /* opaque (slpi/problem.h) */

/* Enumerated options (the string names are in core/problem-keys.c's key table). */
typedef enum { SLPI_RB_FORM_ISO, SLPI_RB_FORM_SVI } slpi_rb_form;
typedef enum {
    SLPI_RB_NOISE_NONE,      /* M = 0 */
    SLPI_RB_NOISE_ISO_QUAD,  /* H_i = amp x_i^2 (Frobenius), i = 1..3   (ISO §6.1) */
    SLPI_RB_NOISE_ISO_QUAD1, /* only H_1 of iso-quad, M = 1            (derived)  */
    SLPI_RB_NOISE_SVI_LIN,   /* h_i = amp e_i . Pi, i = 1..3            (SVI §7.1) */
    SLPI_RB_NOISE_SVI_LIN1,  /* h_1 = amp/sqrt3 (1,1,1) . Pi, M = 1     (choice)   */
    SLPI_RB_NOISE_CONST_E3   /* one linear noise chi = amp e_3 (weak-exact oracles) */
} slpi_rb_noise;

typedef enum { SLPI_HT_FORM_RKMK, SLPI_HT_FORM_SVI } slpi_ht_form;
typedef enum {
    SLPI_HT_NOISE_NONE,
    SLPI_HT_NOISE_SALT,      /* h_1 = alpha . pi                  (RKMK §5)        */
    SLPI_HT_NOISE_CASE1,     /* h_1 = k1 Pi_z                      (SVI §8.3)       */
    SLPI_HT_NOISE_CASE2,     /* h_1 = mg k1 Gamma_z                                 */
    SLPI_HT_NOISE_CASE2_PI2, /* h_1 = k1 |Pi|^2                                     */
    SLPI_HT_NOISE_CASE3,     /* h_1 = mg k1 Gamma_x, h_2 = mg k2 Gamma_y            */
    SLPI_HT_NOISE_CASE3_PI   /* h_1 = k1 Pi_x, h_2 = k2 Pi_y                        */
} slpi_ht_noise;

typedef enum { SLPI_VORTEX_MODEL_A, SLPI_VORTEX_MODEL_B } slpi_vortex_model;
/* Q and L: the built-in noise (43)/(44); MODES: the user's list noise_modes; FIELDS: the
 * user's file of fields xi_k, noise_fields (docs/systems.md#zeitlin-family) */
typedef enum {
    SLPI_EZ_NOISE_NONE,
    SLPI_EZ_NOISE_Q,
    SLPI_EZ_NOISE_L,
    SLPI_EZ_NOISE_MODES,
    SLPI_EZ_NOISE_FIELDS
} slpi_ez_noise;
typedef enum { SLPI_SE_IC_CANONICAL, SLPI_SE_IC_RANDOM, SLPI_SE_IC_COMPLEX } slpi_se_ic;
typedef enum { SLPI_CAP_FAIL, SLPI_CAP_ACCEPT } slpi_cap_policy;
typedef enum { SLPI_ISO_UPDATE_COMM, SLPI_ISO_UPDATE_CAY } slpi_isomp_update;
/* The certified path's products of su(N)/so(n) ISOMP steps (docs/design.md#blas-route). */
typedef enum { SLPI_MATMUL_AUTO, SLPI_MATMUL_ARB, SLPI_MATMUL_BLAS } slpi_matmul_route;
/* The certified path's propagation (key propagation; docs/conventions.md#long-certified): AUTO is
 * the mean-value (Lohner) form wherever the scheme has its certified step Jacobian, else
 * the plain ball form. */
typedef enum { SLPI_PROPAGATION_BALL, SLPI_PROPAGATION_LOHNER, SLPI_PROPAGATION_AUTO } slpi_propagation;
typedef enum { SLPI_SVI_FORM_AUTO, SLPI_SVI_FORM_LP, SLPI_SVI_FORM_SO3, SLPI_SVI_FORM_SD } slpi_svi_form;
typedef enum { SLPI_SVI_OUT_ROTATION, SLPI_SVI_OUT_NODE } slpi_svi_output;
typedef enum { SLPI_SOLVER_FIXED_POINT, SLPI_SOLVER_NEWTON } slpi_solver_kind;
/* tol relative to max(1, |u|) (STATE, default) or to h |u| (STEP, as quflow scales its
 * stopping rule by dt |W|); |.| the max norm of the iterate */
typedef enum { SLPI_TOL_STATE, SLPI_TOL_STEP } slpi_tol_scale;
/* ISOMP's starting guess of the midpoint solve (docs/schemes.md#solver). */
typedef enum { SLPI_PREDICTOR_EULER, SLPI_PREDICTOR_NONE, SLPI_PREDICTOR_CAYLEY } slpi_predictor;
typedef enum { SLPI_TRUNC_AUTO, SLPI_TRUNC_ON, SLPI_TRUNC_OFF } slpi_trunc_mode;

/* The SVI formulation problem p runs (docs/schemes.md#svi): svi_form when given, else the
 * system's own (its descriptor's svi_form: the SO(3) vector form so3 for the rigid body, the
 * semidirect form sd for the heavy top, the Lie-Poisson matrix form lp for the others) and
 * so3 for a model on so3. The one rule both paths and
 * the validator follow (core/system.c). */
slpi_svi_form slpi_registry_svi_form(const slpi_problem *p);
/* 1 when the products of an ISOMP step on p's system may take the certified path's BLAS
 * route (docs/design.md#blas-route; the system's descriptor says, core/system.h). */
int slpi_registry_blas_route(const slpi_problem *p);

/* A Hamiltonian given as code as the problem holds it: slpi_problem_set_callback's
 * arguments, slpi/callback.h's slpi_model_callback member for member, so that the struct's
 * includers do not include the callbacks' header */
typedef struct {
    int (*grad)(double *dH, const double *mu, int dim, void *user_data); /* NULL: not code */
    int (*hvp)(double *Hw, const double *mu, const double *w, int dim, void *user_data);
    int (*energy)(double *H, const double *mu, int dim, void *user_data);
    void *user_data;
} slpi_model_code;

#endif
