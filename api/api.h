/* api.h — the handle API's error channel, for the entry points the tools library adds
 * (oracle/api-tools.c, reports/api-converge.c; their declarations are in slpi-tools.h).
 * Not part of slpi.h: libslpi.so does not export it. */
#ifndef SLPI_API_H
#define SLPI_API_H

#include "slpi/errors.h"

/* Record err's message as the calling thread's slpi_api_last_error when rc is an error;
 * returns rc. */
int slpi_api_record(const slpi_error *err, int rc);

#endif
