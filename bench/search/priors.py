#!/usr/bin/env python3
"""priors.py - auto with a prior from another GPU, over the hub kernels' recordings.

The issue's goal for `--prior`: with a recording of the same kernel on another GPU as the
prior, auto reaches at least 0.95 of the optimum at 25 evaluations. The benchmark hub's
convolution and dedispersion are recorded on three GPUs (bench/landscapes/*_A4000.json.gz,
_A6000, _W6600) and, once bench/record-hub.sh has run on the device, on an H100
(bench/landscapes/h100/convolution.json.gz and dedispersion.json.gz, recorded from
conv_milo_run.tune and dedisp_milo_run.tune, whose configuration keys are the hub's). For
each kernel, each target recording and each other recording of it as the prior, this
replays auto with `cutune simulate --prior` at each budget over SEEDS seeds and prints the
median over seeds of best found / true best, beside the same without a prior. The H100
targets are the held-out case (never tuned on); --targets all adds the hub GPUs as targets.

usage: bench/search/priors.py [--cutune build/cutune] [--budgets 25] [--seeds 20]
           [--targets h100|all] [--jobs 2] [--json OUT.json]
"""
import argparse
import concurrent.futures
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LAND = os.path.join(ROOT, "bench", "landscapes")
KERNELS = (("convolution", "conv_milo_run.tune"), ("dedispersion", "dedisp_milo_run.tune"))
HUB_GPUS = ("A4000", "A6000", "W6600")


def recordings(kernel):
    """{GPU: path} of every recording of the kernel present: the hub's three and the H100's."""
    out = {g: os.path.join(LAND, "%s_%s.json.gz" % (kernel, g)) for g in HUB_GPUS}
    out["H100"] = os.path.join(LAND, "h100", "%s.json.gz" % kernel)
    return {g: p for g, p in out.items() if os.path.exists(p)}


def median(cutune, spec, results, budget, seeds, prior=None):
    """The median over seeds of best found / true best of auto at this budget, as simulate reports it."""
    cmd = [cutune, "simulate", spec, "--results", results, "--strategy", "auto", "--budget", str(budget),
           "--repeat", str(seeds), "--seed", "0", "--format", "json", "-q"]
    if prior:
        cmd += ["--prior", prior]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), p.stderr.strip()))
    return json.loads(p.stdout)["ratio"]["median"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cutune", default=os.path.join(ROOT, "build", "cutune"))
    ap.add_argument("--budgets", default="25")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--targets", default="h100", choices=("h100", "all"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every median here")
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    if not os.access(a.cutune, os.X_OK):
        sys.exit("priors.py: no cutune at %s (build it, or --cutune PATH)" % a.cutune)
    tmp = tempfile.mkdtemp(prefix="priors.")
    try:
        jobs = []
        for kernel, spec in KERNELS:
            recs = recordings(kernel)
            plain = {}
            for gpu, path in recs.items():  # cutune reads plain JSON
                plain[gpu] = os.path.join(tmp, "%s_%s.json" % (kernel, gpu))
                with gzip.open(path, "rb") as src, open(plain[gpu], "wb") as dst:
                    shutil.copyfileobj(src, dst)
            targets = [g for g in recs if a.targets == "all" or g == "H100"]
            for target in targets:
                for prior in [None] + [g for g in recs if g != target]:
                    for b in budgets:
                        jobs.append((kernel, os.path.join(LAND, spec), target, prior, b, plain))
        if not jobs:
            sys.exit("priors.py: no target recording (bench/landscapes/h100/{convolution,dedispersion}.json.gz "
                     "come from bench/record-hub.sh on the device; --targets all uses the hub's)")

        def one(job):
            kernel, spec, target, prior, b, plain = job
            return job[:5], median(a.cutune, spec, plain[target], b, a.seeds, plain[prior] if prior else None)

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            got = dict(pool.map(one, jobs))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("auto with a prior from another GPU: median over %d seeds of best found / true best (goal: 0.95 at 25)"
          % a.seeds)
    print("\n| kernel | target | prior | " + " | ".join(str(b) for b in budgets) + " |")
    print("|---" * (3 + len(budgets)) + "|")
    rows = sorted({k[:4] for k in got}, key=lambda k: (k[0], k[2], k[3] or ""))
    for kernel, spec, target, prior in rows:
        print("| %s | %s | %s | " % (kernel, target, prior or "none") +
              " | ".join("%.3f" % got[(kernel, spec, target, prior, b)] for b in budgets) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"kernel": k, "target": t, "prior": p, "budget": b, "median": v}
                       for (k, _, t, p, b), v in sorted(got.items(), key=lambda x: str(x[0]))], f, indent=1)


if __name__ == "__main__":
    main()
