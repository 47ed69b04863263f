/* fast/workspace.c — a scheme's workspace on the run object (docs/schemes.md#solver): allocated
 * once by the scheme's init (slpi_fast_work_new), released with the object. */
#include <stdlib.h>
#include <stddef.h>
#include "slpi/errors.h"
#include "slpi/registry.h"
#include "fast/fast.h"
#include "core/view-scheme.h"

double *slpi_fast_work_new(slpi_fast *f, size_t wsize, size_t ndoubles, slpi_error *err)
{
    size_t head = (wsize + 15) / 16 * 16;
    char *w = calloc(1, head + ndoubles * sizeof(double));
    if (!w) {
        slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", slpi_scheme_name(slpi_view_scheme(f->p)->scheme));
        return NULL;
    }
    f->work = w;
    return (double *)(w + head);
}

void slpi_fast_work_free(slpi_fast *f)
{
    free(f->work);
    f->work = NULL;
}
