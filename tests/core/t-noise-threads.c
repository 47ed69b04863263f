/* t-noise-threads.c — thread independence of the canonical noise (docs/noise.md#contract): the same
 * normals and increments, byte for byte, from one call, from 2 and 3 pthreads splitting
 * the range at arbitrary (odd) points, and from single-index calls in reverse order. */
#include <pthread.h>

#include "slpi.h"
#include "testutil.h"

typedef struct {
    uint64_t seed, path, first;
    size_t count;
    int refine; /* < 0: normals, else increments at h = 2^-5 */
    double *out;
} job;

static void *run(void *arg)
{
    job *j = arg;
    if (j->refine < 0) {
        slpi_noise_normals(j->seed, j->path, 3, j->first, j->count, j->out);
    } else {
        slpi_noise_increments(j->seed, j->path, 3, 0x1p-5, j->refine, j->first, j->count, j->out, NULL);
    }
    return NULL;
}

/* The range [first, first + n) split among `workers` threads at random points. */
static void split_run(job whole, int workers)
{
    pthread_t t[3];
    job part[3];
    size_t at = 0;
    for (int w = 0; w < workers; w++) {
        size_t end = w + 1 == workers ? whole.count : at + (size_t)test_rand_int((long)(whole.count - at));
        part[w] = whole;
        part[w].first = whole.first + at;
        part[w].count = end - at;
        part[w].out = whole.out + at;
        at = end;
        pthread_create(&t[w], NULL, run, &part[w]);
    }
    for (int w = 0; w < workers; w++) pthread_join(t[w], NULL);
}

int main(void)
{
    test_start("t-noise-threads", 5);
    const size_t n = 200001;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (long it = 0; it < test_iters(6); it++) {
        int refine = (int)it % 3 - 1;
        job whole = {
            test_rand_u64(), test_rand_u64() >> 33, test_rand_u64() >> 20, refine > 0 ? n / 8 : n, refine, a
        };
        run(&whole);
        for (int workers = 2; workers <= 3; workers++) {
            memset(b, 0, n * sizeof *b);
            whole.out = b;
            split_run(whole, workers);
            whole.out = a;
            TEST_CHECKF(memcmp(a, b, whole.count * sizeof *a) == 0, "refine %d: %d threads differ from one", refine,
                        workers);
        }
        if (refine < 0) {
            for (size_t i = whole.count; i-- > 0;) {
                b[i] = slpi_noise_normal(whole.seed, whole.path, 3, whole.first + i);
            }
            TEST_CHECK(memcmp(a, b, whole.count * sizeof *a) == 0);
        }
    }
    free(a);
    free(b);
    TEST_END();
}
