/* ensemble.c — lock-step structure-of-arrays ensembles of the so(3) rigid body for large
 * Monte Carlo studies (docs/systems.md#rigid-body, docs/experiments.md#iso iso/rigid-body/weak, docs/experiments.md#svi; benchmark P2):
 * ISOMP-COMM (docs/schemes.md#isomp) with iso-quad noise and SVI-SO3 (docs/schemes.md#svi-so3, rotation output)
 * with svi-lin noise, specialised to 3-vectors.
 *
 * Paths advance in groups of ENS_K ENS_W lanes (ENS_K = 2 registers of 2, 4 or 8 binary64, solved side by side so that
 * their chains of dependent operations overlap; a last register alone) in lock-step: every lane of a group runs the
 * fixed-point sweep of the general path (isomp.c + so3.c, svi.c + vec3.h) with the same
 * operations in the same order, and the solver policy of docs/schemes.md#solver (fast/solver.h,
 * slpi_fast_iter_check) is evaluated lane-wise with masks. All lanes of a group start
 * together, so they share the iteration count while active; a lane whose policy returns a
 * status is frozen with that iterate (its later sweeps are computed and discarded), so it
 * ends with exactly the iterate, status and iteration count of its scalar run. Every path
 * is therefore bit-identical to slpi_fast_step on the same problem (tests/fast/t-fast-ensemble.c,
 * tests/studies/t-converge.c).
 *
 * The lanes are GCC vector extensions (ENS_W binary64 per vector) in one body,
 * fast/ensemble-lanes.h, compiled three times: here (portable: whatever the baseline ISA
 * lowers them to), in fast/ensemble-avx2.c and in fast/ensemble-avx512.c (AVX-512F, DQ,
 * VL), chosen at run time (slpi_fast_rb_soa.isa). The arithmetic is lane-wise binary64
 * + - x / and comparisons, each rounded like its scalar twin; -ffp-contract=off keeps
 * products and sums apart in every variant (no vfmadd in this object: tests/t-fast-ensemble
 * runs objdump on it), and no variant reassociates. */
#include <math.h>
#include <string.h>
#include "slpi/errors.h"
#include "slpi/registry-ids.h"
#include "core/cpu.h"
#include "core/view-scheme.h"
#include "core/view-solver.h"
#include "core/view-system.h"
#include "fast/fast.h"
#include "fast/ensemble.h"

#define ENS_W 2 /* SSE2, the x86-64 baseline; any target with 16-byte vectors */
#define ENS_ISOMP_FN slpi_fast_ens_isomp_portable
#define ENS_SVI_FN slpi_fast_ens_svi_portable
#include "fast/ensemble-lanes.h"
#define ENS_MODEL_FN slpi_fast_ens_model_portable
#include "fast/ensemble-model.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ENS_X86 1
long slpi_fast_ens_isomp_avx2(const slpi_fast_rb_soa *, long, double, double *, const double *, long *,
                              slpi_fast_lane *);
long slpi_fast_ens_svi_avx2(const slpi_fast_rb_soa *, long, double, double *, const double *, long *, slpi_fast_lane *);
long slpi_fast_ens_isomp_avx512(const slpi_fast_rb_soa *, long, double, double *, const double *, long *,
                                slpi_fast_lane *);
long slpi_fast_ens_svi_avx512(const slpi_fast_rb_soa *, long, double, double *, const double *, long *,
                              slpi_fast_lane *);
#endif

int slpi_fast_ensemble_isa_available(slpi_fast_isa isa)
{
    switch (isa) {
    case SLPI_FAST_ISA_AUTO:
    case SLPI_FAST_ISA_PORTABLE:
        return 1;
#ifdef ENS_X86
    case SLPI_FAST_ISA_AVX2:
        return slpi_cpu_supports(SLPI_CPU_AVX2);
    case SLPI_FAST_ISA_AVX512:
        return slpi_cpu_supports(SLPI_CPU_AVX512);
#endif
    default:
        return 0;
    }
}

slpi_fast_isa slpi_fast_ensemble_isa_best(void)
{
    return slpi_fast_ensemble_isa_available(SLPI_FAST_ISA_AVX512) ? SLPI_FAST_ISA_AVX512
        : slpi_fast_ensemble_isa_available(SLPI_FAST_ISA_AVX2)    ? SLPI_FAST_ISA_AVX2
                                                                  : SLPI_FAST_ISA_PORTABLE;
}

