/* output.h — what core/output.c offers the rest of core beyond slpi.h. */
#ifndef SLPI_CORE_OUTPUT_H
#define SLPI_CORE_OUTPUT_H

/* Unlink the temporary files of outputs not yet committed (async-signal-safe: for a
 * handler that ends the process, core/interrupt.c). */
void slpi_output_remove_pending(void);

#endif
