"""Files written whole or not at all (slpi/_atomic.py): a SIGTERM that lands
while a checkpoint is written (sent from inside its writer, so the moment is exact)
ends the process once the file is renamed, leaving the checkpoint whole and no
``.part-PID`` behind; an error in the writer leaves neither; and a later write of the
same file removes the temporaries of processes that are gone, keeping those of live
processes and of other names."""
import os
import signal
import subprocess
import sys

import pytest

import slpi
from slpi import _atomic

KW = dict(steps=300, output_every=7, trunc_ell=0.05)


def test_sigterm_while_writing_leaves_no_part(tmp_path):
    ck = str(tmp_path / "c.npz")
    code = ("import os, signal, slpi\n"
            "from slpi import _atomic, _ckpt\n"
            "def atomic_bytes(path, data):\n"
            "    def fill(tmp):\n"
            "        open(tmp, 'wb').write(data)\n"
            "        os.kill(os.getpid(), signal.SIGTERM)   # the temporary written, not yet renamed\n"
            "    _atomic.write(path, fill)\n"
            "_ckpt.atomic_bytes = atomic_bytes\n"
            "slpi.run(None, checkpoint=%r, checkpoint_every=100, **%r)\n" % (ck, KW))
    p = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True)
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert os.listdir(str(tmp_path)) == ["c.npz"]   # no c.npz.part-PID
    whole = slpi.run(None, **KW)
    assert slpi.run(None, resume=ck, **KW).states.tobytes() == whole.states.tobytes()


def test_error_while_writing_leaves_no_part(tmp_path, monkeypatch):
    ck = str(tmp_path / "c.npz")

    def broken(fd):   # the temporary written, not synced
        raise OSError("disk full")
    monkeypatch.setattr(_atomic.os, "fsync", broken)
    with pytest.raises(OSError, match="disk full"):
        slpi.run(None, checkpoint=ck, **KW)
    assert os.listdir(str(tmp_path)) == []


def test_a_later_write_removes_dead_temporaries(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        ck = tmp_path / "c.npz"
        names = ["c.npz.part-%d" % gone.pid, "c.npz.part-%d" % live.pid, "c.npz.part-x%d" % gone.pid,
                 "d.npz.part-%d" % gone.pid, "c.npz.part-%d.old" % gone.pid]
        for n in names:
            (tmp_path / n).write_bytes(b"half")
        slpi.run(None, checkpoint=str(ck), **KW)
        assert sorted(os.listdir(str(tmp_path))) == sorted(["c.npz"] + names[1:])
        (tmp_path / names[0]).write_bytes(b"half")   # slpi.save and write_trajectory alike
        _atomic.write(str(ck), lambda tmp: open(tmp, "wb").close())
        assert not (tmp_path / names[0]).exists() and (tmp_path / names[1]).exists()
    finally:
        live.kill()
        live.wait()


def test_ctrl_c_and_sigterm_while_writing(tmp_path):
    """Both signals during one write: the SIGTERM (default action) is not lost to the
    KeyboardInterrupt; the file is renamed whole first."""
    f = str(tmp_path / "c.npz")
    code = ("import os, signal\n"
            "from slpi import _atomic\n"
            "def fill(tmp):\n"
            "    open(tmp, 'w').write('whole')\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "try:\n"
            "    _atomic.write(%r, fill)\n"
            "except KeyboardInterrupt:\n"
            "    os._exit(5)\n" % f)
    p = subprocess.run([sys.executable, "-c", code], env=dict(os.environ), capture_output=True)
    assert p.returncode == -signal.SIGTERM, (p.returncode, p.stderr)
    assert os.listdir(str(tmp_path)) == ["c.npz"] and open(f).read() == "whole"
