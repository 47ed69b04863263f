/* replay.c — main() for the fuzz harnesses without libFuzzer: runs every file named on
 * the command line through LLVMFuzzerTestOneInput once (`make fuzz-smoke`). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzzutil.h"

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "replay: %s: cannot open\n", argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, len = 0, got;
        uint8_t *buf = malloc(cap);
        while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
            len += got;
            if (len == cap) buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        n++;
    }
    printf("replay: %d inputs, no crash\n", n);
    return 0;
}
