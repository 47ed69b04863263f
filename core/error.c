/* error.c — error records, step-status names and diagnostic lists shared by every module. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/check.h"
#include "slpi/diag.h"
#include "slpi/errors.h"
#include "slpi/step.h"

/* Defined in every build (core/check.h's macros call it only under SLPI_DEBUG). */
_Noreturn void slpi_check_failed(const char *file, int line, const char *text)
{
    fprintf(stderr, "%s:%d: defensive check failed: %s\n", file, line, text);
    abort();
}

int slpi_error_set(slpi_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *slpi_step_status_name(slpi_step_status s)
{
    static const char *const names[] = { "converged", "stagnated", "capped", "not-converged",
                                         "diverged",  "UNABLE",    "invalid" };
    _Static_assert(sizeof names / sizeof *names == SLPI_STEP_INVALID + 1, "one name per slpi_step_status");
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

void slpi_diag_add(slpi_diag *d, const char *name, double value)
{
    if (d->n < SLPI_MAX_DIAG) {
        d->name[d->n] = name;
        d->value[d->n] = value;
        d->n++;
    }
}
