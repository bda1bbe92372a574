#!/usr/bin/env python3
"""landscapes.py - the search benchmark: every strategy replayed over recorded landscapes.

A landscape is an exhaustive recording of a kernel's space on a GPU (bench/landscapes/:
the Kernel Tuner benchmark hub's convolution and dedispersion on three GPUs each, and
cutune's own H100 SGEMM, examples/sgemm.tune over docs/results/data/sgemm-h100-full.json).
Each strategy runs with `cutune simulate` at each budget over SEEDS seeds (0, 1, ...), and
the figure is the issue's: per budget, the mean over landscapes of the median over seeds
of best found / true best (1 = the optimum). Printed:

  1. by evaluations (--budget B), beside Kernel Tuner's best strategy per budget
     (bench/landscapes/kt_baseline.json, over the same landscapes) and the goals;
  2. by simulated time: each landscape's time budget is B evaluations' worth of its
     pipelined cost (B x max(mean compile seconds / threads, mean GPU seconds)), so a
     strategy that keeps the GPU fed and picks cheap configurations evaluates more;
  3. the pipeline: the median over seeds of each run's wall / bound (its simulated wall
     over max(compile seconds / threads, GPU seconds)), mean over landscapes;
  4. per landscape, each strategy's medians by evaluations.

--set heldout replays the held-out set instead: the replayable H100 recordings of
bench/landscapes/h100 (its MANIFEST; files .json or .json.gz, such as the hub kernels'
recordings that bench/record-hub.sh makes; the multi-size histogram and stencil are not
replayable), recorded after auto's constants were chosen and never tuned on; --set all
both. A change to a strategy must hold on the held-out set, not only on the seven.

usage: bench/search/landscapes.py [--cutune build/cutune] [--strategies auto,random]
           [--budgets 25,50,100,200,400] [--seeds 20] [--jobs 2] [--set dev|heldout|all]
           [--only conv,sgemm]
           [--threads 16] [--no-time] [--json OUT.json]
"""
import argparse
import concurrent.futures
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LAND = os.path.join(ROOT, "bench", "landscapes")
GOALS = {25: 0.85, 50: 0.92, 100: 0.97, 200: 0.995, 400: 0.999}


def dev_landscapes():
    """(name, spec, results file, gzipped, extra simulate args) of every development landscape present."""
    out = []
    for kernel, spec in (("convolution", "conv_milo.tune"), ("dedispersion", "dedisp_milo.tune")):
        for gpu in ("A4000", "A6000", "W6600"):
            path = os.path.join(LAND, "%s_%s.json.gz" % (kernel, gpu))
            if os.path.exists(path):
                out.append(("%s_%s" % (kernel, gpu), os.path.join(LAND, spec), path, True, []))
    sgemm = os.path.join(ROOT, "docs", "results", "data", "sgemm-h100-full.json")
    if os.path.exists(sgemm):
        out.append(("sgemm_H100", os.path.join(ROOT, "examples", "sgemm.tune"), sgemm, False, []))
    return out


def heldout_landscapes():
    """The held-out set: the replayable recordings of bench/landscapes/h100 (its MANIFEST: FILE, SPEC,
    SET columns; FILE a .json or a gzipped .json.gz; a SET of NAME=VALUE becomes --set NAME=VALUE,
    "-" none; multi-size files are skipped, they are no landscape for simulate), each named
    h100_<file> without its extension."""
    out = []
    folder = os.path.join(LAND, "h100")
    manifest = os.path.join(folder, "MANIFEST")
    if not os.path.exists(manifest):
        return out
    for line in open(manifest):
        f = line.split()
        if not f or line.startswith("#") or len(f) < 3 or not f[0].endswith((".json", ".json.gz")):
            continue
        name, spec, size = f[0], f[1], f[2]
        if "multi-size" in line:
            continue
        extra = []
        if "=" in size:
            extra = ["--set", size]
        elif size != "-":
            continue
        path = os.path.join(folder, name)
        if os.path.exists(path) and os.path.exists(os.path.join(ROOT, spec)):
            gz = name.endswith(".gz")
            out.append(("h100_" + name[:-len(".json.gz" if gz else ".json")], os.path.join(ROOT, spec), path, gz,
                        extra))
    return out


