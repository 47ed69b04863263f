"""model-spellings.py — a polynomial user model against the built-in, however its H is
written (`make bench`; docs/models.md#speed, docs/experiments.md): the rigid body's
ISOMP-COMM ensemble, `slpi ensemble --paths 100000 --threads 1 h=0.01 steps=100`, of

  - the built-in `system=rigid-body scheme=isomp`, from the model file's x0 = (1, 0.5, 0.2);
  - models/rigid-body.slpi, the same system as a model;
  - that model with a quartic term q x1^4 (param.q = 0.01) added to H, spelled five ways:
    `q*x1^4`, `q*x1*x1*x1*x1`, `q*x1^2*x1^2`, `q*(x1*x1)*(x1*x1)` and `x1*x1*q*x1*x1`.

The engines run in turn, five rounds; each figure is the median of the child's CPU time
(user + system), and each ratio is the median over rounds of that round's model ÷
built-in (the two timed a few seconds apart), with the rounds' range. The goal (a user model
as fast however written): every spelling of the quartic at <= 1.3 x the built-in; its bound is 1 (the
built-in's closed form does less: no quartic term). The iterations per path-step are
printed beside each: the quartic changes the dynamics slightly, so they differ a little.
SLPI_BENCH_PATHS sets another size.

Usage: python3 bench/model-spellings.py   (SLPI_BIN=build/slpi)"""
import os
import resource
import statistics
import subprocess
import sys

import goal  # bench/goal.py: the goal lines bench/goals.py reads

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "models", "rigid-body.slpi")
H0 = "(x1^2/I1 + x2^2/I2 + x3^2/I3)/2"
GOAL, ROUNDS, STEPS = 1.3, 5, 100
ENGINES = [
    ("built-in rigid body", ["system=rigid-body", "scheme=isomp", "x0=1,0.5,0.2"]),
    ("models/rigid-body.slpi", ["--config", MODEL]),
    ("quartic q*x1^4", ["--config", MODEL, "param.q=0.01", "H=%s + q*x1^4" % H0]),
    ("quartic q*x1*x1*x1*x1", ["--config", MODEL, "param.q=0.01", "H=%s + q*x1*x1*x1*x1" % H0]),
    ("quartic q*x1^2*x1^2", ["--config", MODEL, "param.q=0.01", "H=%s + q*x1^2*x1^2" % H0]),
    ("quartic q*(x1*x1)*(x1*x1)", ["--config", MODEL, "param.q=0.01", "H=%s + q*(x1*x1)*(x1*x1)" % H0]),
    ("quartic x1*x1*q*x1*x1", ["--config", MODEL, "param.q=0.01", "H=%s + x1*x1*q*x1*x1" % H0]),
]


def run(paths, args):
    binp = os.environ.get("SLPI_BIN", os.path.join(ROOT, "build", "slpi"))
    cmd = [binp, "ensemble", "--paths", str(paths), "--threads", "1", "h=0.01", "steps=%d" % STEPS] + args
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    its, route = float("nan"), "?"
    for line in out.splitlines():
        f = line.split("\t")
        if line.startswith("# route: "):
            route = line[9:].split()[0]
        if len(f) > 5 and f[0] == str(STEPS) and f[2] == "mean_iters":
            its = float(f[4])
    return c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime, its, route


def main():
    paths = int(os.environ.get("SLPI_BENCH_PATHS", 10 ** 5))
    load0 = os.getloadavg()
    cpu = {name: [] for name, _ in ENGINES}
    info = {}
    for _ in range(ROUNDS):
        for name, args in ENGINES:
            c, its, route = run(paths, args)
            cpu[name].append(c)
            info[name] = (its, route)
    load1 = os.getloadavg()
    print("model-spellings: rigid body ISOMP-COMM, %d paths x %d steps, h = 0.01, 1 thread; CPU time, medians of %d "
          "rounds; load (1, 5 min) %.2f %.2f -> %.2f %.2f; %d cores" % (paths, STEPS, ROUNDS, load0[0], load0[1],
                                                                       load1[0], load1[1], os.cpu_count()))
    base = cpu[ENGINES[0][0]]
    worst = 0.0
    for name, _ in ENGINES:
        its, route = info[name]
        med = statistics.median(cpu[name])
        line = "  %-26s %7.3f s CPU  %6.1f ns/path-step  %.4f it/path-step  [%s]" % (
            name, med, 1e9 * med / (paths * STEPS), its, route)
        if name != ENGINES[0][0]:
            r = [c / b for c, b in zip(cpu[name], base)]
            line += "  ÷ built-in %.2f (rounds %.2f-%.2f)" % (statistics.median(r), min(r), max(r))
            if name.startswith("quartic"):
                worst = max(worst, statistics.median(r))
        print(line)
    print(goal.line("model-spellings", worst, True, GOAL, 1, "the worst quartic spelling ÷ the built-in, CPU, "
                    "medians of %d rounds" % ROUNDS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
