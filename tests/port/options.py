"""options.py - the '--name VALUE' options of the scripts of tests/port (diagnosis.py,
shapes.py)."""
import sys


def options(prog, argv, opts):
    """{name: value} of `--name VALUE` pairs over opts (their defaults); None (after a
    message naming prog and the argument) on an unknown or incomplete one"""
    got, args = dict(opts), list(argv)
    while args:
        a = args.pop(0)
        if a.startswith("--") and a[2:] in got and args:
            got[a[2:]] = args.pop(0)
        else:
            print("%s: unknown argument %r (usage: see the docstring)" % (prog, a), file=sys.stderr)
            return None
    return got
