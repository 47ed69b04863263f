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
