/* problem-shape.c — the derived shape of a problem, which both paths, the files and the
 * ports read: the state layout (doubles of a state and their names), the number of noises
 * and whether the truncation rule of docs/noise.md#truncation applies. */
#include <stdio.h>
#include <string.h>
#include <stddef.h>

#include "slpi/errors.h"
#include "core/problem-struct.h"
#include "core/expr.h"
#include "core/zeitlin-family.h"
#include "slpi/registry-ids.h"
#include "slpi/problem-shape.h"

int slpi_problem_state_dim(const slpi_problem *p)
{
    switch (p->sys.system) {
    case SLPI_SYS_RIGID_BODY:
        return p->sys.rb.track_R ? 12 : 3;
    case SLPI_SYS_HEAVY_TOP:
        return p->sys.ht.form == SLPI_HT_FORM_SVI ? 15 : 6;
    case SLPI_SYS_MANAKOV:
        return p->sys.mk.n * (p->sys.mk.n - 1) / 2;
    case SLPI_SYS_POINT_VORTICES:
        return 3 * p->sys.pv.n;
    case SLPI_SYS_EULER_ZEITLIN:
        return p->sys.ez.N * p->sys.ez.N;
    case SLPI_SYS_SINE_EULER:
        return p->sys.se.N * p->sys.se.N;
    case SLPI_SYS_MODEL:
        return p->sys.model.alg.dim;
    default:
        return 0;
    }
}

int slpi_problem_noise_count(const slpi_problem *p)
{
    static const int rb[] = { 0, 3, 1, 3, 1, 1 };
    static const int ht[] = { 0, 1, 1, 1, 1, 2, 2 };
    switch (p->sys.system) {
    case SLPI_SYS_RIGID_BODY:
        return rb[p->sys.rb.noise];
    case SLPI_SYS_HEAVY_TOP:
        return ht[p->sys.ht.noise];
    case SLPI_SYS_MANAKOV:
        return p->sys.mk.noise ? p->sys.mk.n * (p->sys.mk.n - 1) / 2 : 0;
    case SLPI_SYS_POINT_VORTICES:
        return p->sys.pv.noise ? 3 : 0;
    case SLPI_SYS_EULER_ZEITLIN: {
        /* degrees l = floor(N/2) .. N-1, 2l+1 real basis elements each (docs/systems.md#euler-zeitlin) */
        int lmin = p->sys.ez.N / 2;
        if (p->sys.ez.noise == SLPI_EZ_NOISE_MODES) return slpi_zeitlin_modes_count(p->sys.ez.noise_modes);
        if (p->sys.ez.noise == SLPI_EZ_NOISE_FIELDS) return p->sys.ez.n_fields; /* read by slpi_problem_finish */
        return p->sys.ez.noise ? p->sys.ez.N * p->sys.ez.N - lmin * lmin : 0;
    }
    case SLPI_SYS_SINE_EULER:
        return p->sys.se.noise ? 2 : 0;
    case SLPI_SYS_MODEL:
        return slpi_model_noise_count(p);
    default:
        return 0;
    }
}

int slpi_problem_truncates(const slpi_problem *p)
{
    if (p->noise.truncate != SLPI_TRUNC_AUTO) return p->noise.truncate == SLPI_TRUNC_ON;
    /* a model follows the built-in of its algebra: se3 (the heavy top) off, the others on */
    int iso_like = p->sys.system != SLPI_SYS_HEAVY_TOP && p->sys.system != SLPI_SYS_SINE_EULER &&
        !(p->sys.system == SLPI_SYS_MODEL && p->sys.model.alg.dim && p->sys.model.alg.kind == SLPI_ALGEBRA_SE3);
    return iso_like && p->grid.h < 1.0;
}

