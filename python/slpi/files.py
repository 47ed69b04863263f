"""Readers of slpi's own files: trajectories (``slpi-trajectory 1``) and convergence
tables (``slpi-converge 1``), as a header dict and a numpy structured array."""
import os
import re

import numpy as np

_KEY = re.compile(r"[A-Za-z0-9_.]+")

__all__ = ["read_trajectory", "read_converge", "Trajectory"]


class Trajectory(tuple):
    """What ``read_trajectory`` returns: the pair ``(header, rows)`` (so ``head, rows =
    slpi.read_trajectory(f)`` unpacks it), with the state beside it.

    Attributes
    ----------
    header : dict
    rows : numpy structured array
    state_columns : list of str or None
        The columns that hold the state, in its layout (the header's
        ``state_columns=``; None for a file without that line, such as an older one).
    state : ndarray (rows, dim) or None
        Those columns of ``rows`` in the order ``state_columns=`` names them: a view
        when they are adjacent in that order, as slpi writes them (no copy: writing it
        writes ``rows``), else a copy; the midpoints for a certified file. None only for
        a file without ``state_columns=``.
    state_rad : ndarray (rows, dim) or None
        The radii of a certified file (a view or a copy likewise); zeros for a fast file.
    """

    def __new__(cls, header, rows, where=""):
        self = super().__new__(cls, (header, rows))
        names = header.get("state_columns")
        self.state_columns = names.split(",") if names else None
        self.state = self.state_rad = None
        if self.state_columns:
            absent = [n for n in self.state_columns if n not in (rows.dtype.names or ())]
            if absent:
                from slpi import SlpiError
                raise SlpiError(2, "%sstate_columns=%s names %s, which the column line lacks"
                                % (where, names, ", ".join(repr(n) for n in absent)), "state_columns", names)
            self.state, self.state_rad = _state_view(rows, self.state_columns)
        return self

    header = property(lambda self: self[0])
    rows = property(lambda self: self[1])


def _state_view(rows, names):
    """The state columns' midpoints and radii in rows, each (rows, dim): views where the
    fields are adjacent float64 in the order of names (each followed by its radius in a
    certified file), else copies."""
    fields = rows.dtype.fields
    ball = names[0] + "_rad" in fields
    step = 16 if ball else 8
    off = fields[names[0]][1]
    if any(fields[n][1] != off + i * step or fields[n][0] != np.float64 for i, n in enumerate(names)):
        mid = np.column_stack([rows[n] for n in names]) if len(rows) else np.zeros((0, len(names)))
        rad = (np.column_stack([rows[n + "_rad"] for n in names]) if ball and len(rows)
               else np.zeros(mid.shape))
        return mid, rad
    view = np.ndarray((len(rows), len(names)), np.float64, rows, off, (rows.itemsize, step))
    rad = (np.ndarray((len(rows), len(names)), np.float64, rows, off + 8, (rows.itemsize, step)) if ball
           else np.zeros((len(rows), len(names))))
    return view, rad


def _error(path, line, why):
    from slpi import SlpiError
    return SlpiError(2, "%s:%d: %s" % (path, line, why), "path", path)


def _number(tok, path, line):
    """A %.17g or %a (hex) double, as slpi writes them."""
    try:
        return float.fromhex(tok) if "0x" in tok.lower() else float(tok)
    except ValueError:
        raise _error(path, line, "not a number: %r" % tok) from None


def _header(path, lines, magic):
    if not lines or lines[0].strip() != "# " + magic:
        raise _error(path, 1, "not an %s file (first line %r)" % (magic, lines[0].strip() if lines else ""))
    head, notes, i = {"format": magic}, [], 1
    while i < len(lines) and lines[i].startswith("#"):
        text = lines[i][1:].strip()
        key, eq, value = text.partition("=")
        if lines[i].startswith("##") or not eq:   # comments (the C reader's rule: core/trajectory.c)
            if text.lstrip("#").strip():
                notes.append(text.lstrip("#").strip())
        elif _KEY.fullmatch(key):
            head[key] = value
        elif magic != "slpi-trajectory 1":   # a convergence table's notes ("# phi = sum_i ...")
            notes.append(text)
        else:
            raise _error(path, i + 1, "a '#' line with '=' is a key=value line, and %r is not a key (letters, "
                                      "digits, '_', '.'): write a comment as '## ...'" % key[:40])
        i += 1
    if notes:
        head["notes"] = notes
    return head, i


def _table(path, magic):
    """Read a file of slpi's: (path, header, lines, index of the column line)."""
    from slpi import SlpiError
    if not isinstance(path, (str, os.PathLike)) or "\0" in os.fspath(path):
        raise SlpiError(2, "path=%r: must be a file name (str or path, without NUL)" % (path,), "path", path)
    path = os.fspath(path)
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise SlpiError(2, "path=%s: cannot read: %s" % (path, e.strerror), "path", path) from None
    head, i = _header(path, lines, magic)
    if i >= len(lines):
        raise _error(path, i + 1, "no column line")
    return path, head, lines, i


