/* slpi-tools.h — the public header of libslpi-tools, the verification tools beside the
 * integrator library libslpi (slpi.h; docs/architecture.md): golden certified cases,
 * fast-vs-ref scoring, the verifier for trajectories of other implementations (oracle/),
 * and the bindings' entry points to the verifier, the golden cases and the convergence
 * studies. The property harness (props/), the audit's mathematics (gaps/), the studies
 * (studies/) and the audit (reports/) are in the same library; the `slpi` command
 * reaches them through their module headers. A program using the tools links libslpi-tools and libslpi
 * (libslpi-tools.so alone carries both: it exports the functions of slpi.h and of this
 * header).
 *
 * Conventions of every function: slpi.h's (its block at the top, with the same three
 * rules; docs/api.md#reference-tools lists each function with them, generated from this
 * header by mk/api-doc.py): a pointer argument must not be NULL unless the function's
 * comment names it in a line "NULL: a, b" (tests/api/t-api-null-tools.c calls each function
 * with each pointer its comment allows to be NULL); what a function makes or returns is
 * owned as slpi.h says unless "Owns:" says otherwise; an object is used by one thread at
 * a time, and "Thread:" names a call that touches process-wide state.
 *
 * This file includes slpi.h and the tools' declarations, include/slpi/tools.h (installed as
 * <slpi/tools.h>, which includes only the libslpi headers by module it needs).
 */
#ifndef SLPI_TOOLS_H
#define SLPI_TOOLS_H

#include "slpi.h"
#include "slpi/tools.h" /* the tools' declarations (include/slpi/tools.h) */

#endif
