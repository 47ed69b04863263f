/* svi-vs.c — SVI-VS, the stochastic variational midpoint on a vector space (docs/schemes.md#svi-vs;
 * SVI eq. (14), Prop. 2.6), on the Kubo oscillator H = (q^2+p^2)/2, H_1 = sigma
 * (q^2+p^2)/2 (docs test system [choice]; claim V16). Not a registry scheme: the audit
 * checks that the one-step map is symplectic (det = 1 in one degree of freedom) and keeps
 * q^2 + p^2. The step solves
 *   z_k = z_{k-1} + sum_i inc_i J grad H_i((z_{k-1} + z_k)/2),  J (gq, gp) = (gp, -gq),
 * inc = (Delta t, Delta W), by fixed-point iteration under the docs/schemes.md#solver policy. */
#include <math.h>
#include <string.h>
#include <stdint.h>

#include "slpi/errors.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "fast/lie-ops.h"
#include "gaps/gaps.h"

/* grad H_i at z = (q, p) for the Kubo oscillator: H_0 gradient z, H_1 gradient sigma z. */
static void kubo_grad(double sigma, int i, const double *z, double *g)
{
    double k = i ? sigma : 1;
    g[0] = k * z[0];
    g[1] = k * z[1];
}

typedef struct {
    double sigma;
    const double *inc, *z;
} kubo_ctx;

/* The fixed-point map z~ -> z + sum_i inc_i J grad H_i((z + z~)/2). */
static int kubo_map(void *arg, const double *cur, double *nz)
{
    const kubo_ctx *k = arg;
    double zb[2] = { 0.5 * (k->z[0] + cur[0]), 0.5 * (k->z[1] + cur[1]) }, g[2];
    nz[0] = k->z[0];
    nz[1] = k->z[1];
    for (int i = 0; i < 2; i++) {
        kubo_grad(k->sigma, i, zb, g);
        nz[0] += k->inc[i] * g[1];
        nz[1] -= k->inc[i] * g[0];
    }
    return 0;
}

slpi_step_status slpi_svivs_kubo_step(double sigma, double dt, double dW, const double *z, double *z1, int *iters)
{
    const double inc[2] = { dt, dW };
    kubo_ctx k = { sigma, inc, z };
    z1[0] = z[0];
    z1[1] = z[1];
    return slpi_fast_fixed_point(kubo_map, &k, 2, 1e-15, 200, z1, iters);
}

int slpi_gaps_svivs(double sigma, double dt, int trials, uint64_t seed, double *det_dev, double *quad_dev,
                    slpi_error *err)
{
    *det_dev = *quad_dev = 0;
    for (int t = 0; t < trials; t++) {
        double z[2], z1[2], J[4], zp[2], zm[2], yp[2], ym[2];
        double dW = sqrt(dt) * slpi_noise_normal(seed, (uint64_t)t, 7, 0);
        int it;
        for (int i = 0; i < 2; i++) z[i] = slpi_noise_normal(seed, (uint64_t)t, 8, (uint64_t)i);
        double eps = 1e-3 * fmax(1, slpi_vec_maxabs(z, 2));
        if (slpi_step_failed(slpi_svivs_kubo_step(sigma, dt, dW, z, z1, &it)))
            return slpi_error_set(err, SLPI_ENUMERIC, "svi-vs: trial %d (dW = %g) did not converge", t, dW);
        for (int j = 0; j < 2; j++) {
            memcpy(zp, z, sizeof zp);
            memcpy(zm, z, sizeof zm);
            zp[j] += eps;
            zm[j] -= eps;
            if (slpi_step_failed(slpi_svivs_kubo_step(sigma, dt, dW, zp, yp, &it)) ||
                slpi_step_failed(slpi_svivs_kubo_step(sigma, dt, dW, zm, ym, &it)))
                return slpi_error_set(err, SLPI_ENUMERIC,
                                      "svi-vs: trial %d: perturbed step did "
                                      "not converge",
                                      t);
            for (int i = 0; i < 2; i++) J[2 * i + j] = (yp[i] - ym[i]) / (zp[j] - zm[j]);
        }
        double r0 = z[0] * z[0] + z[1] * z[1], r1 = z1[0] * z1[0] + z1[1] * z1[1];
        *det_dev = fmax(*det_dev, fabs(J[0] * J[3] - J[1] * J[2] - 1));
        *quad_dev = fmax(*quad_dev, fabs(r1 - r0) / r0);
    }
    return SLPI_OK;
}