int slpi_fast_ensemble_isa_slot(slpi_fast_isa isa)
{
    if (isa == SLPI_FAST_ISA_AUTO) isa = slpi_fast_ensemble_isa_best();
    if (!slpi_fast_ensemble_isa_available(isa)) isa = SLPI_FAST_ISA_PORTABLE;
    return isa == SLPI_FAST_ISA_AVX512 ? 2 : isa == SLPI_FAST_ISA_AVX2;
}

slpi_fast_soa_kind slpi_fast_rb_soa_kind(const slpi_problem *p, const char **why)
{
    const slpi_scheme_view *sch = slpi_view_scheme(p);
    const slpi_system_view *sys = slpi_view_system(p);
    const char *no = NULL;
    if (sys->system == SLPI_SYS_HEAVY_TOP) /* docs/experiments.md#ensemble-speed: measured */
        no = "no lane kernel for this system (heavy top: TMK's chord LU is LAPACK's, not repeatable in lanes; "
             "RKMK is explicit, 0.25 us a path-step)";
    else if (sys->system != SLPI_SYS_RIGID_BODY)
        no = "no lane kernel for this system (the lanes run the rigid body and models on so3 and so3^k)";
    else if (sys->rb.track_R)
        no = "track_R=1 (the lanes carry no rotation)";
    else if (sch->warm_start)
        no = "warm_start (the lanes start every step cold)";
    else if (sch->scheme == SLPI_SCHEME_ISOMP) {
        if (sys->rb.form != SLPI_RB_FORM_ISO || sys->rb.noise != SLPI_RB_NOISE_ISO_QUAD)
            no = "the lanes run isomp with form=iso noise=iso-quad only";
        else if (sch->isomp_update != SLPI_ISO_UPDATE_COMM)
            no = "the lanes run isomp with update=comm only";
        else if (slpi_view_solver(p)->solver != SLPI_SOLVER_FIXED_POINT)
            no = "the lanes run solver=fixed-point only";
        else
            return SLPI_FAST_SOA_ISOMP;
    } else if (sch->scheme == SLPI_SCHEME_SVI) {
        if (sys->rb.form != SLPI_RB_FORM_SVI || sys->rb.noise != SLPI_RB_NOISE_SVI_LIN)
            no = "the lanes run svi with form=svi noise=svi-lin only";
        else if (sch->svi_output != SLPI_SVI_OUT_ROTATION)
            no = "the lanes run svi with svi_output=rotation only";
        else if (sch->svi_form != SLPI_SVI_FORM_AUTO && sch->svi_form != SLPI_SVI_FORM_SO3)
            no = "the lanes run svi with svi_form=so3 only";
        else
            return SLPI_FAST_SOA_SVI;
    } else {
        no = "the lanes run the schemes isomp and svi only";
    }
    if (why) *why = no;
    return SLPI_FAST_SOA_NONE;
}

slpi_fast_soa_kind slpi_fast_model_soa_kind(const slpi_problem *p, const char **why)
{
    const slpi_scheme_view *sch = slpi_view_scheme(p);
    const slpi_algebra *a = slpi_problem_algebra(p);
    const char *no = NULL;
    if (slpi_view_system(p)->system != SLPI_SYS_MODEL)
        no = "not a model";
    else if (!a || (a->kind != SLPI_ALGEBRA_SO3 && a->kind != SLPI_ALGEBRA_SO3K))
        no = "the model lanes run so3 and so3^k (blocks of 3-vectors); other algebras' ISOMP works on matrices";
    else if (sch->scheme != SLPI_SCHEME_ISOMP)
        no = "the model lanes run isomp only";
    else if (sch->isomp_update != SLPI_ISO_UPDATE_COMM)
        no = "the model lanes run isomp with update=comm only";
    else if (slpi_view_solver(p)->solver != SLPI_SOLVER_FIXED_POINT)
        no = "the model lanes run solver=fixed-point only";
    else if (sch->warm_start)
        no = "warm_start (the lanes start every step cold)";
    for (int k = 0; !no && k <= SLPI_MODEL_MAX_NOISE; k++)
        if (slpi_view_system(p)->model.cb[k].grad) no = "a Hamiltonian given as code (its callbacks run path by path)";
    if (no) {
        if (why) *why = no;
        return SLPI_FAST_SOA_NONE;
    }
    return SLPI_FAST_SOA_MODEL;
}

