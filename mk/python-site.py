"""python-site.py PREFIX — the folder where `make install PREFIX=...` puts the Python
package: the one this interpreter searches for that prefix (docs/install.md#python).
  - PREFIX is the user base (~/.local): the user site, ~/.local/lib/pythonX.Y/site-packages;
  - a folder of sys.path lies in PREFIX/lib (Debian: /usr/local/lib/pythonX.Y/dist-packages,
    /usr/lib/python3/dist-packages; a venv's own prefix): that folder;
  - otherwise, the prefix scheme's purelib (PREFIX/lib/pythonX.Y/site-packages), with a
    note on standard error that PYTHONPATH must name it."""
import os
import site
import sys
import sysconfig


def site_dir(prefix):
    prefix = os.path.realpath(prefix)
    if os.path.realpath(site.getuserbase()) == prefix:
        return site.getusersitepackages(), True
    for p in sys.path:
        rp = os.path.realpath(p) if p else ""
        rel = os.path.relpath(rp, prefix) if rp else ".."
        if rel.startswith("lib" + os.sep) and os.path.basename(rp) in ("site-packages", "dist-packages"):
            return p, True
    path = sysconfig.get_path("purelib", "posix_prefix", vars={"base": prefix, "platbase": prefix})
    return path, False


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python-site.py PREFIX")
    d, searched = site_dir(sys.argv[1])
    if not searched:
        print("install: %s is not on %s's path: set PYTHONPATH=%s to import slpi" % (d, sys.executable, d),
              file=sys.stderr)
    print(d)
