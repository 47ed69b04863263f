/* t-registry.c — the applicability matrix (docs/systems.md#applicability) as data: names round-trip, every
 * applicable pair resolves to a valid default problem, every N/A pair is rejected with
 * its reason, and the problem-dependent rules (RKMK-LE's Stratonovich consistency per
 * noise model, the SVI sign variant, Zeitlin TMK size) hold. */
#include "core/problem-struct.h"
#include "slpi.h"
#include "testutil.h"

int main(void)
{
    test_start("t-registry", 1);
    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        slpi_system_id back;
        TEST_CHECK(slpi_system_from_name(slpi_system_name((slpi_system_id)s), &back) == 0 && back == (slpi_system_id)s);
    }
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
        slpi_scheme_id back;
        TEST_CHECK(slpi_scheme_from_name(slpi_scheme_name((slpi_scheme_id)k), &back) == 0 && back == (slpi_scheme_id)k);
    }
    slpi_system_id sx;
    TEST_CHECK(slpi_system_from_name("rigid_body", &sx) != 0);

    /* Count of P/E cells: docs/systems.md#applicability has 6 systems x 7 schemes with these N/A
     * cells, and a model's row is applicable throughout (its rules depend on the model:
     * slpi_problem_validate, docs/models.md#schemes). */
    int applicable = 0;
    for (int s = 0; s < SLPI_SYS_COUNT; s++)
        for (int k = 0; k < SLPI_SCHEME_COUNT; k++) {
            const char *why = NULL;
            slpi_applicability a = slpi_registry_pair((slpi_system_id)s, (slpi_scheme_id)k, &why);
            TEST_CHECK(why != NULL);
            slpi_problem p;
            slpi_error err = { 0, "" };
            slpi_problem_init(&p, (slpi_system_id)s, (slpi_scheme_id)k);
            if (s == SLPI_SYS_MODEL) { /* no default: a model (docs/models.md) on so3, noise linear */
                TEST_CHECK(slpi_problem_set(&p, "algebra", "so3", &err) == 0 &&
                           slpi_problem_set(&p, "H", "x1^2 + x2^2/2 + x3^2/3", &err) == 0 &&
                           slpi_problem_set(&p, "noise_H1", "0.1*x1", &err) == 0 &&
                           slpi_problem_set(&p, "x0", "1,0.5,0.2", &err) == 0);
            }
            int rc = slpi_problem_validate(&p, &err);
            if (a != SLPI_NA) {
                applicable += s <= SLPI_SYS_MODEL; /* the count holds the systems up to model's id */
                /* the default problem of every P/E pair validates (RKMK-LE with the
                 * system's default noise model, state-dependent or not) */
                TEST_CHECKF(rc == SLPI_OK, "%s/%s: %s", slpi_system_name(s), slpi_scheme_name(k), err.msg);
            } else {
                TEST_CHECKF(rc == SLPI_EINPUT && strstr(err.msg, "not applicable"), "%s/%s: rc %d '%s'",
                            slpi_system_name(s), slpi_scheme_name(k), rc, err.msg);
                TEST_CHECK(why[0] != '\0');
            }
        }
    /* the matrix of docs/systems.md#applicability as it stands: a system added after model
     * is held by the loop above, not by this count */
    TEST_CHECKF(applicable == 48, "applicable cells %d (expected 41 built-in + 7 model)", applicable);
    TEST_CHECK(slpi_registry_pair(SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_ISOMP, NULL) == SLPI_NA);
    TEST_CHECK(slpi_registry_pair(SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP, NULL) == SLPI_PAPER);

    /* RKMK-LE is Stratonovich-consistent for every noise model of every system (docs/schemes.md#rkmk,
     * claim X4: state-dependent H_k = phi(<mu, e_k>) included); it validates wherever the
     * system's form takes the noise (the heavy top's RKMK form: SALT or none). The numbers
     * behind the rule: t-audit-gaps compares it with the computed missed drift. */
    static const struct {
        slpi_system_id s;
        const char *noise;
        int runs;
    } le[] = {
        { SLPI_SYS_RIGID_BODY, "none", 1 },      { SLPI_SYS_RIGID_BODY, "iso-quad", 1 },
        { SLPI_SYS_RIGID_BODY, "iso-quad1", 1 }, { SLPI_SYS_RIGID_BODY, "svi-lin", 1 },
        { SLPI_SYS_RIGID_BODY, "svi-lin1", 1 },  { SLPI_SYS_RIGID_BODY, "const-e3", 1 },
        { SLPI_SYS_HEAVY_TOP, "none", 1 },       { SLPI_SYS_HEAVY_TOP, "salt", 1 },
        { SLPI_SYS_HEAVY_TOP, "case2-pi2", 0 },  { SLPI_SYS_HEAVY_TOP, "case3", 0 },
        { SLPI_SYS_MANAKOV, "none", 1 },         { SLPI_SYS_MANAKOV, "quad", 1 },
        { SLPI_SYS_POINT_VORTICES, "none", 1 },  { SLPI_SYS_POINT_VORTICES, "quad", 1 },
        { SLPI_SYS_EULER_ZEITLIN, "none", 1 },   { SLPI_SYS_EULER_ZEITLIN, "Q", 1 },
        { SLPI_SYS_EULER_ZEITLIN, "L", 1 },      { SLPI_SYS_SINE_EULER, "two-mode", 1 },
    };
    slpi_problem p;
    slpi_error err = { 0, "" };
    for (size_t i = 0; i < sizeof le / sizeof le[0]; i++) {
        const char *why = NULL;
        slpi_problem_init(&p, le[i].s, SLPI_SCHEME_RKMK_LE);
        TEST_CHECK(slpi_problem_set(&p, "noise", le[i].noise, &err) == SLPI_OK);
        TEST_CHECKF(slpi_problem_le_consistent(&p, &why) == 1 && why && why[0], "%s noise=%s",
                    slpi_system_name(le[i].s), le[i].noise);
        int rc = slpi_problem_validate(&p, &err);
        TEST_CHECKF(le[i].runs ? rc == SLPI_OK : rc == SLPI_EINPUT && strstr(err.msg, "RKMK form"),
                    "%s noise=%s: rc %d '%s'", slpi_system_name(le[i].s), le[i].noise, rc, err.msg);
    }
    slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_RKMK_LE);
    TEST_CHECK(p.sys.rb.noise == SLPI_RB_NOISE_ISO_QUAD); /* the system's default, as for any scheme */
    const char *why = NULL;
    p.sys.rb.noise = (slpi_rb_noise)99; /* a noise model without a derivation is not consistent */
    TEST_CHECK(slpi_problem_le_consistent(&p, &why) == 0 && strstr(why, "no derivation"));
    /* SVI c = -1/4 only on SO(3) vector forms. */
    slpi_problem_init(&p, SLPI_SYS_MANAKOV, SLPI_SCHEME_SVI);
    TEST_CHECK(slpi_problem_set(&p, "svi_c", "-0.25", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_validate(&p, &err) == SLPI_EINPUT && strstr(err.msg, "svi_c"));
    slpi_problem_init(&p, SLPI_SYS_HEAVY_TOP, SLPI_SCHEME_SVI);
    TEST_CHECK(slpi_problem_set(&p, "svi_c", "-0.25", &err) == SLPI_OK);
    TEST_CHECKF(slpi_problem_validate(&p, &err) == SLPI_OK, "%s", err.msg);
    /* Zeitlin TMK: fine at N = 12, N/A at N = 128. */
    slpi_problem_init(&p, SLPI_SYS_EULER_ZEITLIN, SLPI_SCHEME_TMK);
    TEST_CHECKF(slpi_problem_validate(&p, &err) == SLPI_OK, "%s", err.msg);
    TEST_CHECK(slpi_problem_set(&p, "N", "128", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_set(&p, "ic_lmax", "4", &err) == SLPI_OK);
    TEST_CHECK(slpi_problem_validate(&p, &err) == SLPI_EINPUT && strstr(err.msg, "N=128"));

    /* Every preset resolves to a valid problem. */
    int npresets = 0;
    for (const slpi_preset *c = slpi_presets(); c->name; c++, npresets++) {
        slpi_problem_init(&p, SLPI_SYS_RIGID_BODY, SLPI_SCHEME_ISOMP);
        int rc = slpi_problem_preset(&p, c->name, &err);
        if (rc == SLPI_OK) rc = slpi_problem_finish(&p, &err);
        TEST_CHECKF(rc == SLPI_OK, "preset %s: %s", c->name, err.msg);
        TEST_CHECK(strcmp(p.sys.preset, c->name) == 0);
    }
    TEST_CHECK(npresets >= 30);
    TEST_END();
}
