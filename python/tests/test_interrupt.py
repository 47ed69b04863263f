"""Ctrl-C at random moments (issue: a SIGINT that lands as C enters a Python callback,
before the callback's own try, was printed as "Exception ignored from cffi callback" and
the run went on): every long call raises KeyboardInterrupt (the calls would take minutes
or hours), for 20 signals into observer and Callback runs, 20 into slpi.noise at refine
31, and a few into ensembles whose dW and x0 are callables and whose Hamiltonian is a
Callback. The moments are drawn from a printed seed
(SLPI_TEST_SEED overrides it); SLPI_TEST_MULTIPLIER multiplies the counts."""
import os
import random
import signal
import threading
import time

import numpy as np
import pytest

import slpi

RB = "iso/rigid-body/trajectories"
SEED = int(os.environ.get("SLPI_TEST_SEED", random.SystemRandom().randrange(2 ** 32)))
MULT = max(1, int(os.environ.get("SLPI_TEST_MULTIPLIER", "1")))
I = np.array([2.0, 1.0, 0.5])


# A lost signal is seen, never timed: a callback of a test raises Deadline once the call
# has outlived its signal by LOST seconds (the observer and the Callbacks run at every
# step), and a call that polls nowhere in Python (slpi.noise) is ended with the process,
# naming it, 2 LOST seconds after its signal. Latencies are printed (milliseconds, at
# load 3 to 12 on 2 cores).
LOST = 30.0
SENT = [None]


class Deadline(Exception):
    """Raised by a test's callback LOST s after the signal: a lost signal ends the call."""


def alive():
    """In a test's callbacks: raise Deadline once the call has outlived its signal."""
    if SENT[0] is not None and time.monotonic() - SENT[0] > LOST:
        raise Deadline("still running %.0f s after the SIGINT: it was lost" % LOST)


@pytest.fixture
def sigint(request):
    """Python's own SIGINT handler (a background `make check &` starts with SIGINT ignored,
    and Python would leave it so)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    request.addfinalizer(lambda: signal.signal(signal.SIGINT, old))


def interrupted(call, delay, what, capfd):
    """call() must raise KeyboardInterrupt for a SIGINT sent delay s after its start, and
    nothing may be printed as ignored; returns the latency."""
    SENT[0] = None
    returned = threading.Event()

    def send():
        time.sleep(delay)
        SENT[0] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)
        if not returned.wait(2 * LOST):
            os.write(2, ("test_interrupt: %s still runs %.0f s after its SIGINT (sent %.3f s after its start): "
                         "lost\n" % (what, 2 * LOST, delay)).encode())
            os._exit(3)
    t = threading.Thread(target=send, daemon=True)
    t.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                call()
            finally:
                returned.set()
            pytest.fail("%s: returned normally (signal %.3f s after the start)" % (what, delay))
    finally:
        returned.set()
        t.join()
    latency = time.monotonic() - SENT[0]
    err = capfd.readouterr().err
    assert "Exception ignored" not in err, "%s (delay %.3f s): %s" % (what, delay, err)
    return latency


def callback_model():
    def grad(mu):
        alive()
        return 2 * mu / I
    H = slpi.Callback(grad, lambda mu, w: 2 * w / I, lambda mu: float(mu @ (mu / I)))
    return slpi.Model("so3", H, noise=["0.1*x1^2"], x0=[1, 0.5, 0.2])


def test_twenty_sigints_into_observer_and_callback_runs(sigint, capfd):
    print("test_interrupt seed %d (SLPI_TEST_SEED=%d reproduces the moments)" % (SEED, SEED))
    rng = random.Random(SEED)
    m = callback_model()
    calls = (("observer run", lambda: slpi.run(RB, steps=10 ** 9, output_every=10 ** 7, observer=lambda t, x: alive())),
             ("Callback run", lambda: slpi.run(m, steps=10 ** 9, output_every=10 ** 7)),
             ("Callback run with observer", lambda: slpi.run(m, steps=10 ** 9, output_every=10 ** 7,
                                                            observer=lambda t, x: alive())))
    worst = 0.0
    for i in range(20 * MULT):
        what, call = calls[i % len(calls)]
        worst = max(worst, interrupted(call, rng.uniform(0.02, 0.5), what, capfd))
    print("20 of 20 raised; worst latency %.3f s" % worst)


def test_twenty_sigints_into_noise_at_refine_31(sigint, capfd):
    """One increment at refine 31 is 2^31 fine draws (seconds); 128 are the most one call
    may take (2^38 draws, about 15 minutes)."""
    rng = random.Random(SEED + 1)
    worst = 0.0
    for _ in range(20 * MULT):
        worst = max(worst, interrupted(lambda: slpi.noise(7, 0, 0, 0.01, 128, refine=31),
                                       rng.uniform(0.02, 0.5), "noise refine=31", capfd))
    print("noise: 20 of 20 raised; worst latency %.3f s" % worst)
    # the flag was cleared: the next generation runs, and equals its pieces at the next level
    a = slpi.noise(7, 0, 0, 0.01, 4, refine=12)
    b = slpi.noise(7, 0, 0, 0.005, 8, refine=11)
    assert np.array_equal(a, b[0::2] + b[1::2])


def test_sigints_into_ensembles_with_callables(sigint, capfd):
    """x0 and dW callables (called by Python between batches) and a Callback Hamiltonian
    (called by C in the worker thread)."""
    rng = random.Random(SEED + 2)
    m = callback_model()
    steps = 2000

    def dW(first, count):
        alive()
        return np.full((count, steps, 1), 1e-3)

    def x0(first, count):
        alive()
        return np.tile([1.0, 0.5, 0.2], (count, 1))
    calls = (("ensemble with dW and x0 callables", lambda: slpi.ensemble(RB, paths=10 ** 7, steps=steps, stats=True,
                                                                         states=False, x0=x0, dW=lambda f, c: np.full(
                                                                             (c, steps, 3), 1e-3))),
             ("Callback ensemble", lambda: slpi.ensemble(m, paths=10 ** 6, steps=steps, dW=dW, stats=True,
                                                         states=False, progress=True)))
    for i in range(6 * MULT):
        what, call = calls[i % len(calls)]
        interrupted(call, rng.uniform(0.02, 0.5), what, capfd)
    assert slpi.ensemble(m, paths=2, steps=3).shape == (2, 3)


def test_observer_stop_at_a_pieces_last_step():
    """run advances in pieces (the first of 16 steps): an observer that stops the run, or
    raises, at a piece's last step ends it there (it was read as a whole piece taken, and
    the run went on: a SIGINT caught there was lost until the end)."""
    h = slpi.Problem(RB).h
    for at in (16, 17, 15):
        r = slpi.run(RB, steps=10 ** 6, output_every=10 ** 5, observer=lambda t, x: t >= at * h - h / 4)
        assert r.summary["stopped_at"] == at, (at, r.summary["stopped_at"])

    def boom(t, x):
        if t >= 16 * h - h / 4:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        slpi.run(RB, steps=10 ** 9, output_every=10 ** 7, observer=boom)
