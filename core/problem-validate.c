/* problem-validate.c — is a problem runnable: every key's range (the key table,
 * core/problem-keys.c), the cross-key rules, the problem-dependent part of the applicability
 * matrix (docs/systems.md#applicability; the pairs themselves: core/registry.c; rkmk-le's
 * consistency rule: core/lie-euler.c), a model's applicability; and finishing a problem
 * (T or level resolved into h and steps, then validated, then bound to its noise fields
 * file, core/zeitlin-family.c, and its noise file, core/noise-source.c). */
#include <math.h>
#include <string.h>

#include "slpi/errors.h"
#include "slpi/registry.h"
#include "slpi/problem-shape.h"
#include "slpi/problem-finish.h"
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/fpmode.h"
#include "core/noise.h"
#include "core/plan.h"
#include "core/problem.h"
#include "core/rows.h"
#include "core/system.h"
#include "core/zeitlin-family.h"

/* Refuse a problem set since its last slpi_problem_finish (for the paths' create). */
int slpi_problem_check_finished(const slpi_problem *p, const char *who, slpi_error *err)
{
    if (p->unfinished && (p->grid.T > 0 || p->grid.level >= 0))
        return slpi_error_set(err, SLPI_EINPUT,
                              "%s: T=%.17g, level=%d not resolved: call slpi_problem_finish after "
                              "the last key (it turns T and level into h and steps)",
                              who, p->grid.T, p->grid.level);
    return SLPI_OK;
}

/* A model's applicability, scheme by scheme (docs/models.md#schemes): ISOMP and SVI need a
 * matrix algebra with an invariant pairing (not se3); the SVI-SO3 vector form is for so3
 * only, the SVI-LP form for the matrix algebras; TMK, RKMK-Heun, IM and TRAP need the
 * gradient, its derivative, ad*, the bracket and the orbit map, which every algebra has;
 * RKMK-LE needs the consistency rule (slpi_problem_le_consistent). Also: the model must
 * parse, into *m. (Its initial state is the user's: slpi_problem_initial_state refuses a
 * model without x0 or x0_file, while an API caller may hand the state to the step directly.) */
static int validate_model(const slpi_problem *p, slpi_model *m, slpi_error *err)
{
    if (slpi_model_parse(m, p, err) != SLPI_OK) return SLPI_EINPUT;
    int se3 = m->alg.kind == SLPI_ALGEBRA_SE3, so3 = m->alg.kind == SLPI_ALGEBRA_SO3, reads_t = m->reads_t;
    if (p->sys.model.t0_text[0] && !reads_t) /* as an unused param.NAME: a silent no-op otherwise */
        return slpi_error_set(err, SLPI_EINPUT,
                              "t0=%.40s: no Hamiltonian of the model reads t, so the time origin "
                              "changes nothing; remove it (docs/models.md#time)",
                              p->sys.model.t0_text);
    const char *sch = slpi_scheme_name(p->sch.scheme);
    if (se3 && (p->sch.scheme == SLPI_SCHEME_ISOMP || p->sch.scheme == SLPI_SCHEME_SVI))
        return slpi_error_set(
            err, SLPI_EINPUT, "scheme %s is not applicable to a model on se3: %s", sch,
            p->sch.scheme == SLPI_SCHEME_ISOMP
                ? "ISOMP needs a J-quadratic matrix algebra with an invariant pairing, and se(3) is not one"
                : "SVI's forms are the SO(3) vector form, the semidirect form with R (the heavy top's "
                  "SVI state) and the compact quadratic group form; se3's (pi, gamma) state has none");
    if (p->sch.scheme == SLPI_SCHEME_SVI && p->sch.svi_form == SLPI_SVI_FORM_SO3 && !so3)
        return slpi_error_set(err, SLPI_EINPUT, "svi_form=so3 (SO(3) vector form) needs algebra=so3, not %s",
                              p->sys.model.algebra);
    return SLPI_OK;
}

int slpi_problem_validate(const slpi_problem *p, slpi_error *err)
{
    slpi_model m;
    int rc = slpi_problem_validate_model(p, &m, err);
    slpi_model_free(&m);
    return rc;
}