def _rows(path, lines, i, ncols, sep=None, is_row=None, others=None):
    """The rows after the column line lines[i], one at a time: (line number, cells) of
    each non-blank line split at sep (None: at blanks), each with ncols cells, else an
    error naming file:line when the row is reached. With is_row: '#' lines are skipped,
    and the lines whose cells it refuses go to the list others, stripped."""
    for n, ln in enumerate(lines[i + 1:], start=i + 2):
        if not ln.strip() or (is_row and ln.startswith("#")):
            continue
        cells = ln.split(sep)
        if is_row and not is_row(cells):
            others.append(ln.strip())
            continue
        if len(cells) != ncols:
            raise _error(path, n, "%d cells, the column line has %d" % (len(cells), ncols))
        yield n, cells


def read_trajectory(path):
    """Read a trajectory file of ``slpi run`` (fast or certified) or of a port.

    Parameters
    ----------
    path : str or path

    Returns
    -------
    Trajectory
        The pair (header, rows), with ``.state`` beside it:
    header : dict
        The ``# key=value`` lines (problem keys, provenance, ``state_columns``), and
        ``format``.
    rows : numpy structured array
        Fields ``step`` (int64), ``t`` and every column by its name; for certified
        files (cells ``mid +/- rad``) also ``<name>_rad``.
    .state : ndarray (rows, dim)
        A view of the state columns (those ``state_columns=`` names), ``.state_rad``
        their radii; None for a file without ``state_columns=``.

    Raises
    ------
    SlpiError
        Not a trajectory file, or a malformed row (file:line).

    Examples
    --------
    >>> import slpi, tempfile
    >>> f = tempfile.NamedTemporaryFile(suffix=".tsv", delete=False).name
    >>> slpi.write_trajectory(f, slpi.run(steps=2))
    >>> head, rows = slpi.read_trajectory(f)
    >>> head["system"], rows.dtype.names[:3], rows["step"].tolist()
    ('rigid-body', ('step', 't', 'x1'), [0, 1, 2])
    >>> tr = slpi.read_trajectory(f)
    >>> tr.state_columns, tr.state.shape, bool((tr.state[:, 0] == tr.rows["x1"]).all())
    (['x1', 'x2', 'x3'], (3, 3), True)
    """
    path, head, lines, i = _table(path, "slpi-trajectory 1")
    names = lines[i].split("\t")
    if names[:2] != ["step", "t"]:
        raise _error(path, i + 1, "the column line must start with step and t")
    # balls (mid +/- rad) when the first row's cells are: one more field per column
    first = next((ln.split("\t") for ln in lines[i + 1:] if ln.strip()), [])
    ball = any("+/-" in c for c in first)
    fields = [("step", np.int64), ("t", np.float64)]
    for c in names[2:]:
        fields.append((c, np.float64))
        if ball:
            fields.append((c + "_rad", np.float64))
    rows = []
    for line, cells in _rows(path, lines, i, len(names), "\t"):
        try:
            row = [int(cells[0])]
        except ValueError:
            raise _error(path, line, "step %r: not an integer" % cells[0]) from None
        row.append(_number(cells[1], path, line))
        for cell in cells[2:]:
            mid, _, rad = cell.partition("+/-")
            row.append(_number(mid.strip(), path, line))
            if ball:
                row.append(_number(rad.strip(), path, line) if rad else 0.0)
        rows.append(tuple(row))
    return Trajectory(head, np.array(rows, dtype=fields), "%s: " % path)


def read_converge(path):
    """Read the table of ``slpi converge -o FILE``.

    Parameters
    ----------
    path : str or path

    Returns
    -------
    header : dict
        The ``# key=value`` lines (``problem.*`` keys, provenance), ``format``, and
        ``notes``: the comment lines (the study, levels, totals); ``fits``: the lines
        after the table (fitted slopes with their CI, reference gaps).
    rows : numpy structured array
        One row per level, a float64 field per column (``level``, ``h``, ``self``,
        ``self_se``, ...: each ``SE`` column named after the error it follows); "-"
        cells are NaN.

    Raises
    ------
    SlpiError
        Not a convergence table, or a malformed row (file:line).

    Examples
    --------
    >>> import subprocess, tempfile, os
    >>> f = tempfile.NamedTemporaryFile(suffix=".tsv", delete=False).name
    >>> slpi_bin = os.environ.get("SLPI_BIN", "build/slpi")
    >>> _ = subprocess.run([slpi_bin, "converge", "--preset", "iso/rigid-body/strong", "--levels", "2..3",
    ...                     "--ref", "5", "--paths", "4", "--boot", "10", "-o", f], capture_output=True, check=True)
    >>> head, rows = slpi.read_converge(f)
    >>> rows["level"].tolist(), rows.dtype.names[:4], head["problem.system"]
    ([2.0, 3.0], ('level', 'h', 'self', 'self_se'), 'rigid-body')
    >>> head["fits"][0].split()[:2]
    ['slope', 'self']
    """
    path, head, lines, i = _table(path, "slpi-converge 1")
    names = []
    for c in lines[i].split():   # "SE" follows each error column: name it after it
        names.append(names[-1] + "_se" if c == "SE" and names else c)
    # the fitted slopes and gaps after the table are the lines not starting with a level
    fits = []
    rows = [tuple(np.nan if c == "-" else _number(c, path, n) for c in cells)
            for n, cells in _rows(path, lines, i, len(names), None, lambda cells: cells[0].isdigit(), fits)]
    if fits:
        head["fits"] = fits
    return head, np.array(rows, dtype=[(c, np.float64) for c in names])
