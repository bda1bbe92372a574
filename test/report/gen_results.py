#!/usr/bin/env python3
"""gen_results.py OUT N [--reason BYTES] [--sizes K] - writes a large, valid cutune-results
file (docs/results-format.md) for the scale tests (test/cli/scale.sh): N entries whose
params a and b take N distinct values each (a = i, b = a permutation of i: the worst
case for anything that groups entries by value), c of 4 values, a string param of N
distinct values; every 7th entry failed with a reason, the rest ok, timed, with an
objective and a metric. --reason BYTES pads each failure's reason (to make the file large
without more entries); --sizes K writes a run over K problem sizes (version 2), N
entries each. The file is written as a stream: the generator's memory stays small."""
import argparse
import json


def header(n_params_types):
    return {
        "format": "cutune-results", "version": 1, "cutune": "0.1.0", "date": "2026-12-01T10:00:00Z",
        "spec": {"path": "scale.tune", "kernel": "k", "kernel_file": "k.cu",
                 "params": [{"name": p, "type": t} for p, t in n_params_types]},
        "device": {"name": "NVIDIA H100 80GB HBM3", "arch": "sm_90", "compute_capability": 90, "sm_count": 132,
                   "l2_bytes": 52428800, "driver_version": 13000},
        "settings": {"strategy": "random", "warmup": 3, "repeat": 10, "max_repeat": 50, "spread": 0.02,
                     "flush_l2": True, "reference": "configuration (a 0)"},
        "objective": {"name": "time_ms", "direction": "minimize"},
    }


def entry(i, n, pad):
    b = (i * 7919) % n if n % 7919 else (n - 1 - i)
    p = {"a": i, "b": b, "c": i % 4, "mode": "m%d" % i}
    e = {"index": i, "params": p, "kernel": "k", "block": [128, 1, 1], "grid": [64, 1, 1], "smem_bytes": 0,
         "defines": ["-DA=%d" % i], "options": [],
         "resources": {"registers": 16 + i % 64, "static_smem": 0, "local_bytes": 0, "spill_stores": 0,
                       "spill_loads": 0},
         "occupancy": {"theoretical": (i % 8 + 1) / 8, "limiter": "warps", "blocks_per_sm": 8,
                       "driver_blocks_per_sm": 8},
         "verified": True, "max_abs_error": 0.0, "compile_seconds": 0.1, "cached": False, "duplicate": False,
         "gpu_seconds": 0.01, "timing_seconds": 0.005, "resumed": False}
    if i % 7 == 3:
        e.update({"status": "compile error", "reason": "error %d: %s" % (i % 13, "x" * pad), "time_ms": None})
    else:
        t = 1.0 + ((i * 2654435761) % 100003) / 1000.0
        e.update({"status": "ok", "reason": None,
                  "time_ms": {"median": t, "min": t, "max": t, "q1": t, "q3": t}, "spread": 0.0, "reps": 10,
                  "batch": 1, "pruned": False, "metrics": {"GBps": 100.0 / t}, "objective": t})
    return e


def best_of(n):
    best, bi = None, None
    for i in range(n):
        if i % 7 == 3:
            continue
        t = 1.0 + ((i * 2654435761) % 100003) / 1000.0
        if best is None or t < best:
            best, bi = t, i
    return bi


def summary(n):
    return {"variants": n, "timed": n - (n + 3) // 7, "wrong": 0, "failed": (n + 3) // 7, "unlaunchable": 0,
            "pruned": 0, "best": best_of(n), "wall_seconds": 1.0, "compile_seconds": 0.5,
            "compile_wall_seconds": 0.5, "gpu_seconds": 0.1, "timing_seconds": 0.1, "threads": 2}


def write_entries(f, n, pad, indent):
    f.write("[")
    for i in range(n):
        f.write(("," if i else "") + "\n" + indent + json.dumps(entry(i, n, pad)))
    f.write("\n" + indent[:-1] + "]")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--reason", type=int, default=0)
    ap.add_argument("--sizes", type=int, default=0)
    args = ap.parse_args()
    params = [("a", "int"), ("b", "int"), ("c", "int"), ("mode", "string")]
    d = header(params)
    with open(args.out, "w", encoding="utf-8") as f:
        if args.sizes:
            d["version"] = 2
            d["spec"]["size"] = ["n"]
            body = json.dumps(d)
            f.write(body[:-1] + ', "sizes": [')
            for k in range(args.sizes):
                f.write(("," if k else "") + '\n {"size": {"n": %d}, "settings": %s, "summary": %s, "results": '
                        % (1024 << k, json.dumps(d["settings"]), json.dumps(summary(args.n))))
                write_entries(f, args.n, args.reason, "   ")
                f.write("}")
            f.write("]}\n")
        else:
            d["summary"] = summary(args.n)
            body = json.dumps(d)
            f.write(body[:-1] + ', "results": ')
            write_entries(f, args.n, args.reason, "  ")
            f.write("}\n")


if __name__ == "__main__":
    main()
