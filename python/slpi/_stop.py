"""slpi._stop — SIGTERM as one stop with Ctrl-C in slpi's long calls, as the ``slpi``
command makes SIGINT, SIGTERM and SIGHUP one stop (core/interrupt.c,
docs/conventions.md#interrupt): a batch scheduler's SIGTERM at its wall-time limit keeps
what a Ctrl-C keeps.

While ``run``, ``ensemble``, ``converge``, ``mlmc``, ``verify``, ``golden`` or ``noise``
runs in the main thread, a SIGTERM whose action is the default (termination) raises
``Terminated`` where Ctrl-C raises KeyboardInterrupt: the call stops at its next piece,
batch or step, writes what a Ctrl-C writes (``run``: a checkpoint at the last step taken
and the stream's rows; ``ensemble``: a checkpoint of the paths completed, up to the last
wave of blocks; ``converge``: its batches), and raises it. Terminated is a SystemExit of
code 130 and a KeyboardInterrupt: uncaught, Python exits with status 130, as ``slpi``
does after a stop (no traceback; one line on standard error says what stopped), and every
``except KeyboardInterrupt`` of slpi's (or the caller's) treats it as a Ctrl-C. A second
SIGTERM ends the process at once by SIGTERM, as ``slpi``'s second stop does (files being
written atomically are finished first: slpi/_atomic.py holds it). A SIGTERM the caller
handles (its own handler) or ignores is left to it, and outside these calls SIGTERM does
what it did.

[choice] An exception, not an exit from within the library: the caller's ``finally``
blocks and context managers run, and a caller that catches it may go on (a notebook)."""
import os
import signal
import sys
import threading


class Terminated(SystemExit, KeyboardInterrupt):
    """SIGTERM stopped an slpi call (after it kept what Ctrl-C keeps): a SystemExit of code
    130 (uncaught, Python exits with status 130, as ``slpi``) and a KeyboardInterrupt."""

    def __init__(self, message):
        super().__init__(message)
        self.code = 130


class Stops:
    """Within it (the main thread, SIGTERM's action the default), SIGTERM raises Terminated;
    nested, only the outermost acts."""

    def __enter__(self):
        self.on = threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        self.seen = False
        if self.on:
            signal.signal(signal.SIGTERM, self._stop)
        return self

    def _stop(self, sig, frame):
        if self.seen:   # a second SIGTERM: the process ends now
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
        self.seen = True
        sys.stderr.write("slpi: SIGTERM: stopping as on Ctrl-C (what the call keeps is written first)\n")
        raise Terminated("SIGTERM: the call stopped as on Ctrl-C, keeping what it keeps then (a checkpoint: "
                         "continue with resume=); uncaught, Python exits with status 130")

    def __exit__(self, *exc):
        if self.on:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        return False
