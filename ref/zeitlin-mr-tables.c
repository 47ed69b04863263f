/* ref/zeitlin-mr-tables.c — the su(N) tables V_m of the BLAS route as doubles, half of
 * each (ref/zeitlin.h, slpi_ref_zeitlin_mr; why half suffices and how the transforms
 * read it: ref/zeitlin-mr.c's header, docs/design.md#blas-route): made once, table by
 * table, from the exact integer recurrence as balls at SLPI_REF_MRMAT_PREC bits
 * (slpi_ref_zeitlin_table), each rounded to doubles with one radius per table, the
 * largest distance of an entry from the exact table, and a bound of the halves' rows'
 * and columns' 2-norms. The tables are a function of N alone: a process that builds them
 * many times (`slpi verify` of a many-path file: the certified plan of every path) gets
 * the same bits from a copy of the last set built, kept under a lock (at most
 * CACHE_BYTES), copied out, never shared. */
#include "core/slpi-flint.h"
#include "ref/mrmat.h"
#include "ref/zeitlin.h"
#include "core/progress.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The largest table set kept for the next build (bytes): about N^3/6 doubles, 2.8 MB at
 * N = 128, 22 MB at 256. */
#define CACHE_BYTES ((size_t)64 << 20)

static struct {
    pthread_mutex_t lock;
    slpi_ref_zeitlin_mr t; /* N = 0: none */
} cache = { PTHREAD_MUTEX_INITIALIZER, { 0, NULL, NULL, NULL } };

/* The doubles of table m's halves. */
static size_t table_len(int N, int m)
{
    size_t n = (size_t)(N - m);
    return (n + 1) / 2 * n;
}

/* *to = a copy of *from (to's arrays allocated here): 1, or 0 out of memory (to cleared). */
static int tables_copy(slpi_ref_zeitlin_mr *to, const slpi_ref_zeitlin_mr *from)
{
    int N = from->N, ok = 1;
    memset(to, 0, sizeof *to);
    to->N = N;
    to->mid = calloc((size_t)N, sizeof *to->mid);
    to->rad = malloc((size_t)N * sizeof *to->rad);
    to->nrm = malloc(2 * (size_t)N * sizeof *to->nrm);
    ok = to->mid != NULL && to->rad != NULL && to->nrm != NULL;
    for (int m = 0; m < N && ok; m++) {
        to->mid[m] = malloc(table_len(N, m) * sizeof(double));
        ok = to->mid[m] != NULL;
        if (ok) memcpy(to->mid[m], from->mid[m], table_len(N, m) * sizeof(double));
    }
    if (ok) {
        memcpy(to->rad, from->rad, (size_t)N * sizeof *to->rad);
        memcpy(to->nrm, from->nrm, 2 * (size_t)N * sizeof *to->nrm);
    } else
        slpi_ref_zeitlin_mr_clear(to);
    return ok;
}

/* The last set built, when it is of N: 1 (copied into t), else 0. */
static int cache_get(slpi_ref_zeitlin_mr *t, int N)
{
    pthread_mutex_lock(&cache.lock);
    int hit = cache.t.N == N && tables_copy(t, &cache.t);
    pthread_mutex_unlock(&cache.lock);
    return hit;
}

/* Keep a copy of t for the next build (not beyond CACHE_BYTES, nor out of memory). */
static void cache_put(const slpi_ref_zeitlin_mr *t)
{
    size_t len = 0;
    for (int m = 0; m < t->N; m++) len += table_len(t->N, m);
    slpi_ref_zeitlin_mr copy;
    if (len > CACHE_BYTES / sizeof(double) || !tables_copy(&copy, t)) return;
    pthread_mutex_lock(&cache.lock);
    slpi_ref_zeitlin_mr_clear(&cache.t);
    cache.t = copy;
    pthread_mutex_unlock(&cache.lock);
}

double *slpi_ref_zeitlin_mr_half(const slpi_ref_zeitlin_mr *t, int m, int odd)
{
    int n = t->N - m, h = (n + 1) / 2;
    return t->mid[m] + (odd ? (size_t)h * h : 0);
}

double slpi_ref_zeitlin_mr_entry(const slpi_ref_zeitlin_mr *t, int m, int a, int c)
{
    int n = t->N - m, h = (n + 1) / 2, odd = c & 1, cols = odd ? n / 2 : h;
    double v = slpi_ref_zeitlin_mr_half(t, m, odd)[(size_t)(a < h ? a : n - 1 - a) * cols + c / 2];
    return a >= h && odd ? -v : v;
}

int slpi_ref_zeitlin_mr_init(slpi_ref_zeitlin_mr *t, int N)
{
    int ok = 1;
    memset(t, 0, sizeof *t);
    if (cache_get(t, N)) return 1;
    t->N = N;
    t->mid = calloc((size_t)N, sizeof *t->mid);
    t->rad = calloc((size_t)N, sizeof *t->rad);
    t->nrm = calloc(2 * (size_t)N, sizeof *t->nrm);
    ok = t->mid != NULL && t->rad != NULL && t->nrm != NULL;
    for (int m = 0; m < N && ok; m++) {
        int n = N - m, h = (n + 1) / 2;
        arb_mat_t V; /* one table as balls at a time: O(N^2) of them */
        arb_mat_init(V, n, n);
        t->mid[m] = malloc(sizeof(double) * (size_t)h * n);
        ok = t->mid[m] != NULL && slpi_ref_zeitlin_table(V, N, m, SLPI_REF_MRMAT_PREC);
        /* the parity of column c: rows 0 and n-1 of the balls, both nonzero, of sign (-1)^c */
        for (int c = 0; c < n && ok; c++) {
            arb_srcptr top = arb_mat_entry(V, 0, c), end = arb_mat_entry(V, n - 1, c);
            ok = arb_is_positive(end) && (c & 1 ? arb_is_negative(top) : arb_is_positive(top));
        }
        for (int a = 0; a < h && ok; a++)
            for (int c = 0; c < n && ok; c++) {
                double r;
                int cols = c & 1 ? n / 2 : h;
                ok = slpi_ref_mrmat_ball_get(slpi_ref_zeitlin_mr_half(t, m, c & 1) + (size_t)a * cols + c / 2, &r,
                                             arb_mat_entry(V, a, c));
                if (ok) t->rad[m] = fmax(t->rad[m], r);
            }
        for (int odd = 0; odd < 2 && ok; odd++) {
            t->nrm[2 * m + odd] = slpi_ref_mrmat_norm_bound(slpi_ref_zeitlin_mr_half(t, m, odd), h, odd ? n / 2 : h);
            ok = isfinite(t->nrm[2 * m + odd]);
        }
        arb_mat_clear(V);
        slpi_progress_tick("su(%d) tables as doubles: %d/%d", N, m + 1, N);
    }
    if (!ok) slpi_ref_zeitlin_mr_clear(t);
    if (ok) cache_put(t);
    return ok;
}

void slpi_ref_zeitlin_mr_clear(slpi_ref_zeitlin_mr *t)
{
    for (int m = 0; m < t->N && t->mid != NULL; m++) free(t->mid[m]);
    free(t->mid);
    free(t->rad);
    free(t->nrm);
    t->mid = NULL;
    t->rad = NULL;
    t->nrm = NULL;
    t->N = 0;
}
