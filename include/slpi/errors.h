/* slpi/errors.h — the one list of error codes (every function's status, the `slpi` command's
 * exit codes, the tools' verdicts) and the error record (part of slpi.h). */
#ifndef SLPI_PUBLIC_ERRORS_H
#define SLPI_PUBLIC_ERRORS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

/* The status of every function, the `slpi` command's exit code and the tools' verdicts
 * (slpi_verdict, slpi-tools.h: PASS, FAIL, UNABLE are SLPI_OK, SLPI_ECHECK, SLPI_ENUMERIC),
 * one list (docs/conventions.md#errors):
 *   SLPI_OK        0    done; a check passed
 *   SLPI_ECHECK    1    a check failed (verify, golden, the audit's controls)
 *   SLPI_EINPUT    2    usage or input error, out of memory included (the message names
 *                       the key, value or file:line)
 *   SLPI_ENUMERIC  3    numerical failure: non-convergence, NaN/Inf, UNABLE (the message
 *                       names the step and the residual or radius)
 *   SLPI_EINTR     130  interrupted (slpi_interrupt_request, Ctrl-C): 128 + SIGINT, as a
 *                       shell reports a command that SIGINT ended */
enum { SLPI_OK = 0, SLPI_ECHECK = 1, SLPI_EINPUT = 2, SLPI_ENUMERIC = 3, SLPI_EINTR = 130 };

typedef struct slpi_error {
    int code;      /* one of SLPI_OK, SLPI_EINPUT, SLPI_ENUMERIC, SLPI_ECHECK, SLPI_EINTR */
    char msg[512]; /* names the problem: key, value, file:line, step, residual */
} slpi_error;

/* Record an error (printf-style) and return its code.
 * NULL: err (the code is returned, nothing recorded). */
int slpi_error_set(slpi_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The calling thread's last error message (the handle API's functions return only a code).
 * Owns: the calling thread's buffer, overwritten by its next failing call. */
const char *slpi_api_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