def landscapes(which="dev"):
    """The landscapes of a set: dev, heldout or all."""
    if which == "dev":
        return dev_landscapes()
    if which == "heldout":
        return heldout_landscapes()
    return dev_landscapes() + heldout_landscapes()


def simulate(cutune, spec, results, strategy, seeds, threads, budget=None, time_s=None, extra=()):
    cmd = [cutune, "simulate", spec, "--results", results, "--strategy", strategy, "--repeat", str(seeds),
           "--seed", "0", "--threads", str(threads), "--format", "json", "-q"] + list(extra)
    if budget:
        cmd += ["--budget", str(budget)]
    if time_s:
        cmd += ["--time-budget", "%.9g" % time_s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), p.stderr.strip()))
    return json.loads(p.stdout)


def cost_per_evaluation(results, threads):
    """The pipelined cost of one evaluation of the landscape: max(mean compile / threads, mean GPU)."""
    with (gzip.open(results, "rt") if results.endswith(".gz") else open(results)) as f:
        doc = json.load(f)
    rows = doc.get("results", [])
    comp = statistics.mean(float(r.get("compile_seconds") or 0) for r in rows)
    gpu = statistics.mean(float(r.get("gpu_seconds") or 0) for r in rows)
    return max(comp / threads, gpu)


def kt_best(names, budgets):
    """Kernel Tuner's best strategy per budget: the mean over `names` of each strategy's
    medians, the best strategy's (as its README's table), or None without data."""
    path = os.path.join(LAND, "kt_baseline.json")
    if not os.path.exists(path):
        return {}
    kt = json.load(open(path))["landscapes"]
    have = [n for n in names if n in kt]
    if not have:
        return {}
    strategies = set.intersection(*(set(kt[n]) for n in have))
    out = {}
    for b in budgets:
        means = [statistics.mean(kt[n][s][str(b)] for n in have) for s in strategies
                 if all(str(b) in kt[n][s] for n in have)]
        if means:
            out[b] = max(means)
    return out


