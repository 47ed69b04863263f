"""slpi._atomic — files written whole or not at all: the data goes to a temporary file
beside the target, ``PATH.part-PID``, which is synced and renamed over PATH, so that
PATH holds the old file or the new one, whole, whatever stops the write."""
import os

import numpy as np


def atomic_savez(path, **arrays):
    """np.savez of arrays into path, atomically: a temporary file beside it, fsync,
    rename (path holds the old file or the new one, whole, whatever stops the write)."""
    tmp = "%s.part-%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
