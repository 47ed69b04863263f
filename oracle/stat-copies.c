/* stat-copies.c — rows that are copies at the format's resolution, one observation each
 * (docs/power.md#copies-amendment; oracle/README.md#statistics). A row's rounding errors
 * are a function of its inputs: rows whose inputs agree within the format's resolution
 * share them, whatever their number (su(64) from one x0, where the noise moves the state
 * by less than an ulp of binary64: 200 rows of a step, one draw counted 200 times).
 *
 * The rows that span the same steps (from, to), pooled over the files, are a group. A
 * group of two rows or more is copies when on each of SLPI_STAT_COPY_PROJ fixed vectors
 * of random signs the exact steps' projections span at most the least of its rows'
 * spreads, COPY_ULPS sqrt(dim) ulps of the format at the state's scale (oracle/stat.c
 * computes both per row). A copies group enters the test as one row, its rows' mean.
 * The streaming sums of oracle/stat.c are kept while no group is copies (the same
 * numbers, bit for bit); else they are summed again from the groups, in the table's
 * order (the same for the same files in the same order, on any number of threads). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slpi/tools.h"
#include "oracle/oracle.h"

/* The fields of a row the test reads (oracle/stat.c): valid, the projections, |r|^2,
 * |t|^2, the rounded forms and tau; below SLPI_DIAG_OFFSET. */
#define TEST_FIELDS SLPI_DIAG_OFFSET

/* A group's rows' own sums, kept from its second row on (where it is not copies, the test
 * sums its rows). */
typedef struct {
    slpi_verify_sums exact, rounded;
    double t2, tau;
} own_sums;

typedef struct {
    long from, to, n;                                        /* n: rows; 0: an empty slot */
    double lo[SLPI_STAT_COPY_PROJ], hi[SLPI_STAT_COPY_PROJ]; /* the projections' range */
    double spread;                                           /* the least over the rows */
    double sum[TEST_FIELDS]; /* the sum of its rows' test fields (one row: that row's) */
    own_sums *own;           /* from the second row on */
} group;

struct slpi_stat_copies {
    size_t cap, used; /* slots (a power of 2), groups */
    group *g;
};

static size_t slot_of(const struct slpi_stat_copies *t, long from, long to)
{
    uint64_t h = ((uint64_t)from * UINT64_C(0x9e3779b97f4a7c15)) ^ ((uint64_t)to * UINT64_C(0xc2b2ae3d27d4eb4f));
    size_t i = (size_t)(h ^ (h >> 29)) & (t->cap - 1);
    while (t->g[i].n > 0 && (t->g[i].from != from || t->g[i].to != to)) i = (i + 1) & (t->cap - 1);
    return i;
}

/* The group of (from, to), made empty where absent; NULL when out of memory. */
static group *group_at(struct slpi_stat_copies **tp, long from, long to)
{
    struct slpi_stat_copies *t = *tp;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t) return NULL;
        *tp = t;
    }
    if (2 * (t->used + 1) > t->cap) { /* grow to at most half full */
        size_t cap = t->cap ? 2 * t->cap : 64;
        group *old = t->g, *g = calloc(cap, sizeof *g);
        if (!g) return NULL;
        size_t ocap = t->cap;
        t->g = g;
        t->cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i].n > 0) t->g[slot_of(t, old[i].from, old[i].to)] = old[i];
        free(old);
    }
    group *g = t->g + slot_of(t, from, to);
    if (g->n == 0) {
        g->from = from;
        g->to = to;
        g->spread = INFINITY;
        for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) g->lo[q] = INFINITY, g->hi[q] = -INFINITY;
        t->used++;
    }
    return g;
}

/* From its second row on, a group keeps its rows' own sums, made from its one row so far
 * (its sum) before the second goes in; -1 when out of memory. */
static int own_of(group *g, int dirs, double envelope)
{
    if (g->own) return 0;
    g->own = calloc(1, sizeof *g->own);
    if (!g->own) return -1;
    slpi_oracle_stat_row_into(&g->own->exact, &g->own->rounded, &g->own->t2, &g->own->tau, g->sum, dirs, envelope);
    return 0;
}

