/* fuzz-verify.c — `slpi verify`'s input (oracle/verify.c): a trajectory TSV from
 * another implementation whose header names the problem (case=NAME from oracle/golden,
 * or system=, scheme=, ...). Rows are not integrated (max_steps 0: the certified path
 * is not the reader); the header's problem and the rows' shape are checked. */
#include "fuzzutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memmem(data, size, "_file", 5)) return 0; /* file names are other readers' */
    slpi_verify_result res;
    slpi_error err = { 0, "" };
    int rc = slpi_verify_file(fuzz_file(data, size), NULL, "oracle/golden", 0, NULL, &res, &err);
    fuzz_check_error(rc, &err);
    return 0;
}
