"""Shared by the examples: where a figure goes, and matplotlib when it is installed."""
import os
import sys


def figure_path(name):
    """argv[1], else build/python-examples/NAME under the current folder."""
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("build", "python-examples", name)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    return out


def pyplot(script):
    """matplotlib.pyplot (Agg), or None with a message: the example then checks its
    numbers without drawing them (apt-get install python3-matplotlib to draw)."""
    try:
        import matplotlib
    except ImportError:
        print("%s: figure skipped: matplotlib is not installed (apt-get install python3-matplotlib)" % script)
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, name):
    """Write fig to figure_path(NAME.png) and say where."""
    out = figure_path(name + ".png")
    fig.savefig(out, dpi=120)
    print("%s: wrote %s" % (name, out))


# the print figures (print-figures.py, ou-studies.py): a 6.5-inch column at 150 dpi
WIDTH, DPI = 6.5, 150


def print_folder():
    """argv[1] (its folder when it names a .png), else build/python-examples: made if absent"""
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("build", "python-examples")
    if out.endswith(".png"):
        out = os.path.dirname(out) or "."
    os.makedirs(out, exist_ok=True)
    return out


def print_write(fig, path):
    """A figure at print resolution, cropped to what it draws."""
    fig.savefig(path, dpi=DPI, bbox_inches="tight", pad_inches=0.03)