/* The fingerprints' range of h (a row's: lo = hi) into g's. */
static void range_add(group *g, const double *lo, const double *hi, double spread)
{
    for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++) {
        g->lo[q] = fmin(g->lo[q], lo[q]);
        g->hi[q] = fmax(g->hi[q], hi[q]);
    }
    g->spread = fmin(g->spread, spread);
}

int slpi_oracle_copies_add(struct slpi_stat_copies **t, long from, long to, const double *row, int dirs,
                           double envelope)
{
    group *g = group_at(t, from, to);
    if (!g) return -1;
    const double *fp = row + SLPI_STAT_COPY_FIELD;
    range_add(g, fp, fp, fp[SLPI_STAT_COPY_PROJ]);
    if (g->n++ == 0) {
        memcpy(g->sum, row, sizeof g->sum);
        return 0;
    }
    if (own_of(g, dirs, envelope) != 0) return -1;
    for (int i = 0; i < TEST_FIELDS; i++) g->sum[i] += row[i];
    slpi_oracle_stat_row_into(&g->own->exact, &g->own->rounded, &g->own->t2, &g->own->tau, row, dirs, envelope);
    return 0;
}

int slpi_oracle_copies_merge(struct slpi_stat_copies **to, struct slpi_stat_copies *from, int dirs, double envelope)
{
    int rc = 0;
    for (size_t i = 0; from && i < from->cap; i++) {
        group *h = from->g + i, *g;
        if (h->n == 0) continue;
        if (rc != 0 || !(g = group_at(to, h->from, h->to))) {
            rc = -1;
            continue;
        }
        if (g->n == 0) { /* new here: moved whole */
            *g = *h;
            h->own = NULL;
            continue;
        }
        if (own_of(g, dirs, envelope) != 0 || own_of(h, dirs, envelope) != 0) {
            rc = -1;
            continue;
        }
        range_add(g, h->lo, h->hi, h->spread);
        g->n += h->n;
        for (int k = 0; k < TEST_FIELDS; k++) g->sum[k] += h->sum[k];
        slpi_oracle_stat_sums_merge(&g->own->exact, &h->own->exact);
        slpi_oracle_stat_sums_merge(&g->own->rounded, &h->own->rounded);
        g->own->t2 += h->own->t2;
        g->own->tau += h->own->tau;
    }
    slpi_oracle_copies_free(from);
    return rc;
}

static int copies(const group *g)
{
    if (g->n < 2) return 0;
    for (int q = 0; q < SLPI_STAT_COPY_PROJ; q++)
        if (!(g->hi[q] - g->lo[q] <= g->spread)) return 0;
    return 1;
}

void slpi_oracle_copies_apply(slpi_verify_stats *st)
{
    struct slpi_stat_copies *t = st->copies;
    st->copies = NULL;
    st->observations = st->rows;
    st->copies_groups = 0;
    for (size_t i = 0; t && i < t->cap; i++)
        if (copies(t->g + i)) st->observations -= t->g[i].n - 1, st->copies_groups++;
    if (st->copies_groups > 0) {
        memset(&st->exact, 0, sizeof st->exact);
        memset(&st->rounded, 0, sizeof st->rounded);
        st->t2_sum = st->tau_sum = 0;
    }
    for (size_t i = 0; st->copies_groups > 0 && i < t->cap; i++) {
        const group *g = t->g + i;
        double mean[TEST_FIELDS];
        if (g->n == 0) continue;
        for (int k = 0; k < TEST_FIELDS; k++) mean[k] = g->sum[k] / (double)g->n; /* one row: itself */
        if (g->n == 1 || copies(g)) {                                             /* one observation: the rows' mean */
            slpi_oracle_stat_row_into(&st->exact, &st->rounded, &st->t2_sum, &st->tau_sum, mean, st->dirs,
                                      st->envelope);
        } else {
            slpi_oracle_stat_sums_merge(&st->exact, &g->own->exact);
            slpi_oracle_stat_sums_merge(&st->rounded, &g->own->rounded);
            st->t2_sum += g->own->t2;
            st->tau_sum += g->own->tau;
        }
    }
    slpi_oracle_copies_free(t);
}

void slpi_oracle_copies_free(struct slpi_stat_copies *t)
{
    for (size_t i = 0; t && i < t->cap; i++) free(t->g[i].own);
    if (t) free(t->g);
    free(t);
}
