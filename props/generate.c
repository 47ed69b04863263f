/* props/generate.c — the cases of the property engine: drawn from a seed, biased to corner
 * cases (smallest and largest dimension, one step, tiny and large h, tiny states, zero
 * noise, repeated and near-degenerate inertia), and the first failing case shrunk (steps,
 * dimension, number of noises, noise amplitude, magnitude, inertia) to a minimal
 * counterexample: each shrink step lowers a lexicographic cost, so shrinking ends. */
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>

#include "slpi/registry-ids.h"
#include "props/props.h"

/* Rules every generated or shrunk case obeys. Vortex rates grow like 1/|x|^2 (H_0 is
 * scale-free), so small vortex states are just huge steps: keep |x| >= 1/2. */
static void fit(slpi_props_case *c)
{
    if (c->system == SLPI_SYS_POINT_VORTICES && c->mag < 0.5) c->mag = 0.5;
}

void slpi_props_generate(slpi_props_case *c, int prop, slpi_system_id s, slpi_scheme_id k, int variant, uint64_t seed)
{
    static const double hs[] = { 0x1p-20, 0x1p-10, 0x1p-6, 0.05, 0.125, 0.25 };
    static const double mags[] = { 1e-3, 0.25, 1, 1, 2 };
    static const double amps[] = { 0, 0.1, 0.5, 1 };
    static const long steps[] = { 1, 2, 3, 5, 8 };
    slpi_props_rng r = { seed };
    memset(c, 0, sizeof *c);
    c->prop = prop;
    c->system = s;
    c->scheme = k;
    c->variant = variant;
    c->seed = seed;
    int lo = slpi_props_dim_min(s), hi = slpi_props_dim_max(s), u = (int)slpi_props_rng_int(&r, 4);
    c->dim = u == 0 ? hi : u == 1 ? lo + (int)slpi_props_rng_int(&r, hi - lo + 1) : lo;
    if (s == SLPI_SYS_SINE_EULER) c->dim = 3;
    c->steps = steps[slpi_props_rng_int(&r, 5)];
    c->h = hs[slpi_props_rng_int(&r, 6)];
    c->mag = mags[slpi_props_rng_int(&r, 5)];
    c->amp = amps[slpi_props_rng_int(&r, 4)];
    c->inertia = (int)slpi_props_rng_int(&r, 4) % 3;
    c->noises = 64;
    int M = slpi_props_noise_count(c);
    int v = (int)slpi_props_rng_int(&r, 5);
    c->noises = v == 0 ? 0 : v == 1 ? (M > 0) : M;
    fit(c);
    slpi_props_property_get(prop)->adjust(c, &r);
}

int slpi_props_corner(slpi_props_case *c, int i)
{
    int lo = slpi_props_dim_min(c->system), hi = slpi_props_dim_max(c->system);
    int step2 = c->system == SLPI_SYS_SINE_EULER ? 2 : 1; /* sine-Euler: odd N only */
    switch (i) {
    case 0:
        c->dim = hi;
        break;
    case 1:
        c->dim = lo;
        break;
    case 2:
        c->dim = hi - step2 >= lo ? hi - step2 : hi;
        break; /* the other parity */
    case 3:
        c->inertia = 4;
        c->h = 0x1p-10;
        if (c->steps < 3) c->steps = 3;
        break;
    case 4:
        c->state = 1;
        break;
    case 5:
        c->state = 2;
        break;
    case 6:
        c->amp = 4;
        c->noises = 64;
        break;
    default:
        return 0;
    }
    fit(c);
    if (c->noises > slpi_props_noise_count(c)) c->noises = slpi_props_noise_count(c);
    slpi_props_property_get(c->prop)->adjust(c, NULL);
    return 1;
}

/* ---------------------------------------------------------------- shrinking */

/* Size of a case, lexicographic in steps, dimension, noises, amplitude, magnitude
 * (distance from 1) and inertia: a shrink step must decrease it, so shrinking ends. */
static double cost(const slpi_props_case *c)
{
    return c->steps * 1e9 + c->dim * 1e7 + c->noises * 1e5 + (c->amp != 0) * 1e3 + fmin(c->amp, 99.0) +
        fmin(fabs(log2(c->mag)), 99.0) * 1e-3 + c->inertia * 1e-6 + c->state * 1e-5;
}

/* Candidate i (in order of preference) derived from c; 0 when there are no more. */
static int candidate(const slpi_props_property *P, const slpi_props_case *c, int i, slpi_props_case *out)
{
    *out = *c;
    int lo = slpi_props_dim_min(c->system), step2 = c->system == SLPI_SYS_SINE_EULER ? 2 : 1;
    switch (i) {
    case 0:
        out->steps = 1;
        break;
    case 1:
        out->steps = c->steps / 2;
        break;
    case 2:
        out->steps = c->steps - 1;
        break;
    case 3:
        out->dim = lo;
        break;
    case 4:
        out->dim = c->dim - step2;
        break;
    case 5:
        out->noises = 0;
        break;
    case 6:
        out->noises = c->noises - 1;
        break;
    case 7:
        out->amp = 0;
        break;
    case 8:
        out->amp = c->amp / 2;
        break;
    case 9:
        out->mag = 1;
        break;
    case 10:
        out->mag = c->mag / 2;
        break;
    case 11:
        out->inertia = 0;
        break;
    case 12:
        out->state = 0;
        break;
    default:
        return 0;
    }
    if (out->steps < 1 || out->dim < lo || out->noises < 0 || out->mag < 0x1p-10) *out = *c;
    fit(out);
    P->adjust(out, NULL);
    if (out->noises > slpi_props_noise_count(out)) out->noises = slpi_props_noise_count(out);
    return 1;
}

int slpi_props_shrink(slpi_props_case *c, int use_ref, slpi_props_outcome *o, FILE *log)
{
    return slpi_props_shrink_with(slpi_props_property_get(c->prop), c, use_ref, o, log);
}

int slpi_props_shrink_with(const slpi_props_property *P, slpi_props_case *c, int use_ref, slpi_props_outcome *o,
                           FILE *log)
{
    if (!P->shrinkable) return 0;
    int accepted = 0, evals = 0;
    for (int i = 0; evals < 300;) {
        slpi_props_case t;
        if (!candidate(P, c, i, &t)) break;
        i++;
        if (!(cost(&t) < cost(c))) continue;
        slpi_props_outcome to;
        evals++;
        if (slpi_props_verdict_with(P, &t, use_ref, &to) != 0) continue;
        *c = t;
        *o = to;
        accepted++;
        if (log) {
            char buf[512];
            slpi_props_case_format(c, buf, sizeof buf);
            fprintf(log, "  shrunk: %s\n", buf);
        }
        i = 0;
    }
    return accepted;
}