int slpi_problem_validate_model(const slpi_problem *p, slpi_model *m, slpi_error *err)
{
    const char *reason = "";
    memset(m, 0, sizeof *m);
    if ((unsigned)p->sys.system >= SLPI_SYS_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "unknown system id %d", (int)p->sys.system);
    if ((unsigned)p->sch.scheme >= SLPI_SCHEME_COUNT)
        return slpi_error_set(err, SLPI_EINPUT, "unknown scheme id %d", (int)p->sch.scheme);
    const char *sys = slpi_system_name(p->sys.system), *sch = slpi_scheme_name(p->sch.scheme);
    if (!(p->grid.h > 0) || !isfinite(p->grid.h))
        return slpi_error_set(err, SLPI_EINPUT, "h=%g: the step size must be positive", p->grid.h);
    if (slpi_problem_check_ranges(p, err) != SLPI_OK) return SLPI_EINPUT;
    if (p->sys.system == SLPI_SYS_MODEL && validate_model(p, m, err) != SLPI_OK) return SLPI_EINPUT;
    if (slpi_registry_pair(p->sys.system, p->sch.scheme, &reason) == SLPI_NA)
        return slpi_error_set(err, SLPI_EINPUT, "scheme %s is not applicable to system %s: %s", sch, sys, reason);
    if (p->sch.scheme == SLPI_SCHEME_RKMK_LE &&
        !(p->sys.system == SLPI_SYS_MODEL ? slpi_model_le_consistent(m, &reason)
                                          : slpi_problem_le_consistent(p, &reason)))
        return slpi_error_set(err, SLPI_EINPUT,
                              "scheme rkmk-le is not applicable to system %s with this noise model: "
                              "stochastic Lie-Euler is not Stratonovich-consistent: %s",
                              sys, reason);
    if (p->grid.steps < 1) return slpi_error_set(err, SLPI_EINPUT, "steps=%ld: must be at least 1", p->grid.steps);
    if (p->grid.save_at[0]) { /* the output grid: its times on the step grid, within the run */
        slpi_rows r;
        if (slpi_rows_open(&r, p, err) != SLPI_OK) return SLPI_EINPUT;
        slpi_rows_close(&r);
    }
    if (p->noise.truncate == SLPI_TRUNC_ON && !(p->grid.h < 1.0))
        return slpi_error_set(
            err, SLPI_EINPUT,
            "truncate=on needs h < 1 (the threshold sqrt(2 ell h |ln h|) vanishes at h = 1), got h=%g", p->grid.h);
    if (p->cert.prec_max < p->cert.prec)
        return slpi_error_set(err, SLPI_EINPUT, "prec_max=%ld is below prec=%ld", p->cert.prec_max, p->cert.prec);
    const slpi_system_desc *d = slpi_system_get(p->sys.system);
    if (p->cert.matmul == SLPI_MATMUL_BLAS && (p->sch.scheme != SLPI_SCHEME_ISOMP || !d->blas_route))
        return slpi_error_set(err, SLPI_EINPUT,
                              "matmul=blas: the BLAS route encloses the products of ISOMP "
                              "steps on euler-zeitlin and manakov only, not %s on %s (docs/design.md#blas-route)",
                              sch, sys);
    if (p->sch.warm_start && p->sch.scheme != SLPI_SCHEME_ISOMP)
        return slpi_error_set(err, SLPI_EINPUT, "warm_start=%d is an ISOMP solver option, not %s's", p->sch.warm_start,
                              sch);
    if (p->sch.predictor != SLPI_PREDICTOR_EULER && p->sch.scheme != SLPI_SCHEME_ISOMP)
        return slpi_error_set(err, SLPI_EINPUT, "predictor=%s is an ISOMP solver option, not %s's",
                              slpi_problem_enum_text("predictor", p->sys.system, p->sch.predictor), sch);
    if (p->sch.svi_c != 0.25 && p->sch.svi_c != -0.25)
        return slpi_error_set(err, SLPI_EINPUT, "svi_c=%g: must be 0.25 (true Cayley) or -0.25 (as printed)",
                              p->sch.svi_c);
    if (p->sch.scheme == SLPI_SCHEME_SVI && p->sch.svi_form != SLPI_SVI_FORM_AUTO) {
        int ok = (d->svi_forms >> p->sch.svi_form) & 1u;
        static const char *const what[] = { "", "general quadratic group", "SO(3) vector form",
                                            "semidirect heavy-top form" };
        if (!ok)
            return slpi_error_set(err, SLPI_EINPUT, "svi_form=%s (%s) does not apply to system %s%s",
                                  slpi_problem_enum_text("svi_form", p->sys.system, p->sch.svi_form),
                                  what[p->sch.svi_form], sys,
                                  d->svi_form == SLPI_SVI_FORM_SD ? ": its SVI is the semidirect form sd" : "");
    }
    /* The SVI form in force (slpi_registry_svi_form, the one rule) and what it admits. */
    if (p->sch.scheme == SLPI_SCHEME_SVI) {
        slpi_svi_form form = slpi_registry_svi_form(p);
        if (form == SLPI_SVI_FORM_LP && p->sch.svi_c == -0.25)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "svi_c=-0.25 is defined only for the SO(3) vector "
                                  "forms (svi_form=so3 or sd), not for the lp form of %s",
                                  sys);
        if (form == SLPI_SVI_FORM_LP && p->sch.svi_output == SLPI_SVI_OUT_NODE)
            return slpi_error_set(err, SLPI_EINPUT,
                                  "svi_output=node exists only for the SO(3) vector "
                                  "forms (svi_form=so3 or sd), not for the lp form of %s",
                                  sys);
    }
    if (d->validate(p, err) != SLPI_OK) return SLPI_EINPUT;
    for (int i = 0; i < p->sys.n_x0 && i < SLPI_MAX_X0; i++)
        if (!isfinite(p->sys.x0[i])) return slpi_error_set(err, SLPI_EINPUT, "x0: entry %d is not finite", i + 1);
    if (p->sys.n_x0 > 0 && p->sys.n_x0 != slpi_problem_state_dim(p))
        return slpi_error_set(err, SLPI_EINPUT, "x0: %d values given, the %s state has %d", p->sys.n_x0, sys,
                              slpi_problem_state_dim(p));
    if (p->noise.seed_from_file && !p->noise.noise_file[0])
        return slpi_error_set(err, SLPI_EINPUT, "seed=file: takes the seed of a noise_file, and none is given");
    if (p->sys.n_x0 > 0 && p->sys.x0_file[0]) return slpi_error_set(err, SLPI_EINPUT, "x0 and x0_file are both given");
    return SLPI_OK;
}