void slpi_problem_state_name(const slpi_problem *p, int i, char *buf, size_t n)
{
    static const char *const rb_iso[] = { "x1", "x2", "x3" };
    static const char *const rb_svi[] = { "Pi1", "Pi2", "Pi3", "R11", "R12", "R13",
                                          "R21", "R22", "R23", "R31", "R32", "R33" };
    static const char *const ht_rkmk[] = { "pi1", "pi2", "pi3", "gamma1", "gamma2", "gamma3" };
    static const char *const ht_svi[] = { "Pi1", "Pi2", "Pi3", "Gamma1", "Gamma2", "Gamma3", "R11", "R12",
                                          "R13", "R21", "R22", "R23",    "R31",    "R32",    "R33" };
    switch (p->sys.system) {
    case SLPI_SYS_MODEL:
        if (slpi_problem_algebra(p))
            slpi_algebra_coord_name(slpi_problem_algebra(p), i, buf, n);
        else
            snprintf(buf, n, "x%d", i + 1);
        return;
    case SLPI_SYS_RIGID_BODY:
        snprintf(buf, n, "%s", p->sys.rb.form == SLPI_RB_FORM_ISO ? rb_iso[i] : rb_svi[i]);
        return;
    case SLPI_SYS_HEAVY_TOP:
        snprintf(buf, n, "%s", p->sys.ht.form == SLPI_HT_FORM_RKMK ? ht_rkmk[i] : ht_svi[i]);
        return;
    case SLPI_SYS_MANAKOV: {
        int row = 0, k = i;
        while (k >= p->sys.mk.n - 1 - row) {
            k -= p->sys.mk.n - 1 - row;
            row++;
        }
        snprintf(buf, n, "X_%d_%d", row + 1, row + 2 + k);
        return;
    }
    case SLPI_SYS_POINT_VORTICES:
        snprintf(buf, n, "x%d_%d", i / 3 + 1, i % 3 + 1);
        return;
    default: {
        int N = p->sys.system == SLPI_SYS_EULER_ZEITLIN ? p->sys.ez.N : p->sys.se.N;
        if (i < N) {
            snprintf(buf, n, "ImX_%d_%d", i, i);
            return;
        }
        int k = (i - N) / 2, a = 0;
        while (k >= N - 1 - a) {
            k -= N - 1 - a;
            a++;
        }
        snprintf(buf, n, "%sX_%d_%d", (i - N) % 2 ? "Im" : "Re", a, a + 1 + k);
        return;
    }
    }
}

int slpi_problem_state_algebra(slpi_algebra *a, const slpi_problem *p)
{
    char text[32];
    slpi_error e;
    switch (p->sys.system) {
    case SLPI_SYS_MODEL:
        if (!slpi_problem_algebra(p)) return 0;
        *a = *slpi_problem_algebra(p);
        return 1;
    case SLPI_SYS_RIGID_BODY:
        snprintf(text, sizeof text, "so3");
        break;
    case SLPI_SYS_HEAVY_TOP:
        snprintf(text, sizeof text, "se3");
        break;
    case SLPI_SYS_MANAKOV:
        snprintf(text, sizeof text, "so(%d)", p->sys.mk.n);
        break;
    case SLPI_SYS_POINT_VORTICES:
        snprintf(text, sizeof text, "so3^%d", p->sys.pv.n);
        break;
    case SLPI_SYS_EULER_ZEITLIN:
        snprintf(text, sizeof text, "su(%d)", p->sys.ez.N);
        break;
    case SLPI_SYS_SINE_EULER:
        snprintf(text, sizeof text, "su(%d)", p->sys.se.N);
        break;
    default:
        return 0;
    }
    if (slpi_algebra_parse(a, "algebra", text, &e) != SLPI_OK || a->dim != slpi_problem_state_dim(p)) return 0;
    for (int i = 0; i < a->dim; i++) { /* the names must be the layout's, one for one */
        char x[64], y[64];
        slpi_algebra_coord_name(a, i, x, sizeof x);
        slpi_problem_state_name(p, i, y, sizeof y);
        if (strcmp(x, y)) return 0;
    }
    return 1;
}
