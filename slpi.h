/* slpi.h — the public header of libslpi, the integrator library of a verified reference
 * implementation of stochastic Lie–Poisson integrators (the mathematics: docs/README.md;
 * design: docs/design.md; the two libraries: docs/architecture.md).
 *
 * Layers: the problem model and registry (core/), canonical noise (core/noise.c),
 * file formats (core/), the run driver (core/run.c), the double path (fast/) and the
 * certified Arb path (ref/), each with its run adapter (fast/path.c, ref/path.c), and the
 * handle API for bindings (api/). This file only includes the public headers by module,
 * include/slpi/NAME.h; libslpi.so exports exactly the functions they declare. The
 * verification tools (golden cases, verify, the property harness, the audit) are the
 * second library, libslpi-tools, with its own header slpi-tools.h. Status and exit codes
 * everywhere: the one list of slpi/errors.h.
 *
 * Conventions of every function (docs/api.md#reference lists each function with the
 * three lines below, generated from this header by mk/api-doc.py):
 *   NULL    A pointer argument must not be NULL, unless the function's comment names
 *           it in a line "NULL: a, b" (what NULL means is said there); this includes
 *           slpi_error *err. tests/api/t-api-null.c calls each function with each pointer
 *           its comment allows to be NULL.
 *   Owns    What a _new, _create, _open or _begin function makes is the caller's,
 *           freed by the module's _free, _close or _end (an output by commit or
 *           abort); a returned const char * or table is static (or lives as long as
 *           the object it came from) and is never freed; "Owns:" says otherwise.
 *   Thread  An object (a problem, run object, stepper, reader, output, noise source)
 *           is used by one thread at a time; calls on distinct objects, and calls
 *           that only read their arguments, may run concurrently; "Thread:" names a
 *           call that touches process-wide state.
 */
#ifndef SLPI_H
#define SLPI_H

/* The public API by module (include/slpi/; docs/api.md#reference groups it the same way).
 * A program may include one module's header instead of this one. SLPI_FAST_ONLY: the
 * double path only, without Arb's headers (slpi/ref.h leaves out its ball declarations). */
#include "slpi/errors.h"
#include "slpi/process.h"
#include "slpi/registry-ids.h"
#include "slpi/registry.h"
#include "slpi/limits.h"
#include "slpi/problem.h"
#include "slpi/problem-build.h"
#include "slpi/problem-finish.h"
#include "slpi/problem-shape.h"
#include "slpi/initial.h"
#include "slpi/callback.h"
#include "slpi/plan.h"
#include "slpi/noise.h"
#include "slpi/step.h"
#include "slpi/diag.h"
#include "slpi/version.h"
#include "slpi/trajectory.h"
#include "slpi/output.h"
#include "slpi/run.h"
#include "slpi/fast.h"
#include "slpi/ref.h"
#include "slpi/stepper.h"
#include "slpi/ensemble.h"
#include "slpi/container.h"

#endif
