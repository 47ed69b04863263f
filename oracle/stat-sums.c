/* stat-sums.c — the sums of verify's statistical test (oracle/stat.c has the test,
 * oracle/README.md#statistics the rule): a row's part (its projections on the directions,
 * |r|^2, the twin's |t|^2, the rounded forms and tau) added into the sums, and two sums
 * merged. One place for both users: the streaming sums (oracle/stat.c) and the copies
 * groups' (oracle/stat-copies.c). */
#include <stdint.h>

#include "slpi/tools.h"
#include "oracle/oracle.h"

/* One row's projections a (J of them) and |r|^2 into the sums, with the twin's |t|^2. */
static void sums_add(slpi_verify_sums *S, const double *a, int J, double r2, double t2, double envelope)
{
    for (int i = 0; i < J; i++) {
        S->sum[i] += a[i];
        for (int j = 0; j < J; j++) S->cross[i * SLPI_STAT_DIRS + j] += a[i] * a[j];
    }
    double d = r2 - envelope * envelope * t2;
    S->size_sum += d;
    S->size_sq += d * d;
    S->r2_sum += r2;
}

void slpi_oracle_stat_row_into(slpi_verify_sums *exact, slpi_verify_sums *rounded, double *t2_sum, double *tau_sum,
                               const double *row, int J, double envelope)
{
    const double *rr = row + 3 + SLPI_STAT_DIRS;
    double t2 = row[2 + SLPI_STAT_DIRS];
    *tau_sum += rr[SLPI_STAT_DIRS + 1];
    sums_add(exact, row + 1, J, row[1 + SLPI_STAT_DIRS], t2, envelope);
    sums_add(rounded, rr, J, rr[SLPI_STAT_DIRS], t2, envelope);
    *t2_sum += t2;
}

void slpi_oracle_stat_sums_merge(slpi_verify_sums *to, const slpi_verify_sums *from)
{
    for (int i = 0; i < SLPI_STAT_DIRS; i++) to->sum[i] += from->sum[i];
    for (int i = 0; i < SLPI_STAT_DIRS * SLPI_STAT_DIRS; i++) to->cross[i] += from->cross[i];
    to->size_sum += from->size_sum;
    to->size_sq += from->size_sq;
    to->r2_sum += from->r2_sum;
}
