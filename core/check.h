/* check.h — the defensive-check convention (docs/conventions.md#defensive-checks), after
 * SQLite's ALWAYS/NEVER: conditions the code relies on that no input can break.
 *
 *   if (SLPI_NEVER(cond)) { ...handle it as an error... }
 *   if (SLPI_ALWAYS(cond)) { ...the normal path... }
 *   SLPI_ASSERT(cond);
 *
 * SLPI_NEVER(X) marks a condition that is false by construction (a table lookup that
 * cannot miss, a layout two modules agree on, a rebuild that cannot fail once its
 * first build succeeded); SLPI_ALWAYS(X) one that is true. In a debug or sanitizer
 * build (SLPI_DEBUG defined: `make DEBUG=1`, `make asan`, `make fuzz`) a broken one
 * stops the program at once with its file, line and text (exit by abort), so the bug is
 * found where it happens. In a release build SLPI_NEVER(X) and SLPI_ALWAYS(X) are just
 * (X): the code beside them still handles the impossible case as an ordinary error
 * (never undefined behaviour, never a silent wrong result). SLPI_ASSERT(X) is for a
 * condition with no recovery path: checked in debug builds, nothing in release.
 */
#ifndef SLPI_CORE_CHECK_H
#define SLPI_CORE_CHECK_H

/* Prints "file:line: defensive check failed: text" on stderr and aborts (core/error.c). */
_Noreturn void slpi_check_failed(const char *file, int line, const char *text);

#ifdef SLPI_DEBUG
#define SLPI_ALWAYS(X) ((X) ? 1 : (slpi_check_failed(__FILE__, __LINE__, "ALWAYS(" #X ")"), 0))
#define SLPI_NEVER(X) ((X) ? (slpi_check_failed(__FILE__, __LINE__, "NEVER(" #X ")"), 1) : 0)
#define SLPI_ASSERT(X) ((X) ? (void)0 : slpi_check_failed(__FILE__, __LINE__, "ASSERT(" #X ")"))
#else
#define SLPI_ALWAYS(X) (X)
#define SLPI_NEVER(X) (X)
#define SLPI_ASSERT(X) ((void)0)
#endif

#endif
