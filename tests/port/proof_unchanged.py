#!/usr/bin/env python3
"""proof_unchanged.py - are the worst-case verdicts of `slpi verify` unchanged between two
builds? (docs/power.md#proof-unchanged)

For every golden case (`NEW golden --list`): its problem (`NEW golden --problem NAME`),
the double path's trajectory of it (`NEW run --config`), then `slpi verify --precision P
--json J -q --threads 1` of that one file by OLD and by NEW at binary64 and binary32
(global and local). Compared: the proof's part of the JSON, the top level of OLD's (a
build before the statistics has no other) against NEW's `proof` object: every key but
those that say which build ran (`slpi_version`, `input`), `sample_seed` (drawn from the
clock for `--sample`, which is not given), the budget's `bits` (added with
the formats) and, at a precision other than binary64, `max_ulps` (counted in binary64's
ulps before the formats, in the declared format's after: changed on purpose). Numbers are
compared exactly, as the JSON prints them (17 digits).

usage: proof_unchanged.py OLD_SLPI NEW_SLPI OUTDIR [FILE.tsv ...]
FILE.tsv: further trajectories verified and compared the same way (files that FAIL).
Prints one line per (case, precision) and a last line `identical K of N ...; the same
exit on E` (the verdict with the statistics, which may add a FAIL); exit 0 when all
are identical, 1 when any differs, 2 on a bad argument or a build that cannot run."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = ["--dir", os.path.join(ROOT, "oracle", "golden")]
PRECISIONS = ("binary64", "binary32")
SKIP = ("slpi_version", "input", "sample_seed")


def flat(j, prefix=""):
    """{dotted key: value} of a JSON object, lists by index"""
    out = {}
    items = j.items() if isinstance(j, dict) else enumerate(j)
    for k, v in items:
        key = "%s%s" % (prefix, k)
        if isinstance(v, (dict, list)):
            out.update(flat(v, key + "."))
        else:
            out[key] = v
    return out


def proof_part(j, new, precision):
    """the proof's keys of a verify JSON (NEW's `proof` object, OLD's top level)"""
    p = dict(j["proof"] if new else j)
    for k in SKIP:
        p.pop(k, None)
    if precision != "binary64":
        p.pop("max_ulps", None)
        if isinstance(p.get("local"), dict):
            p["local"] = {k: v for k, v in p["local"].items() if k != "max_ulps"}
    f = flat(p)
    f.pop("budget.bits", None)
    return f


def verify(slpi, traj, precision, js):
    r = subprocess.run([slpi, "verify", "--precision", precision, "--json", js, "-q", "--threads", "1", traj],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        j = json.load(open(js))
    except (OSError, ValueError):
        j = None
    return r.returncode, j, r.stderr.strip()


def compare(old, new, traj, precision, out, name):
    co, jo, eo = verify(old, traj, precision, os.path.join(out, "%s.%s.old.json" % (name, precision)))
    cn, jn, en = verify(new, traj, precision, os.path.join(out, "%s.%s.new.json" % (name, precision)))
    if jo is None or jn is None or "proof" not in jn:
        return False, False, "no JSON (exit %d: %s; %d: %s)" % (co, eo[-200:], cn, en[-200:])
    a, b = proof_part(jo, False, precision), proof_part(jn, True, precision)
    diff = sorted(k for k in set(a) | set(b) if a.get(k, "absent") != b.get(k, "absent"))
    same = not diff and co == {"PASS": 0, "FAIL": 1, "UNABLE": 3}.get(jn["proof"]["verdict"])
    what = "old exit %d, new exit %d (proof %s, statistics %s)" % (co, cn, jn["proof"]["verdict"],
                                                                  jn["statistics"].get("verdict"))
    if diff:
        what += "; differ: " + ", ".join("%s %r -> %r" % (k, a.get(k, "absent"), b.get(k, "absent")) for k in diff[:6])
    return same, co == cn, what


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    old, new, out, extra = os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3], argv[4:]
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([new, "golden"] + GOLDEN + ["--list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        print("proof_unchanged.py: %s golden --list: exit %d" % (new, r.returncode), file=sys.stderr)
        return 2
    cases = [w for w in r.stdout.split() if "/" in w or "." in w]
    todo = []
    for case in cases:
        name = case.replace("/", ".")
        cfg, traj = os.path.join(out, name + ".cfg"), os.path.join(out, name + ".tsv")
        with open(cfg, "w") as f:
            if subprocess.run([new, "golden"] + GOLDEN + ["--problem", case], stdout=f).returncode:
                print("proof_unchanged.py: golden --problem %s failed" % case, file=sys.stderr)
                return 2
        if subprocess.run([new, "run", "--config", cfg, "-q", "-o", traj]).returncode:
            print("proof_unchanged.py: run --config %s failed" % cfg, file=sys.stderr)
            return 2
        todo.append((name, traj))
    todo += [(os.path.basename(t), os.path.abspath(t)) for t in extra]
    n = same = verdicts = 0
    for name, traj in todo:
        for precision in PRECISIONS:
            ok, exit_same, what = compare(old, new, traj, precision, out, name)
            n += 1
            same += ok
            verdicts += exit_same
            print("%s %s %s: %s" % ("same" if ok else "DIFFERS", name, precision, what), flush=True)
    print("identical %d of %d (%d golden cases and %d further files x %d precisions); the same exit on %d"
          % (same, n, len(cases), len(extra), len(PRECISIONS), verdicts))
    return 0 if same == n else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
