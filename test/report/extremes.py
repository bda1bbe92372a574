#!/usr/bin/env python3
"""extremes.py CUTUNE OUTDIR - objectives at the ends of the doubles (±1e308, the largest
double) give a report whose charts hold no NaN or infinity, keep every point, and mark
the ones off the scale: hollow red points (class "off") at the plot's edge whose tooltip
gives the value. Each case is one results file (docs/results-format.md); expectations
follow from how the file is made:

  mixed     20 ordinary objectives (1.0 .. 2.9) and four extreme ones (1e308, -1e308,
            1.7976931348623157e308, -1.7976931348623157e308), a random search (the best
            so far is charted), energy measured with one extreme energy: the four are off
            the scale, every ordinary one on it
  ends      only -1e308 and 1e308 (their span is past the largest double)
  flat      19 equal objectives and one 1e308 (the interquartile range is 0)
  huge      every objective between 1e307 and 1.7e308
Also the first two side by side (the comparison's box plots).
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BIG = 1.7976931348623157e308


def run_file(objectives, direction="minimize", strategy="random", energy=None):
    d = {
        "format": "cutune-results", "version": 1, "cutune": "0.1.0", "date": "2026-12-01T10:00:00Z",
        "spec": {"path": "x.tune", "kernel": "k", "kernel_file": "k.cu",
                 "params": [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}]},
        "device": {"name": "GPU", "arch": "sm_90", "compute_capability": 90, "sm_count": 132,
                   "l2_bytes": 52428800, "driver_version": 13000},
        "settings": {"strategy": strategy, "warmup": 3, "repeat": 10, "max_repeat": 50, "spread": 0.02,
                     "flush_l2": True},
        "objective": {"name": "GBps", "direction": direction},
        "summary": {"variants": len(objectives), "best": None, "wall_seconds": 1.0},
        "results": [],
    }
    best = None
    for i, y in enumerate(objectives):
        e = {"index": i, "params": {"a": i % 5, "b": i // 5}, "status": "ok", "reason": None, "kernel": "k",
             "block": [128, 1, 1], "grid": [64, 1, 1], "smem_bytes": 0, "defines": [], "options": [],
             "resources": {"registers": 16 + i, "static_smem": 0, "local_bytes": 0, "spill_stores": 0,
                           "spill_loads": 0},
             "occupancy": {"theoretical": 0.5, "limiter": "warps", "blocks_per_sm": 8, "driver_blocks_per_sm": 8},
             "time_ms": {"median": 1.0, "min": 1.0, "max": 1.0, "q1": 1.0, "q3": 1.0}, "spread": 0.0, "reps": 10,
             "batch": 1, "pruned": False, "metrics": {"GBps": y}, "objective": y, "verified": True,
             "max_abs_error": 0.0, "compile_seconds": 0.1, "cached": False, "duplicate": False, "gpu_seconds": 0.01,
             "timing_seconds": 0.005}
        if energy is not None:
            e["energy"] = {"J_per_launch": energy[i], "W": 100.0 + i, "window_s": 0.1, "launches": 10}
        d["results"].append(e)
        if best is None or (y < objectives[best] if direction == "minimize" else y > objectives[best]):
            best = i
    d["summary"]["best"] = best
    return d


problems = []


def check(name, page, nok, noff, values):
    text = open(page, encoding="utf-8").read()
    svgs = re.findall(r"<svg.*?</svg>", text, re.S)
    for svg in svgs:
        tags = re.findall(r"<[^>]*>", svg)
        for tag in tags:
            if re.search(r"(nan|inf)", tag, re.I):
                problems.append("%s: a chart's markup holds NaN or infinity: %s" % (name, tag[:120]))
                break
    scatter = [s for s in svgs if "objective against theoretical occupancy" in s]
    if nok and len(scatter) != 1:
        problems.append("%s: no occupancy scatter" % name)
    elif nok:
        circles = re.findall(r"<circle class=\"(\w+)\"", scatter[0])
        if len(circles) != nok:
            problems.append("%s: the scatter has %d points, not %d (none may vanish)" % (name, len(circles), nok))
        if circles.count("off") != noff:
            problems.append("%s: %d points off the scale, not %d" % (name, circles.count("off"), noff))
        for v in values:
            if not re.search(r"<circle class=\"off\"[^>]*><title>[^<]*%s" % re.escape(v), scatter[0]):
                problems.append("%s: no off-scale point says %s" % (name, v))
    if noff and "off the scale</b>" not in text:
        problems.append("%s: the distribution does not say that values lie off the scale" % name)
    r = subprocess.run([sys.executable, os.path.join(HERE, "check_html.py"), page], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("%s: check_html: %s" % (name, r.stdout.strip()))


def main():
    cutune, out = sys.argv[1], sys.argv[2]
    ordinary = [1.0 + 0.1 * i for i in range(20)]
    energy = [0.001 * (i + 1) for i in range(24)]
    energy[7] = 1e300  # mJ: 1e303, off the energy's scale
    cases = {
        "mixed": (run_file(ordinary[:10] + [1e308, -1e308, BIG, -BIG] + ordinary[10:], energy=energy), 24, 4,
                  ["1.000e+308", "-1.000e+308", "1.798e+308", "-1.798e+308"]),
        "ends": (run_file([-1e308, 1e308], direction="maximize"), 2, 0, []),
        "flat": (run_file([2.0] * 19 + [1e308]), 20, 1, ["1.000e+308"]),
        "huge": (run_file([1e307 * (i + 1) for i in range(17)]), 17, 0, []),
    }
    for name, (d, nok, noff, values) in cases.items():
        path = os.path.join(out, name + ".json")
        with open(path, "w") as f:
            json.dump(d, f, indent=1)
        page = os.path.join(out, name + ".html")
        r = subprocess.run([cutune, "report", "-q", path, "-o", page], capture_output=True, text=True)
        if r.returncode != 0:
            problems.append("%s: exit %d: %s" % (name, r.returncode, r.stderr.strip()))
            continue
        check(name, page, nok, noff, values)
    page = os.path.join(out, "both.html")
    r = subprocess.run([cutune, "report", "-q", os.path.join(out, "mixed.json"), os.path.join(out, "ends.json"),
                        "-o", page], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("both: exit %d: %s" % (r.returncode, r.stderr.strip()))
    else:
        check("both", page, 0, 0, [])
    for p in problems:
        print("FAIL: extremes: " + p)
    print("extremes: %d cases, %d problems" % (len(cases) + 1, len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
