"""plant-moves.py SRC DST E U — a trajectory file with a defect planted on every step, for
the sizes checks (tests/oracle/t-verify-sizes.sh, python/tests/test_torch.py;
docs/power.md#sizes-results): each row's move from the previous row (the port's own)
scaled by 1 + c, c = E U s / |D|, s the max norm of row 0 and D its first move, so E U |x|
a step. The state's columns are the header's `# state_columns=`, else the ReX_/ImX_
columns (slpi.torch's files); values keep the file's form (hex floats or decimals).
Prints the data term of the statistics' tau alone, 2 |D| / s, averaged over the steps."""
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
X = [[float.fromhex(r[i]) if hexa else float(r[i]) for i in idx] for r in rows]
s = max(abs(v) for v in X[0])
c = eff * u * s / math.sqrt(sum((a - b) ** 2 for a, b in zip(X[1], X[0])))
Y = X[0]
for n in range(1, len(rows)):
    Y = [y + (1 + c) * (a - b) for y, a, b in zip(Y, X[n], X[n - 1])]
    for j, i in enumerate(idx):
        rows[n][i] = Y[j].hex() if hexa else "%.17g" % Y[j]
open(dst, "w").write("\n".join(head + [body[0]] + ["\t".join(r) for r in rows]) + "\n")
print(sum(2 * math.sqrt(sum((a - b) ** 2 for a, b in zip(X[n], X[n - 1]))) / max(abs(v) for v in X[n])
          for n in range(1, len(X))) / (len(X) - 1))
