"""python/setup.py names the fix when this Python cannot build a wheel: a setuptools
without bdist_wheel and no package `wheel` (a pyenv python3 in front of /usr/bin/python3)
made pip stop at "invalid command 'bdist_wheel'" with no word of what to do."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # python/
HIDE = 'import sys\nfor n in ("wheel", "wheel.bdist_wheel", "setuptools.command.bdist_wheel"):\n    sys.modules[n] = None\n'


def test_no_wheel_names_the_fix(tmp_path):
    hide, src = tmp_path / "hide", tmp_path / "python"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(HIDE)
    (src / "slpi").mkdir(parents=True)   # a copy: a setup.py that did not stop writes nothing into the tree
    for f in ("setup.py", "pyproject.toml", "README.md", os.path.join("slpi", "_version.py")):
        shutil.copy(os.path.join(HERE, f), src / f)
    for cmd in ("dist_info", "bdist_wheel"):   # pip's metadata step, then its build
        r = subprocess.run([sys.executable, "setup.py", cmd], cwd=src, capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, PYTHONPATH=str(hide)))
        assert r.returncode == 1, (cmd, r.stdout[-500:], r.stderr[-500:])
        assert "invalid command" not in r.stderr
        assert "cannot build a wheel" in r.stderr
        assert "/usr/bin/python3 -m pip install --no-build-isolation ./python" in r.stderr
        assert "%s -m pip install wheel" % sys.executable in r.stderr
