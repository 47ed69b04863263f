"""setup.py — only what pyproject.toml cannot say: the folder of libslpi the installed
package opens (slpi/_libdir.py in the built package). In order: $SLPI_LIBDIR (`make
install` passes $(PREFIX)/lib), the source tree's build/ beside this folder, pkg-config's
libdir of slpi; none: the package relies on $SLPI_LIB or the loader's path."""
import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def libdir():
    if os.environ.get("SLPI_LIBDIR"):
        return os.environ["SLPI_LIBDIR"]
    tree = os.path.join(HERE, "..", "build")
    if os.path.exists(os.path.join(tree, "libslpi.so")):
        return os.path.realpath(tree)
    try:
        return subprocess.run(["pkg-config", "--variable=libdir", "slpi"], check=True, capture_output=True,
                              text=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


class BuildWithLibdir(build_py):
    def run(self):
        super().run()
        d = libdir()
        if d:
            with open(os.path.join(self.build_lib, "slpi", "_libdir.py"), "w") as f:
                f.write("# written by setup.py: the folder of libslpi this package was installed against\n")
                f.write("LIBDIR = %r\n" % d)


setup(cmdclass={"build_py": BuildWithLibdir})
