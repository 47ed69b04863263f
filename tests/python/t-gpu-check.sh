#!/bin/sh
# t-gpu-check.sh — python/examples/gpu-check.py cannot lose a run (docs/gpu.md#check):
# on the CPU device with --budget 60 it prints its plan first, completes within the
# budget, prices its profile with the profiler's cost for the events it measured, and
# writes a summary.json with every part (ok or skipped for the budget: what
# fits depends on the machine's load, so only the calibration and the noise KAT must
# run); with a part made to fail (SLPI_GPU_CHECK_FAIL=runs.float32) it records that
# part's error, runs every later part, rewrites summary.json to the end and exits 1.
# Skipped (77) where PyTorch is not installed.
cd "$(dirname "$0")/../.." || exit 2
build=${SLPI_BUILD:-build}
py=/usr/bin/python3
"$py" -c 'import torch' 2>/dev/null ||
  { echo "t-gpu-check: SKIP: PyTorch is not installed (as root: apt-get install python3-torch)"; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export SLPI_LIB=$(cd "$build" && pwd)/libslpi.so PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH}
fail=0
"$py" python/examples/gpu-check.py "$tmp/full" --device cpu --budget 60 > "$tmp/full.log" 2>&1
rc=$?
cat "$tmp/full.log"
[ $rc = 0 ] || { echo "t-gpu-check: FAIL: --device cpu --budget 60 exited $rc"; fail=1; }
SLPI_GPU_CHECK_FAIL=runs.float32 "$py" python/examples/gpu-check.py "$tmp/planted" --device cpu --budget 60 \
  --quick > "$tmp/planted.log" 2>&1
rc=$?
cat "$tmp/planted.log"
[ $rc = 1 ] || { echo "t-gpu-check: FAIL: with runs.float32 made to fail, exit $rc (want 1)"; fail=1; }
"$py" - "$tmp" <<'PY' || fail=1
import json, sys
tmp = sys.argv[1]
formats = ("float64", "float32", "tf32", "bfloat16")
bad = []
for run, failing in (("full", None), ("planted", "runs.float32")):
    log = open("%s/%s.log" % (tmp, run)).read()
    s = json.load(open("%s/%s/summary.json" % (tmp, run)))
    parts = s["parts"]
    want = ["calibrate", "rigid_calibrate", "noise_kat"] + ["runs." + f for f in formats]
    want += ["timing.N=%d.%s" % (n, f) for n in s["plan"]["timing_sizes"] for f in formats] + ["rigid_body"]
    want += [k for k in parts if k in ["profile.N=%d.float64" % n for n in (16, 32, 64, 128, 256)]][-1:] or ["profile"]
    if list(parts) != want:
        bad.append("%s: parts %s, want %s" % (run, list(parts), want))
    if log.find("plan (") < 0 or log.find("plan (") > log.find("noise_kat"):
        bad.append("%s: the plan is not printed before the parts" % run)
    if s["elapsed_seconds"] > s["budget_seconds"]:
        bad.append("%s: %.1f s, over the budget of %g s" % (run, s["elapsed_seconds"], s["budget_seconds"]))
    cal = parts["calibrate"].get("result", {})
    for name, rec in parts.items():
        if name.startswith("profile.N=") and cal.get("profiler_seconds_per_event", 0) > 0:
            n = int(name.split("=")[1].split(".")[0])   # priced with the profiler's events, not the run alone
            events = cal["profiler_seconds_per_event"] * cal["profiler_events_su16"] * (n / 16.0) ** 2
            if rec.get("estimated_seconds", 0) < events * (1 - 1e-9):
                bad.append("%s: part %s estimated %.3g s, under the profiler's %.3g s for its events" %
                           (run, name, rec.get("estimated_seconds", 0), events))
        want_status = "error" if name == failing else "ok"
        if rec["status"] != want_status and not (rec["status"] == "skipped" and name != failing):
            bad.append("%s: part %s: %s (want %s)" % (run, name, rec, want_status))
    if failing and "SLPI_GPU_CHECK_FAIL" not in parts.get(failing, {}).get("error", ""):
        bad.append("%s: the planted failure is not recorded: %s" % (run, parts.get(failing)))
    if parts["calibrate"]["status"] != "ok" or parts["noise_kat"].get("result", {}).get("verdict") != "PASS":
        bad.append("%s: the calibration or the noise KAT did not pass: %s" % (run, parts["noise_kat"]))
for b in bad:
    print("t-gpu-check: FAIL: " + b)
sys.exit(1 if bad else 0)
PY
[ $fail = 0 ] && echo "t-gpu-check: ok"
exit $fail