def table(title, rows, budgets, fmt="%.3f"):
    print("\n" + title + "\n")
    print("| | " + " | ".join(str(b) for b in budgets) + " |")
    print("|---" * (len(budgets) + 1) + "|")
    for name, vals in rows:
        print("| %s | " % name + " | ".join(fmt % vals[b] if vals.get(b) is not None else "-" for b in budgets) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cutune", default=os.path.join(ROOT, "build", "cutune"))
    ap.add_argument("--strategies", default="auto")
    ap.add_argument("--budgets", default="25,50,100,200,400")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=16, help="compile threads of the simulated host")
    ap.add_argument("--set", default="dev", choices=("dev", "heldout", "all"),
                    help="dev: the 7 development landscapes; heldout: the H100 recordings of bench/landscapes/h100 "
                         "(never tuned on); all: both")
    ap.add_argument("--only", default="", help="landscapes whose name contains one of these words")
    ap.add_argument("--no-time", action="store_true", help="skip the runs by simulated time")
    ap.add_argument("--json", help="write every median here")
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    strategies = a.strategies.split(",")
    lands = [l for l in landscapes(a.set) if not a.only or any(w in l[0] for w in a.only.split(","))]
    if not lands:
        sys.exit("landscapes.py: no landscape matches --only %s" % a.only)
    if not os.access(a.cutune, os.X_OK):
        sys.exit("landscapes.py: no cutune at %s (build it, or --cutune PATH)" % a.cutune)
    tmp = tempfile.mkdtemp(prefix="landscapes.")
    try:
        files = {}
        for name, spec, results, gz, extra in lands:  # cutune reads plain JSON
            if gz:
                plain = os.path.join(tmp, name + ".json")
                with gzip.open(results, "rb") as src, open(plain, "wb") as dst:
                    shutil.copyfileobj(src, dst)
                results = plain
            files[name] = (spec, results, extra)
        unit = {l[0]: cost_per_evaluation(files[l[0]][1], a.threads) for l in lands}
        jobs = []
        for name in (l[0] for l in lands):
            for s in strategies:
                for b in budgets:
                    jobs.append((name, s, b, "evals"))
                    if not a.no_time:
                        jobs.append((name, s, b, "time"))
        got = {}

        def one(job):
            name, s, b, kind = job
            spec, results, extra = files[name]
            if kind == "evals":
                return job, simulate(a.cutune, spec, results, s, a.seeds, a.threads, budget=b, extra=extra)
            return job, simulate(a.cutune, spec, results, s, a.seeds, a.threads, time_s=b * unit[name], extra=extra)

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            for job, d in pool.map(one, jobs):
                runs = d["runs"]
                got[job] = {
                    "median": d["ratio"]["median"],
                    "mean": statistics.mean(r["ratio"] for r in runs),
                    "ratios": [r["ratio"] for r in runs],
                    "evaluations": statistics.median(r["evaluations"] for r in runs),
                    "seconds": statistics.median(r["simulated_seconds"] for r in runs),
                    "wall_over_bound": statistics.median(r["simulated_seconds"] / r["bound_seconds"]
                                                         for r in runs if r["bound_seconds"] > 0),
                }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    names = [l[0] for l in lands]

    def mean_of(s, kind, key):
        return {b: statistics.mean(got[(n, s, b, kind)][key] for n in names) for b in budgets}

    def mean_of_sets(s, kind, key):
        """mean_of, over the dev landscapes and the held-out ones apart (--set all)."""
        out = []
        for label, part in (("dev", [n for n in names if not n.startswith("h100_")]),
                            ("held-out", [n for n in names if n.startswith("h100_")])):
            if part and len(part) < len(names):
                out.append(("cutune %s, %s" % (s, label),
                            {b: statistics.mean(got[(n, s, b, kind)][key] for n in part) for b in budgets}))
        return out

    print("Search benchmark: %d landscapes (%s), %d seeds, %d compile threads; mean over landscapes of the median "
          "over seeds of best found / true best" % (len(names), ", ".join(names), a.seeds, a.threads))
    kt = kt_best(names, budgets) if a.set == "dev" else {}
    rows = [("cutune " + s, mean_of(s, "evals", "median")) for s in strategies]
    for s in strategies:
        rows += mean_of_sets(s, "evals", "median")
    if kt:
        rows.append(("Kernel Tuner, best strategy per budget", kt))
    rows.append(("goal", {b: GOALS.get(b) for b in budgets}))
    table("By evaluations (budget):", rows, budgets)
    table("By evaluations, the mean over seeds (a check beside the median: less jumpy on plateaus):",
          [("cutune " + s, mean_of(s, "evals", "mean")) for s in strategies], budgets)
    if not a.no_time:
        table("By simulated time (each landscape: the budget's evaluations x its pipelined cost per evaluation):",
              [("cutune " + s, mean_of(s, "time", "median")) for s in strategies], budgets)
        table("Evaluations made in that time (median over seeds, mean over landscapes):",
              [("cutune " + s, mean_of(s, "time", "evaluations")) for s in strategies], budgets, "%.0f")
    table("Pipeline: wall / bound max(compile/threads, GPU), median over seeds, mean over landscapes:",
          [("cutune " + s, mean_of(s, "evals", "wall_over_bound")) for s in strategies], budgets, "%.2f")
    for s in strategies:
        table("Per landscape, cutune %s by evaluations:" % s,
              [(n, {b: got[(n, s, b, "evals")]["median"] for b in budgets}) for n in names], budgets)
    if a.json:
        out = {"set": a.set, "seeds": a.seeds, "threads": a.threads, "budgets": budgets, "landscapes": names,
               "runs": [{"landscape": n, "strategy": s, "budget": b, "by": kind, **v}
                        for (n, s, b, kind), v in sorted(got.items())]}
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
