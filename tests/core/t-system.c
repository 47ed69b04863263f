/* t-system.c — the built-in systems' descriptors (core/system.h) are complete: every
 * system id has a descriptor with every slot filled (form_defaults exactly when the
 * system has a key form; svi_form named and among svi_forms), every cell of its applicability row, key rows that name it and
 * a name of its own; and each path builds it (fast/fast.c's and ref/system.c's tables).
 * A missing row or slot fails naming the system. The checker checks itself first: a copy
 * of a descriptor with an empty slot is named. */
#include "core/problem-struct.h"
#include "core/system.h"
#include "slpi.h"
#include "testutil.h"

/* The empty slots of d (system id) into out ("" when complete). */
static void empty_slots(char *out, size_t n, const slpi_system_desc *d, slpi_system_id id)
{
    out[0] = '\0';
#define SLOT(f)                                                                                                        \
    if (!d->f) strncat(out, " " #f, n - strlen(out) - 1)
    if (!d) {
        snprintf(out, n, " descriptor (core/system.c's table has no row)");
        return;
    }
    SLOT(name);
    SLOT(state_dim);
    SLOT(noise_count);
    SLOT(state_name);
    SLOT(truncates);
    SLOT(layout_algebra);
    SLOT(le_consistent);
    SLOT(initial_size);
    SLOT(default_state);
    SLOT(check_state);
    SLOT(validate);
    SLOT(defaults);
    SLOT(keys);
#undef SLOT
    int form = 0;
    for (int i = 0; d->keys && i < d->nkeys; i++) {
        if (d->keys[i].system != (int)id) strncat(out, " keys(another system's row)", n - strlen(out) - 1);
        form |= strcmp(d->keys[i].name, "form") == 0;
    }
    if (form != (d->form_defaults != NULL))
        strncat(out, form ? " form_defaults" : " form_defaults(no key form)", n - strlen(out) - 1);
    if (d->svi_form == SLPI_SVI_FORM_AUTO)
        strncat(out, " svi_form", n - strlen(out) - 1);
    else if (!((d->svi_forms >> d->svi_form) & 1u))
        strncat(out, " svi_forms(without svi_form)", n - strlen(out) - 1);
    for (int k = 0; k < SLPI_SCHEME_COUNT; k++)
        if (!d->applicability[k].reason) {
            strncat(out, " applicability:", n - strlen(out) - 1);
            strncat(out, slpi_scheme_name((slpi_scheme_id)k), n - strlen(out) - 1);
        }
}

/* Each path builds system s's default problem under the first scheme that applies. */
static void paths_build(slpi_system_id s)
{
    slpi_problem p;
    slpi_error err = { 0, "" };
    int k = 0;
    while (slpi_registry_pair(s, (slpi_scheme_id)k, NULL) == SLPI_NA) k++;
    slpi_problem_init(&p, s, (slpi_scheme_id)k);
    if (s == SLPI_SYS_MODEL)
        TEST_CHECK(slpi_problem_set(&p, "algebra", "so3", &err) == SLPI_OK &&
                   slpi_problem_set(&p, "H", "x1^2/2", &err) == SLPI_OK);
    TEST_CHECKF(slpi_problem_finish(&p, &err) == SLPI_OK, "%s: %s", slpi_system_name(s), err.msg);
    slpi_fast *f = NULL;
    slpi_ref *r = NULL;
    TEST_CHECKF(slpi_fast_create(&f, &p, &err) == SLPI_OK, "%s: the double path: %s", slpi_system_name(s), err.msg);
    TEST_CHECKF(slpi_ref_create(&r, &p, &err) == SLPI_OK, "%s: the certified path: %s", slpi_system_name(s), err.msg);
    slpi_fast_free(f);
    slpi_ref_free(r);
}

int main(void)
{
    test_start("t-system", 1);
    char slots[512];
    /* the checker names what is missing */
    slpi_system_desc broken = *slpi_system_get(SLPI_SYS_MANAKOV);
    broken.check_state = NULL;
    broken.applicability[SLPI_SCHEME_SVI].reason = NULL;
    broken.svi_form = SLPI_SVI_FORM_AUTO;
    empty_slots(slots, sizeof slots, &broken, SLPI_SYS_MANAKOV);
    TEST_CHECKF(strcmp(slots, " check_state svi_form applicability:svi") == 0, "the checker says '%s'", slots);
    broken = *slpi_system_get(SLPI_SYS_RIGID_BODY);
    broken.form_defaults = NULL;
    empty_slots(slots, sizeof slots, &broken, SLPI_SYS_RIGID_BODY);
    TEST_CHECKF(strcmp(slots, " form_defaults") == 0, "the checker says '%s'", slots);
    empty_slots(slots, sizeof slots, NULL, SLPI_SYS_RIGID_BODY);
    TEST_CHECK(strstr(slots, "no row") != NULL);
    TEST_CHECK(slpi_system_get(SLPI_SYS_COUNT) == NULL && slpi_system_get((slpi_system_id)-1) == NULL);

    for (int s = 0; s < SLPI_SYS_COUNT; s++) {
        const slpi_system_desc *d = slpi_system_get((slpi_system_id)s);
        empty_slots(slots, sizeof slots, d, (slpi_system_id)s);
        TEST_CHECKF(slots[0] == '\0', "system %d (%s): its descriptor lacks%s", s, d && d->name ? d->name : "?", slots);
        if (slots[0]) continue;
        for (int t = 0; t < s; t++)
            TEST_CHECKF(strcmp(d->name, slpi_system_get((slpi_system_id)t)->name) != 0, "%s: the name of two systems",
                        d->name);
        paths_build((slpi_system_id)s);
    }
    TEST_END();
}
