/* core/command.h — what libslpi does for the `slpi` command alone (cli/): its stop
 * handler, the keys' help text, the checks of its output and input paths, its
 * large-output guard and a run's JSON summary. A declared interface of core, not
 * installed: no program or binding calls these (libslpi.so exports them under
 * SLPI_PRIVATE only). */
#ifndef SLPI_CORE_COMMAND_H
#define SLPI_CORE_COMMAND_H

#include <stdio.h>

typedef struct slpi_error slpi_error; /* slpi/errors.h */
typedef struct slpi_problem slpi_problem;
typedef struct slpi_run_result slpi_run_result; /* slpi/run.h, for its users only */

/* Thread: not safe: sets the process's SIGINT, SIGTERM, SIGHUP, SIGALRM and SIGPROF
 * handlers (call it once, at start). Installs the `slpi` command's stop handler for each of
 * SIGINT, SIGTERM and SIGHUP not inherited ignored (returns 1 if SIGINT's was installed):
 * the first such signal raises the interrupt flag (slpi_interrupt_request), and ends the
 * process by that signal after one more second of its CPU time (or ten of wall time) if it
 * is still running, or at a second one. */
int slpi_interrupt_catch(void);
/* Print every key with its system and help text (the documentation of the keys). */
void slpi_problem_print_keys(FILE *f);
/* Refuse (SLPI_EINPUT, naming both) an output that is another output or an input of
 * the command; NULL, "" and "-" entries are skipped, as are existing non-regular files
 * (/dev/null may be named twice). Roles name the options: "--output", "noise_file". */
int slpi_output_check_paths(int nout, const char *const *out, const char *const *out_role, int nin,
                            const char *const *in, const char *const *in_role, slpi_error *err);
/* 1 when the file name `name` is `prefix`, a process id (no leading 0), '-' and six
 * letters or digits (what mkstemp and mkdtemp make of "PREFIXPID-XXXXXX", nothing else)
 * and that process is gone (kill(PID, 0) fails with ESRCH): a temporary file or folder
 * whose writer was ended by SIGKILL or a crash (core/output.c's outputs, oracle's split
 * folders; docs/conventions.md#stale). */
int slpi_output_is_stale(const char *name, const char *prefix);
/* Flush standard output; a write error (e.g. > /dev/full) is SLPI_EINPUT. */
int slpi_output_close_stdout(slpi_error *err);
/* Estimated size in bytes of the trajectory text slpi_run writes for p (ball: the
 * certified path's `mid +/- rad` columns), for the command's large-output guard. */
double slpi_run_output_bytes(const slpi_problem *p, int ball);
/* The run's summary as JSON (problem, result, diagnostics) for machines. */
int slpi_run_write_json(const slpi_problem *p, const char *path_name, const slpi_run_result *res, int rc,
                        const char *message, const char *file, slpi_error *err);

#endif
