#!/usr/bin/env python3
"""synth_results.py - a SYNTHETIC "exhaustive run" of bench/search/gemm_synth.tune.

Writes a cutune-results v1 file whose outcomes come from a made-up performance model of
a tiled SGEMM (tile sizes, work per thread, registers, occupancy, vector widths, shared
memory, plus deterministic per-group and per-configuration perturbations, a few compile
errors, launch failures and wrong results). It exists to develop and benchmark the
search strategies without a GPU (cutune simulate, bench/strategies.sh). Nothing in it is
measured: the device is named "SYNTHETIC" and every figure is invented.

usage: synth_results.py CUTUNE SPEC OUT.json [--seed N]
"""
import hashlib
import json
import math
import subprocess
import sys


def h(*parts, seed=0):
    """A deterministic number in [0, 1) for the parts."""
    d = hashlib.blake2b(repr((seed,) + parts).encode(), digest_size=8).digest()
    return int.from_bytes(d, "little") / 2.0**64


def model(p, seed):
    """(status, gflops, registers, spills, occupancy, smem) for one configuration."""
    mwg, nwg, kwg = p["MWG"], p["NWG"], p["KWG"]
    mdimc, ndimc, mdima, ndimb = p["MDIMC"], p["NDIMC"], p["MDIMA"], p["NDIMB"]
    vwm, vwn, sa, sb = p["VWM"], p["VWN"], p["SA"], p["SB"]
    threads = mdimc * ndimc
    wpt = (mwg // mdimc) * (nwg // ndimc)            # outputs per thread
    regs = int(min(255, 22 + 1.15 * wpt + 2 * (vwm + vwn) + 6 * (sa + sb)))
    spills = max(0, int((22 + 1.15 * wpt + 2 * (vwm + vwn)) - 255)) * 8
    smem = 4 * kwg * (mwg * sa + nwg * sb)
    # occupancy on an H100-like SM: 64K registers, 2048 threads, 228 KB shared memory
    regs_alloc = ((regs * 32 + 255) // 256) * 256 * ((threads + 31) // 32)
    by_regs = 65536 // regs_alloc if regs_alloc else 32
    by_threads = 2048 // threads
    by_smem = (228 * 1024) // (smem + 1024) if smem else 32
    blocks = max(0, min(32, by_regs, by_threads, by_smem))
    occ = blocks * threads / 2048.0
    if blocks == 0:
        return "cannot launch", None, regs, spills, 0.0, smem
    if h("compile", tuple(sorted(p.items())), seed=seed) < 0.01:
        return "compile error", None, regs, spills, occ, smem
    # throughput model
    intensity = (mwg * nwg) / (mwg + nwg)            # reuse per loaded element
    f_reuse = 1 - math.exp(-intensity / 18.0)
    f_ilp = math.exp(-((math.log2(wpt) - 5.0) ** 2) / 6.0)   # sweet spot near 32 outputs per thread
    f_occ = min(1.0, 0.35 + 1.3 * occ) if occ < 0.5 else 1.0 - 0.1 * (occ - 0.5)
    f_vec = (1 - 0.07 * abs(math.log2(vwm) - 2)) * (1 - 0.07 * abs(math.log2(vwn) - 2))
    f_load = 1 - 0.05 * abs(math.log2(mdima / mdimc)) - 0.05 * abs(math.log2(ndimb / ndimc))
    f_smem = (1 + 0.12 * sa * (mwg >= 64) - 0.06 * sa * (mwg <= 16)) * \
             (1 + 0.12 * sb * (nwg >= 64) - 0.06 * sb * (nwg <= 16))
    f_k = 1.04 if kwg == 32 else 1.0
    f_spill = 0.35 if spills else 1.0
    # ruggedness: per-group effects the smooth terms do not explain
    f_grp = (0.85 + 0.3 * h("tile", mwg, nwg, vwm, vwn, seed=seed)) * \
            (0.9 + 0.2 * h("threads", mdimc, ndimc, mdima, ndimb, seed=seed)) * \
            (0.95 + 0.1 * h("smem", sa, sb, kwg, mwg, seed=seed))
    f_noise = 0.97 + 0.06 * h("noise", tuple(sorted(p.items())), seed=seed)
    gflops = 52000.0 * f_reuse * f_ilp * f_occ * f_vec * f_load * f_smem * f_k * f_spill * f_grp * f_noise
    if h("wrong", tuple(sorted(p.items())), seed=seed) < 0.005:
        return "wrong", gflops, regs, spills, occ, smem
    return "ok", gflops, regs, spills, occ, smem


def main():
    args = sys.argv[1:]
    seed = 0
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    cutune, spec, out = args
    listing = json.loads(subprocess.run([cutune, "list", spec, "--format", "json"], check=True,
                                        capture_output=True, text=True).stdout)
    check = json.loads(subprocess.run([cutune, "check", spec, "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)
    n = 4096
    results, best = [], None
    for v in listing:
        p = v["params"]
        status, gflops, regs, spills, occ, smem = model(p, seed)
        r = {"index": v["index"], "params": p, "status": status,
             "reason": None if status == "ok" else "SYNTHETIC " + status,
             "kernel": v.get("kernel", "stub"), "block": v["block"], "grid": v["grid"],
             "smem_bytes": v.get("smem_bytes", 0), "defines": v.get("defines", []),
             "options": v.get("options", []),
             "resources": {"registers": regs, "static_smem": smem, "local_bytes": spills,
                           "spill_stores": spills // 2, "spill_loads": spills - spills // 2},
             "occupancy": {"theoretical": occ, "limiter": None, "blocks_per_sm": int(occ * 2048) // max(1, v["block"][0] * v["block"][1]),
                           "driver_blocks_per_sm": None},
             "time_ms": None, "verified": False, "max_abs_error": None,
             "compile_seconds": 0.4 + 0.4 * h("ct", v["index"], seed=seed), "cached": False, "duplicate": False,
             "gpu_seconds": 0.0, "timing_seconds": 0.0, "resumed": False}
        if status in ("ok", "wrong") and gflops:
            ms = 2.0 * n ** 3 / (gflops * 1e9) * 1e3
            r["gpu_seconds"] = 0.05 + 12 * ms / 1e3
            r["timing_seconds"] = 10 * ms / 1e3
        if status == "ok":
            r["time_ms"] = {"median": ms, "min": ms * 0.99, "max": ms * 1.02, "q1": ms * 0.995, "q3": ms * 1.005}
            r.update({"spread": 0.01, "reps": 10, "batch": 1, "pruned": False,
                      "metrics": {"gflops": gflops}, "objective": gflops, "verified": True, "max_abs_error": 0.0})
            if best is None or gflops > results[best]["objective"]:
                best = len(results)
        results.append(r)
    doc = {"format": "cutune-results", "version": 1, "cutune": "synthetic", "date": "1970-01-01T00:00:00Z",
           "synthetic": "made-up performance model (bench/search/synth_results.py, seed %d): NOT A MEASUREMENT" % seed,
           "spec": {"path": spec, "kernel": check.get("kernel", "stub"), "kernel_file": check.get("kernel_file", ""),
                    "params": [{"name": q["name"], "type": q.get("type", "int")} for q in check["params"]]},
           "device": {"name": "SYNTHETIC (no GPU)", "arch": "sm_90", "compute_capability": 90, "sm_count": 0,
                      "l2_bytes": 0, "driver_version": 0},
           "settings": {"strategy": "exhaustive"},
           "objective": {"name": "gflops", "direction": "maximize"},
           "summary": {"variants": len(results), "best": best},
           "results": results}
    with open(out, "w") as f:
        json.dump(doc, f)
    ok = sum(1 for r in results if r["status"] == "ok")
    print("%s: %d configurations (SYNTHETIC), %d ok, best %.0f gflops at #%d" %
          (out, len(results), ok, results[best]["objective"], results[best]["index"]), file=sys.stderr)


if __name__ == "__main__":
    main()
