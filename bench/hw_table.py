#!/usr/bin/env python3
"""hw_table.py - the hardware counters of a results file (cutune --metrics) as a table.

    bench/hw_table.py RESULTS.json [--where NAME=VALUE ...] [--sort PARAM,...] [--bytes N]

One row per variant that has counters (after --where filters on params), sorted by the
params named in --sort (default: median time), with: the params, the median time, the
model's theoretical occupancy, and each counter of the default set by its nvprof name,
plus the derived columns the seeds' nvprof tables had:
  warp_exec_eff %  = threads per warp instruction / 32 x 100 (nvprof's
                     warp_execution_efficiency);
  sectors/req      = global load sectors / global load requests (32-byte sectors per
                     warp-wide load instruction);
  gld_eff %        = the ideal sectors per request for --bytes-wide loads (32 x bytes /
                     32, at least 1) / sectors per request x 100 (nvprof's gld_efficiency
                     for kernels whose loads are all --bytes wide; default 4).
A twin (same_code_as) shows the counters of the variant it shares its code with, and is
marked '='. Markdown on stdout."""
import argparse
import json
import sys

OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
SM = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
GLD = "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second"
REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
SEC = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
WARP = "smsp__thread_inst_executed_per_inst_executed.ratio"
DUR = "gpu__time_duration.sum"


def value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('results')
    ap.add_argument('--where', action='append', default=[], help='NAME=VALUE: only variants with this param value')
    ap.add_argument('--sort', help='PARAM,...: row order (default: the median time)')
    ap.add_argument('--bytes', type=int, default=4, help='the width of each thread\'s global loads, for gld_eff')
    a = ap.parse_args(argv)
    d = json.load(open(a.results))
    names = d["settings"].get("profile", {}).get("metrics", [])
    if not names:
        sys.exit("%s has no hardware counters (tuned without --metrics)" % a.results)
    where = [w.split("=", 1) for w in a.where]
    rows = []
    for r in d["results"]:
        if any(r["params"].get(k) != value(v) for k, v in where):
            continue
        hw = r.get("hw", {}).get("metrics")
        if not hw:
            continue
        rows.append(r)
    params = [p["name"] for p in d["spec"]["params"]]
    if a.sort:
        keys = a.sort.split(",")
        rows.sort(key=lambda r: [r["params"][k] for k in keys])
    else:
        rows.sort(key=lambda r: r["time_ms"]["median"])
    ideal = max(1.0, 32 * a.bytes / 32.0)
    cols = params + ["median ms", "theoretical occ %", "achieved_occupancy %", "sm_throughput %",
                     "dram_utilization %", "gld_throughput GB/s", "sectors/req", "gld_eff %", "warp_exec_eff %",
                     "gpu_time us"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" if i < len(params) else "---:" for i in range(len(cols))) + "|")

    def get(hw, n, scale=1.0, fmt="%.1f"):
        v = hw.get(n)
        return "-" if v is None else fmt % (v * scale)

    for r in rows:
        hw = r["hw"]["metrics"]
        req, sec = hw.get(REQ), hw.get(SEC)
        spr = sec / req if req else None
        twin = "=" if r.get("same_code_as") is not None else ""
        cells = [str(r["params"][p]) for p in params] + [
            "%.4f%s" % (r["time_ms"]["median"], twin),
            "%.1f" % (r["occupancy"]["theoretical"] * 100),
            get(hw, OCC), get(hw, SM), get(hw, DRAM), get(hw, GLD, 1e-9),
            "-" if spr is None else "%.2f" % spr,
            "-" if not spr else "%.1f" % (ideal / spr * 100),
            get(hw, WARP, 100 / 32.0), get(hw, DUR, 1e-3, "%.2f")]
        print("| " + " | ".join(cells) + " |")
    print("\n%d variants; counters: %s; method: %s" % (len(rows), d["settings"]["profile"].get("metrics"),
                                                   d["settings"]["profile"].get("method")))


if __name__ == "__main__":
    main(sys.argv[1:])