/* ISOMP's start in the lanes (fast/isomp.c isomp_init: none in the fixed-iteration mode). */
static int soa_predict(const slpi_problem *p)
{
    return slpi_view_solver(p)->fixed_iters > 0 || slpi_view_scheme(p)->predictor == SLPI_PREDICTOR_NONE
        ? SLPI_FAST_PREDICT_NONE
        : slpi_view_scheme(p)->predictor == SLPI_PREDICTOR_CAYLEY ? SLPI_FAST_PREDICT_CAYLEY
                                                                  : SLPI_FAST_PREDICT_EULER;
}

void slpi_fast_model_soa_policy(slpi_fast_model_soa *c, const slpi_problem *p)
{
    c->t0 = slpi_view_system(p)->model.t0;
    slpi_fast_policy_set(&c->pol, p);
    c->predict = soa_predict(p);
    c->isa = slpi_fast_ensemble_isa_best();
}

int slpi_fast_rb_soa_init(slpi_fast_rb_soa *c, const slpi_problem *p, slpi_error *err)
{
    const slpi_scheme_view *sch = slpi_view_scheme(p);
    const slpi_system_view *sys = slpi_view_system(p);
    memset(c, 0, sizeof *c);
    if (sys->system != SLPI_SYS_RIGID_BODY) return slpi_error_set(err, SLPI_EINPUT, "ensemble: rigid-body only");
    for (int i = 0; i < 3; i++) {
        if (!(sys->rb.inertia[i] > 0)) return slpi_error_set(err, SLPI_EINPUT, "ensemble: inertia[%d] must be > 0", i);
        c->Iinv[i] = sys->rb.h0_scale / sys->rb.inertia[i];
    }
    c->amp = sys->rb.amp;
    c->c = sch->svi_c;
    slpi_fast_policy_set(&c->pol, p);
    c->predict = soa_predict(p);
    if (sch->warm_start)
        return slpi_error_set(err, SLPI_EINPUT,
                              "ensemble: warm_start=%d carries one path's solve "
                              "from step to step; the lock-step ensembles start every step cold",
                              sch->warm_start);
    c->isa = slpi_fast_ensemble_isa_best();
    return SLPI_OK;
}

typedef long (*ens_fn)(const slpi_fast_rb_soa *, long, double, double *, const double *, long *, slpi_fast_lane *);

static long ens_dispatch(const ens_fn fn[3], const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW,
                         long *iters, slpi_fast_lane *lane)
{
    long its = 0;
    slpi_fast_rb_soa ch;
    if (c->pol.tol_h > 0) { /* tol_scale=step: relative to this call's step */
        ch = *c;
        ch.pol.tol_h = fabs(h);
        c = &ch;
    }
    long bad = fn[slpi_fast_ensemble_isa_slot(c->isa)](c, nl, h, x, dW, &its, lane);
    if (iters) *iters += its;
    return bad;
}

long slpi_fast_rb_isomp_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                            slpi_fast_lane *lane)
{
#ifdef ENS_X86
    static const ens_fn fn[3] = { slpi_fast_ens_isomp_portable, slpi_fast_ens_isomp_avx2, slpi_fast_ens_isomp_avx512 };
#else
    static const ens_fn fn[3] = { slpi_fast_ens_isomp_portable, slpi_fast_ens_isomp_portable,
                                  slpi_fast_ens_isomp_portable };
#endif
    return ens_dispatch(fn, c, nl, h, x, dW, iters, lane);
}

long slpi_fast_rb_svi_soa(const slpi_fast_rb_soa *c, long nl, double h, double *x, const double *dW, long *iters,
                          slpi_fast_lane *lane)
{
#ifdef ENS_X86
    static const ens_fn fn[3] = { slpi_fast_ens_svi_portable, slpi_fast_ens_svi_avx2, slpi_fast_ens_svi_avx512 };
#else
    static const ens_fn fn[3] = { slpi_fast_ens_svi_portable, slpi_fast_ens_svi_portable, slpi_fast_ens_svi_portable };
#endif
    return ens_dispatch(fn, c, nl, h, x, dW, iters, lane);
}
