"""setup.py — only what pyproject.toml cannot say: the folder of libslpi the installed
package opens (slpi/_libdir.py in the built package), and never a package that cannot
import. The folder, in order: $SLPI_LIBDIR (`make install` passes $(PREFIX)/lib), the
source tree's build/ beside this folder, pkg-config's libdir of slpi; else, when the
loader finds libslpi.so.MAJOR, nothing is recorded. None of these: the source tree this
folder sits in is built (`make deps` checked first, never installing anything: a missing
Debian package stops the install with the apt-get line to run; then `make all`) and its
build/ recorded; without a source tree the install stops with the lines to run."""
import ctypes
import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.realpath(os.path.join(HERE, ".."))
VERSION = {}
with open(os.path.join(HERE, "slpi", "_version.py")) as _f:   # not the package: it opens libslpi
    exec(_f.read(), VERSION)
__version__, SONAME = VERSION["__version__"], VERSION["SONAME"]


def has_lib(folder):
    """libslpi is there (the package imports; libslpi-tools is opened on its first use)."""
    return os.path.exists(os.path.join(folder, "libslpi.so"))


def found():
    """The recorded folder (a str), "" (the loader's path finds the library), or None."""
    if os.environ.get("SLPI_LIBDIR"):
        return os.environ["SLPI_LIBDIR"]
    if has_lib(os.path.join(TREE, "build")):
        return os.path.join(TREE, "build")
    try:
        d = subprocess.run(["pkg-config", "--variable=libdir", "slpi"], check=True, capture_output=True,
                           text=True).stdout.strip()
        if d:
            return d
    except (OSError, subprocess.CalledProcessError):
        pass
    try:
        ctypes.CDLL(SONAME)
        return ""
    except OSError:
        return None


def stop(why, lines):
    sys.stderr.write("\nslpi: cannot install the Python package: %s\nRun:\n%s\nthen install it again "
                     "(python/README.md#install).\n\n" % (why, "".join("    %s\n" % ln for ln in lines)))
    raise SystemExit(1)


def build_tree():
    """make the source tree's libraries; returns its build/ or stops saying what to run."""
    if not (os.path.exists(os.path.join(TREE, "GNUmakefile")) and os.path.exists(os.path.join(TREE, "slpi.h"))):
        stop("no libslpi %s found ($SLPI_LIBDIR, pkg-config slpi, the loader's %s) and no slpi source "
             "tree around %s to build it from" % (__version__, SONAME, HERE),
             ["make && sudo make install      # in the slpi source tree (as root first: make deps)",
              "or: export SLPI_LIBDIR=/folder/of/libslpi.so"])
    env = dict(os.environ, SLPI_DEPS_CHECK="1")   # mk/deps.sh: never apt-get from pip, say the line
    deps = subprocess.run(["make", "-C", TREE, "--no-print-directory", "deps"], env=env, capture_output=True,
                          text=True)
    if deps.returncode != 0:
        cmd = [ln.strip() for ln in deps.stderr.splitlines() if ln.strip().startswith("apt-get ")]
        stop("libslpi is not built and the system lacks packages it needs (%s)" % deps.stderr.strip().splitlines()[0]
             if deps.stderr.strip() else "make deps failed",
             (["sudo " + c for c in cmd] or ["make -C %s deps" % TREE]) + ["make -C %s" % TREE])
    sys.stderr.write("slpi: building libslpi in %s (make all)\n" % TREE)
    jobs = str(min(os.cpu_count() or 1, 8))
    built = subprocess.run(["make", "-C", TREE, "--no-print-directory", "-j" + jobs, "all"], capture_output=True,
                           text=True)
    if built.returncode != 0 or not has_lib(os.path.join(TREE, "build")):
        tail = (built.stdout + built.stderr).strip().splitlines()[-8:]
        stop("building libslpi failed (make -C %s all, exit %d):\n%s" % (TREE, built.returncode,
                                                                         "\n".join("    " + t for t in tail)),
             ["make -C %s deps      # as root: installs what is missing" % TREE, "make -C %s" % TREE])
    return os.path.join(TREE, "build")


def wheel_missing():
    """This Python cannot build a wheel: its setuptools has no bdist_wheel command (before
    70.1 setuptools takes it from the package `wheel`) and `wheel` is not installed. pip
    --no-build-isolation would then stop at "invalid command 'bdist_wheel'", naming no fix
    (a pyenv python3 on PATH, without wheel, in front of Debian's /usr/bin/python3)."""
    for name in ("setuptools.command.bdist_wheel", "wheel.bdist_wheel"):
        try:
            __import__(name)
            return False
        except ImportError:
            pass
    return True


if {"bdist_wheel", "dist_info"} & set(sys.argv[1:]) and wheel_missing():   # pip's metadata step: dist_info
    stop("%s cannot build a wheel: its setuptools has no bdist_wheel command and the package 'wheel' is "
         "not installed" % sys.executable,
         ["/usr/bin/python3 -m pip install --no-build-isolation ./python   # Debian's python3 (python3-wheel)",
          "or: %s -m pip install wheel   # then install again with this python" % sys.executable])


class BuildWithLibdir(build_py):
    def run(self):
        d = found()
        if d is None:
            d = build_tree()
        super().run()
        if d:
            with open(os.path.join(self.build_lib, "slpi", "_libdir.py"), "w") as f:
                f.write("# written by setup.py: the folder of libslpi this package was installed against\n")
                f.write("LIBDIR = %r\n" % os.path.realpath(d))


setup(cmdclass={"build_py": BuildWithLibdir})
