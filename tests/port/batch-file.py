#!/usr/bin/env python3
"""batch-file.py - a large many-path trajectory file from slpi.torch, written batch by
batch so that memory holds one batch (docs/power.md#sample-timing: the 10^5-row su(64)
binary32 file that `slpi verify --sample` judges).

usage: batch-file.py OUT PRECISION PATHS BATCH FIRST STEPS PRESET [KEY=VALUE ...]
PATHS paths from FIRST in batches of BATCH paths, each STEPS steps, of slpi.torch's
`run(PRESET, precision=PRECISION, steps=STEPS, KEY=VALUE...)`, into one file OUT with a
`path` column (oracle/README.md#many-paths): the header of the first batch, then every
batch's rows, values as hex floats. Prints the rows written and the CPU seconds of the
steps and of the writing. Exit 77 without PyTorch."""
import os
import sys
import time


def main(argv):
    if len(argv) < 7:
        raise SystemExit(__doc__)
    try:
        import torch  # noqa: F401
    except ImportError:
        sys.exit(77)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import slpi.torch
    out, prec = argv[0], argv[1]
    paths, batch, first, steps = (int(a) for a in argv[2:6])
    keys = dict(kv.split("=", 1) for kv in argv[7:])
    rows, run_cpu, write_cpu = 0, 0.0, 0.0
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        for b0 in range(first, first + paths, batch):
            e = slpi.torch.run(argv[6], paths=min(batch, first + paths - b0), first_path=b0, precision=prec,
                               steps=steps, **keys)
            run_cpu += e.cpu_seconds
            t0 = time.process_time()
            if b0 == first:
                head = slpi.torch._header(e, None)
                f.write("\n".join(head) + "\n" + "\t".join(["step", "t", "path"] + list(e.labels)) + "\n")
            hexed = [[[float.hex(v) for v in row] for row in path] for path in e.states.tolist()]
            for r, n in enumerate(e.step.tolist()):
                for q, K in enumerate(e.paths.tolist()):
                    f.write("%d\t%.17g\t%d\t%s\n" % (n, e.t[r], K, "\t".join(hexed[q][r])))
                    rows += 1
            write_cpu += time.process_time() - t0
    os.replace(tmp, out)
    print("batch-file: %d rows; steps %.1f CPU s, writing %.1f CPU s" % (rows, run_cpu, write_cpu))


if __name__ == "__main__":
    main(sys.argv[1:])