int slpi_problem_finish(slpi_problem *p, slpi_error *err)
{
    slpi_model m;
    int rc = slpi_problem_finish_model(p, &m, err);
    slpi_model_free(&m);
    return rc;
}

/* T / h, h = T 2^-level and the model's constants, rounded to nearest whatever the caller's
 * direction (slpi_problem_finish_model sets it: core/fpmode.h). */
static int finish_model(slpi_problem *p, slpi_model *m, slpi_error *err)
{
    memset(m, 0, sizeof *m);
    if (p->grid.level >= 0) {
        if (!(p->grid.T > 0)) return slpi_error_set(err, SLPI_EINPUT, "level=%d needs T", p->grid.level);
        p->grid.h = ldexp(p->grid.T, -p->grid.level);
        p->grid.steps = 1L << p->grid.level;
    } else if (p->grid.T > 0) {
        double n = p->grid.T / p->grid.h;
        double r = nearbyint(n);
        if (!(r >= 1) || fabs(n - r) > 1e-9 * r || r > 1e12)
            return slpi_error_set(
                err, SLPI_EINPUT,
                "T=%.17g is not an integer multiple of h=%.17g (T/h = %.17g); the step count is never rounded",
                p->grid.T, p->grid.h, n);
        p->grid.steps = (long)r;
    }
    int rc = slpi_problem_validate_model(p, m, err);
    if (rc == SLPI_OK && p->sys.system == SLPI_SYS_EULER_ZEITLIN && p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS)
        rc = slpi_zeitlin_fields_bind(p, err);
    if (rc == SLPI_OK && p->noise.noise_file[0]) rc = slpi_noise_source_bind(p, err);
    if (rc == SLPI_OK) p->unfinished = 0;
    return rc;
}

int slpi_problem_finish_model(slpi_problem *p, slpi_model *m, slpi_error *err)
{
    slpi_fpmode r = slpi_round_nearest();
    int rc = finish_model(p, m, err);
    slpi_round_restore(r);
    return rc;
}

int slpi_problem_finish_unstepped(slpi_problem *p, slpi_error *err)
{
    int rc = slpi_problem_finish(p, err);
    if (rc != SLPI_OK && p->sch.scheme != SLPI_SCHEME_TMK) {
        slpi_problem q = *p;
        slpi_error e2;
        q.sch.scheme = SLPI_SCHEME_TMK;
        if (slpi_problem_finish(&q, &e2) == SLPI_OK) { /* only the scheme was in the way */
            *p = q;
            rc = SLPI_OK;
        }
    }
    return rc;
}
