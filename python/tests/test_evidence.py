"""Every verdict rests on evidence, and a trajectory's state is read as its header says
(oracle/README.md#rows): ``slpi.verify`` of a file that omits rows of its header's grid
is UNABLE and names them; a ``state_columns=`` line that differs from the state's names
is refused; ``read_trajectory`` returns the state in the order ``state_columns=`` names
it (a view where the columns are adjacent in that order, else a copy) and refuses a
line naming a column the file lacks, never ``state=None`` silently."""
import pytest

import slpi

RB = "iso/rigid-body/trajectories"


@pytest.fixture
def traj(tmp_path):
    f = tmp_path / "rb.tsv"
    slpi.write_trajectory(str(f), slpi.run(RB, steps=12))
    return f


def columns(cols):
    """A header rewrite that sets state_columns=cols."""
    return lambda ln: "# state_columns=" + cols if ln.startswith("# state_columns=") else ln


def refused(call, *words):
    """call() raises SlpiError code 2 whose message holds every word."""
    with pytest.raises(slpi.SlpiError) as e:
        call()
    assert e.value.code == 2 and all(w in str(e.value) for w in words), str(e.value)


def rewrite(src, dst, keep=lambda step: True, header=lambda line: line):
    out = []
    for line in src.read_text().splitlines():
        if line.startswith("#") or line.startswith("step"):
            out.append(header(line))
        elif keep(int(line.split("\t")[0])):
            out.append(line)
    dst.write_text("\n".join(out) + "\n")
    return dst


def test_whole_file_passes(traj):
    v = slpi.verify(str(traj))
    assert v.verdict == "PASS" and v.report["rows_missing"] == 0


@pytest.mark.parametrize("gone", [[0], [5], [3, 6, 9], list(range(11))])
def test_missing_rows_are_unable_and_named(traj, tmp_path, gone):
    f = rewrite(traj, tmp_path / "gaps.tsv", keep=lambda n: n not in gone)
    v = slpi.verify(str(f))
    assert v.verdict == "UNABLE"
    assert v.report["rows_missing"] == len(gone)
    assert v.report["missing_steps"] == gone[:8]


def test_state_columns_other_order_refused(traj, tmp_path):
    f = rewrite(traj, tmp_path / "sc.tsv", header=columns("x3,x2,x1"))
    refused(lambda: slpi.verify(str(f)), "state_columns=", "'x1'")


def test_read_trajectory_follows_state_columns(traj, tmp_path):
    whole = slpi.read_trajectory(str(traj))
    assert whole.state.base is not None          # slpi's own layout: a view
    f = rewrite(traj, tmp_path / "perm.tsv", header=columns("x3,x1,x2"))
    perm = slpi.read_trajectory(str(f))
    assert perm.state is not None and perm.state.shape == whole.state.shape
    assert (perm.state == whole.state[:, [2, 0, 1]]).all()
    assert (perm.state_rad == 0).all()


def test_read_trajectory_refuses_an_absent_column(traj, tmp_path):
    f = rewrite(traj, tmp_path / "absent.tsv", header=columns("x1,y2,x3"))
    refused(lambda: slpi.read_trajectory(str(f)), "'y2'", "absent.tsv")


def test_one_row_without_predecessor_is_no_evidence(traj, tmp_path):
    f = rewrite(traj, tmp_path / "last.tsv", keep=lambda n: n == 12)
    refused(lambda: slpi.verify(str(f)), "no row to check")
