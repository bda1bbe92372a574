#!/usr/bin/env python3
"""hostile.py OUTDIR - writes results files that a report must survive (test/cli/report.sh,
test/report/browser.sh), each a valid cutune-results file (docs/results-format.md):

  hostile.json   strings made to break HTML (</script>, <, &, quotes, a control character)
                 in every free text a report shows (names are C identifiers: the loader
                 refuses any other, docs/results-format.md); params of every type (int, float, bool,
                 string); every status; an `ok` entry whose objective is null (NaN) and
                 one not timed
  zero.json      no variants at all
  single.json    one param, one variant
  nowinner.json  every variant failed
"""
import json
import os
import sys

EVIL = '</script><script>alert("x")</script><b>&amp;\'"<!--'


def header(params, objective="time_ms", direction="minimize", strategy="exhaustive", best=None, n=0):
    return {
        "format": "cutune-results", "version": 1, "cutune": "0.1.0", "date": "2026-11-23T10:00:00Z" + EVIL,
        "spec": {"path": "spec" + EVIL + ".tune", "kernel": "k", "kernel_file": "k.cu",
                 "params": [{"name": p, "type": t} for p, t in params]},
        "device": {"name": "GPU " + EVIL, "arch": "sm_90", "compute_capability": 90, "sm_count": 132,
                   "l2_bytes": 52428800, "driver_version": 13000},
        "settings": {"strategy": strategy, "warmup": 3, "repeat": 10, "max_repeat": 50, "spread": 0.02,
                     "flush_l2": True, "reference": "configuration " + EVIL},
        "objective": {"name": objective, "direction": direction},
        "summary": {"variants": n, "timed": 0, "wrong": 0, "failed": 0, "unlaunchable": 0, "pruned": 0,
                    "best": best, "wall_seconds": 1.0, "compile_seconds": 0.5, "compile_wall_seconds": 0.5,
                    "gpu_seconds": 0.1, "timing_seconds": 0.1, "threads": 2},
        "results": [],
    }


def entry(index, params, status, reason=None, time=None, objective=None, regs=32, occ=0.5):
    e = {"index": index, "params": params, "status": status, "reason": reason, "kernel": "k",
         "block": [128, 1, 1], "grid": [64, 1, 1], "smem_bytes": 0, "defines": [], "options": [],
         "resources": {"registers": regs, "static_smem": 0, "local_bytes": 0, "spill_stores": 0, "spill_loads": 0},
         "occupancy": {"theoretical": occ, "limiter": "warps" + EVIL, "blocks_per_sm": 8, "driver_blocks_per_sm": 8},
         "time_ms": None, "verified": status == "ok", "max_abs_error": None, "compile_seconds": 0.1,
         "cached": False, "duplicate": False, "gpu_seconds": 0.01, "timing_seconds": 0.0, "resumed": False}
    if time is not None:
        e["time_ms"] = {"median": time, "min": time, "max": time, "q1": time, "q3": time}
        e.update({"spread": 0.0, "reps": 10, "batch": 1, "pruned": False, "metrics": {"GBps": 1.0 / time},
                  "objective": objective})
    return e


def hostile():
    params = [("n", "int"), ("f", "float"), ("flag", "bool"), ("mode", "string")]
    d = header(params, objective="time_ms", best=0)
    statuses = ["wrong", "compile error", "cannot launch", "load error", "launch error", "timeout", "crashed",
                "not run"]
    i = 0
    for n in (1, 2, 3):
        for f in (0.5, 1.5):
            for flag in (False, True):
                for mode in ("a" + EVIL, "plain", "z&z"):
                    p = {"n": n, "f": f, "flag": flag, "mode": mode}
                    if i < len(statuses) * 2 and i % 2 == 1:
                        s = statuses[(i // 2) % len(statuses)]
                        reason = s + " because " + EVIL + "\u0001 line\n  second line"
                        d["results"].append(entry(i, p, s, reason=reason))
                    elif i == 2:  # ok, timed, but its objective is null: NaN
                        d["results"].append(entry(i, p, "ok", time=2.0, objective=None))
                    elif i == 4:  # ok but never timed
                        d["results"].append(entry(i, p, "ok"))
                    else:
                        t = 1.0 + 0.1 * n + (0.3 if flag else 0) + 0.05 * i
                        d["results"].append(entry(i, p, "ok", time=t, objective=t, regs=16 * n, occ=0.25 * n))
                    i += 1
    d["summary"]["variants"] = len(d["results"])
    return d


def zero():
    return header([("a", "int"), ("b", "int")], n=0)


def single():
    d = header([("only", "int")], best=0, n=1)
    d["results"].append(entry(0, {"only": 7}, "ok", time=1.0, objective=1.0))
    return d


def nowinner():
    d = header([("a", "int"), ("b", "string")], n=2)
    d["results"].append(entry(0, {"a": 1, "b": "x"}, "compile error", reason="error: <bad> & \"worse\""))
    d["results"].append(entry(1, {"a": 2, "b": "y"}, "timeout", reason="no answer in 10 s"))
    return d


def main():
    out = sys.argv[1]
    for name, make in (("hostile", hostile), ("zero", zero), ("single", single), ("nowinner", nowinner)):
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(make(), f, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
