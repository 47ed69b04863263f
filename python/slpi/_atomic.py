"""slpi._atomic — files written whole or not at all (Python checkpoints, ``slpi.save``,
``write_trajectory``), and signals held while they are.

A file PATH is written into a temporary file beside it, ``PATH.part-PID`` (PID: the
writer's process id), which is synced and renamed over PATH, so that PATH holds the old
file or the new one, whole, whatever stops the write. Meanwhile SIGINT and SIGTERM are
held (``Held``): one that arrives is acted on once the file is renamed, or the temporary
removed after an error, so that Ctrl-C or a scheduler's SIGTERM leaves no ``.part``
file. A process killed outright (SIGKILL, a crash) cannot remove its own: the next write
of the same PATH removes every ``PATH.part-PID`` whose process is gone (``os.kill(pid,
0)`` raises ProcessLookupError), and keeps those of live processes (another writer) and
of names it did not make."""
import os
import re
import signal
import threading


class Held:
    """Within it, SIGINT and SIGTERM are held where Python can hold them (the main
    thread, not ignored): a signal that arrives is recorded, and on leaving, the block
    done, its handler runs (KeyboardInterrupt for SIGINT) or, where the signal's action
    was the default (termination), the signal is sent again with that action back."""

    def __enter__(self):
        self.old, self.got = {}, []
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                h = signal.getsignal(sig)
                if callable(h) or h == signal.SIG_DFL:
                    self.old[sig] = h
                    signal.signal(sig, lambda *a: self.got.append(a))
        return self

    def __exit__(self, *exc):
        for sig, h in self.old.items():
            signal.signal(sig, h)
        got = {a[0]: a for a in self.got}
        for sig in sorted(got, key=lambda s: callable(self.old[s])):   # terminations first: never lost
            if callable(self.old[sig]):
                self.old[sig](*got[sig])
            else:
                os.kill(os.getpid(), sig)
        return False


def part(path):
    """The temporary name of path in this process."""
    return "%s.part-%d" % (path, os.getpid())


def remove_dead_parts(path):
    """Remove the temporaries path.part-PID that processes now gone left behind."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        names = os.listdir(folder)
    except OSError:
        return
    pattern = re.compile(re.escape(name) + r"\.part-([0-9]+)$")
    for other in names:
        m = pattern.match(other)
        if not m or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
        except ProcessLookupError:
            try:
                os.unlink(os.path.join(folder, other))
            except OSError:
                pass
        except (PermissionError, OverflowError):
            pass   # a live process of another user (or no such pid): not ours to judge


def write(path, fill):
    """Write path atomically: fill(tmp) writes the content into the file tmp, which is
    then renamed over path; signals held meanwhile, and dead temporaries of path removed
    first."""
    remove_dead_parts(path)
    tmp = part(path)
    with Held():
        try:
            fill(tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)


def atomic_bytes(path, data):
    """The bytes data into path, atomically (write), synced before the rename."""
    def fill(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    write(path, fill)
