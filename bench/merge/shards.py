#!/usr/bin/env python3
"""shards.py CUTUNE SPEC N DIR [--devices K] - writes DIR/r.shard-I-of-N.json for I in
0..N-1: the shards of an exhaustive run over SPEC's space as `cutune SPEC --shard I/N
--devices all --results DIR/r.json` on a host of K GPUs (default 8) would write them,
without a GPU. The configurations are the spec's own (`cutune list SPEC --format
jsonl`: ordinals, params, geometry, defines), dealt out as cutune deals them: runs of
the last param's value count, run r to shard r % N (docs/scale-out.md). The outcomes are
made up, but every entry has the fields and sizes a real H100 entry has
(docs/results/data/speed-2026-11-23): about 1 in 11 failed to compile, 1 in 17 cannot
launch, the register cap's variants that do not bind twins of the run's first (as
tune's twins are), the rest ok with five-number times. Deterministic: the same
arguments write the same bytes. bench/merge.sh times `cutune merge` over them."""
import argparse
import json
import os
import subprocess
import sys


def configurations(cutune, spec):
    """The spec's valid configurations in listing order, as `cutune list` gives them."""
    out = subprocess.run([cutune, "list", spec, "--format", "jsonl", "-q"], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def type_of(v):
    return "int" if isinstance(v, int) else "float" if isinstance(v, float) else "string"


def said(i):
    """A deterministic stand-in for what the GPU said of ordinal i."""
    return (i * 2654435761) % 1000003


def runs(h):
    """Whether the variant said h ran: neither a compile error nor unlaunchable."""
    return h % 11 != 3 and h % 17 != 5


def entry(c, first_of_run, last, gpus):
    """A measured entry for configuration c (a `cutune list` object); first_of_run: the
    ordinal of its run's first configuration; last: the last param's name."""
    i = c["index"]
    h = said(i)
    regs = 24 + h % 96
    cap = c["params"][last] if isinstance(c["params"][last], int) else 0
    e = {"index": i, "params": c["params"], "status": "ok", "reason": None, "kernel": c["kernel"],
         "block": c["block"], "grid": c["grid"], "smem_bytes": c["smem_bytes"], "defines": c["defines"],
         "options": c["options"],
         "resources": {"registers": min(regs, cap) if cap else regs, "static_smem": 4096 * (1 + h % 8),
                       "local_bytes": 0, "spill_stores": 0, "spill_loads": 0},
         "occupancy": {"theoretical": (1 + h % 8) / 8, "limiter": ["registers", "warps", "blocks", "smem"][h % 4],
                       "blocks_per_sm": 1 + h % 16, "driver_blocks_per_sm": 1 + h % 16}}
    twin = i != first_of_run and runs(h) and runs(said(first_of_run)) and regs < cap
    if twin:  # the cap does not bind: the run's first's machine code, so its outcome
        h = said(first_of_run)
    if h % 11 == 3:
        e.update({"status": "compile error", "time_ms": None,
                  "reason": "sgemm.cu(%d): error: too many resources requested for the tile (%d registers)"
                  % (40 + h % 200, regs), "verified": False, "compile_seconds": 0.09 + (h % 97) / 1000,
                  "cached": False, "duplicate": False, "gpu_seconds": 0.0, "timing_seconds": 0.0, "launches": 0,
                  "resumed": False})
        return e
    if h % 17 == 5:
        e.update({"status": "cannot launch", "time_ms": None,
                  "reason": "too many resources requested for launch: %d registers x %d threads" % (regs, 256),
                  "verified": False, "compile_seconds": 0.11 + (h % 89) / 1000, "cached": False, "duplicate": False,
                  "gpu_seconds": 0.0, "timing_seconds": 0.0, "launches": 0, "resumed": False})
        return e
    t = 0.5 + (h % 100003) / 997.0
    e.update({"time_ms": {"median": t, "min": t * 0.998, "max": t * 1.004, "q1": t * 0.999, "q3": t * 1.001},
              "spread": 0.0015 + (h % 13) / 10000, "reps": 10, "batch": 1, "pruned": h % 5 != 0,
              "metrics": {"gflops": 2 * 4096.0 ** 3 / (t * 1e6)}, "objective": 2 * 4096.0 ** 3 / (t * 1e6),
              "verified": True, "max_abs_error": (h % 7) * 1.0e-6, "compile_seconds": 0.1 + (h % 101) / 1000,
              "cached": False, "duplicate": False, "gpu_seconds": 0.02 + (h % 50) / 1000,
              "timing_seconds": 0.01 + (h % 40) / 1000, "launches": 14, "resumed": False, "gpu": h % gpus})
    if twin:
        e.update({"same_code_as": first_of_run, "gpu_seconds": 0.0, "timing_seconds": 0.0, "launches": 0})
        e.pop("gpu")
    return e


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cutune")
    ap.add_argument("spec")
    ap.add_argument("n", type=int)
    ap.add_argument("dir")
    ap.add_argument("--devices", type=int, default=8)
    a = ap.parse_args()
    configs = configurations(a.cutune, a.spec)
    if not configs:
        sys.exit("shards.py: the spec lists no configuration")
    names = list(configs[0]["params"])
    last = names[-1]
    block = len({json.dumps(c["params"][last]) for c in configs})  # the last param's value count
    os.makedirs(a.dir, exist_ok=True)
    header = {"format": "cutune-results", "version": 1, "cutune": "0.1.0", "date": "2026-11-27T12:00:00Z",
              "spec": {"path": a.spec, "kernel": configs[0]["kernel"], "kernel_file": "bench/space/stub.cu",
                       "params": [{"name": p, "type": type_of(configs[0]["params"][p])} for p in names]},
              "device": {"name": "NVIDIA H100 80GB HBM3", "arch": "sm_90", "compute_capability": 90, "sm_count": 132,
                         "l2_bytes": 52428800, "driver_version": 13000},
              "objective": {"name": "gflops", "direction": "maximize"}}
    shards = [[] for _ in range(a.n)]
    for c in configs:
        o = c["index"]
        shards[o // block % a.n].append(entry(c, o - o % block, last, a.devices))
    for i, results in enumerate(shards):
        ok = [e for e in results if e["status"] == "ok"]
        won = [e for e in ok if not e["pruned"]]
        best = max(range(len(results)), key=lambda k: (results[k]["status"] == "ok" and not results[k]["pruned"],
                                                       results[k].get("objective") or 0)) if won else None
        d = dict(header)
        d["settings"] = {"strategy": "exhaustive",
                         "search": {"strategy": "exhaustive", "seed": 0, "budget": None, "time_budget_s": None,
                                    "patience": None, "evaluations": len(results), "screened": 0,
                                    "stopped_by": None},
                         "warmup": 3, "repeat": 10, "max_repeat": 100, "spread": 0.02, "flush_l2": True,
                         "reference": "configuration given by verify ... against config(...)",
                         "devices": list(range(a.devices)), "shard": {"index": i, "count": a.n, "block": block}}
        d["summary"] = {"variants": len(results), "timed": len(ok), "wrong": 0,
                        "failed": sum(e["status"] == "compile error" for e in results),
                        "unlaunchable": sum(e["status"] == "cannot launch" for e in results),
                        "pruned": sum(bool(e.get("pruned")) for e in ok), "best": best,
                        "wall_seconds": 3600.0 + i, "compile_seconds": 0.1 * len(results),
                        "compile_wall_seconds": 600.0, "gpu_seconds": 0.03 * len(results),
                        "timing_seconds": 0.02 * len(results), "threads": 64, "interrupted": False, "resumed": 0,
                        "first_variant_seconds": 1.5}
        d["results"] = results
        with open(os.path.join(a.dir, "r.shard-%d-of-%d.json" % (i, a.n)), "w") as f:
            json.dump(d, f, indent=1)
            f.write("\n")
    print("%d configurations (runs of %d) in %d shards: %s/r.shard-*-of-%d.json" % (len(configs), block, a.n, a.dir,
                                                                                  a.n))


if __name__ == "__main__":
    main()
