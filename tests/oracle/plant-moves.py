"""plant-moves.py SRC DST E U — a trajectory file with a defect planted on every step, for
the sizes checks (tests/oracle/t-verify-sizes.sh, python/tests/test_torch.py;
docs/power.md#sizes-results): each row's move from the previous row (the port's own)
scaled by 1 + c, c = E U s / |D|, s the max norm of row 0 and D its first move, so E U |x|
a step. The state's columns are the header's `# state_columns=`, else the ReX_/ImX_
columns (slpi.torch's files); values keep the file's form (hex floats or decimals).
Prints two numbers: the data term of the statistics' tau alone, 2 |D| / s, averaged over
the steps; and the defect the file delivers, in the same units as E: each step's written
move less the port's, along the port's move, over U s, averaged over the steps. A plant
below the file's resolution is mostly rounded away (E u |x| is about E/sqrt(dim) ulps a
coordinate: at su(64) in binary64, E = 1 delivers about 0.1, docs/power.md#copies-results),
so a check states the delivered size beside the one asked."""
import math
import sys

src, dst, eff, u = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
lines = open(src).read().split("\n")
head = [ln for ln in lines if ln.startswith("#")]
body = [ln for ln in lines if ln and not ln.startswith("#")]
cols = body[0].split("\t")
named = [ln for ln in head if ln.startswith("# state_columns=")]
idx = ([cols.index(n) for n in named[0].split("=", 1)[1].split(",")] if named
       else [i for i, n in enumerate(cols) if n.startswith(("ReX_", "ImX_"))])
rows = [r.split("\t") for r in body[1:]]
hexa = rows[0][idx[0]].lstrip("-").startswith("0x")


def value(text):
    return float.fromhex(text) if hexa else float(text)


X = [[value(r[i]) for i in idx] for r in rows]
s = max(abs(v) for v in X[0])
c = eff * u * s / math.sqrt(sum((a - b) ** 2 for a, b in zip(X[1], X[0])))
Y = X[0]
for n in range(1, len(rows)):
    Y = [y + (1 + c) * (a - b) for y, a, b in zip(Y, X[n], X[n - 1])]
    for j, i in enumerate(idx):
        rows[n][i] = Y[j].hex() if hexa else "%.17g" % Y[j]


def along(n):
    """the written move less the port's at step n, along the port's move, in units of U s"""
    d = [a - b for a, b in zip(X[n], X[n - 1])]
    w = [math.fsum((value(rows[n][i]), -value(rows[n - 1][i]), -a, b)) for i, a, b in zip(idx, X[n], X[n - 1])]
    norm = math.sqrt(sum(x * x for x in d))
    return math.fsum(x * y for x, y in zip(w, d)) / norm / (u * s) if norm else 0.0


open(dst, "w").write("\n".join(head + [body[0]] + ["\t".join(r) for r in rows]) + "\n")
print(sum(2 * math.sqrt(sum((a - b) ** 2 for a, b in zip(X[n], X[n - 1]))) / max(abs(v) for v in X[n])
          for n in range(1, len(X))) / (len(X) - 1), sum(along(n) for n in range(1, len(X))) / (len(X) - 1))
