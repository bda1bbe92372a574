#!/usr/bin/env python3
"""sweep_summary.py - compares the variants of a sweep (bench/search/sweep.sh's sweep.json,
{"NAME": landscapes.py's JSON}): per set (dev: the 7 development landscapes, held-out: the
h100_ ones) and budget, the mean over landscapes of the median over seeds, the same of the
median over the first 20 seeds (the issue's figure), and the mean over seeds with its
standard error (over seeds, landscapes pooled); the mean's difference to the baseline
paired by seed (seed i of a variant against seed i of the baseline: the same initial
design, so the pairing removes what they share); then each landscape's medians.

usage: bench/search/sweep_summary.py sweep.json [BASELINE_NAME]
"""
import json
import statistics
import sys


def per(doc, name, budget, by="evals"):
    for r in doc["runs"]:
        if r["landscape"] == name and r["budget"] == budget and r["by"] == by:
            return r
    return None


def main():
    docs = json.load(open(sys.argv[1]))
    if not docs:
        sys.exit("sweep_summary.py: no variant finished")
    names = list(docs)
    base = sys.argv[2] if len(sys.argv) > 2 else names[0]
    first = docs[names[0]]
    budgets = first["budgets"]
    sets = (("dev", [n for n in first["landscapes"] if not n.startswith("h100_")]),
            ("held-out", [n for n in first["landscapes"] if n.startswith("h100_")]))
    for label, lands in sets:
        if not lands:
            continue
        for stat in ("median", "median20", "mean"):
            print("\n%s, %s (mean over %d landscapes)%s" % (label, stat, len(lands),
                  ", +- standard error of the difference to %s" % base if stat == "mean" else ""))
            print("%-28s" % "" + "".join("%14d" % b for b in budgets))
            for v in names:
                row = "%-28s" % v[:28]
                for b in budgets:
                    rs = [per(docs[v], n, b) for n in lands]
                    if any(r is None for r in rs):
                        row += "%14s" % "-"
                        continue
                    if stat == "median":
                        row += "%14.3f" % statistics.mean(r["median"] for r in rs)
                    elif stat == "median20":
                        row += "%14.3f" % statistics.mean(statistics.median(r["ratios"][:20]) for r in rs)
                    else:
                        m = statistics.mean(r["mean"] for r in rs)
                        bs = [per(docs[base], n, b) for n in lands]
                        if v == base or any(x is None for x in bs):
                            row += "%14.3f" % m
                            continue
                        # paired by seed: the same seed's runs share nothing, so unpaired
                        diffs = []
                        for r, q in zip(rs, bs):
                            k = min(len(r["ratios"]), len(q["ratios"]))
                            diffs.append(statistics.pvariance(r["ratios"][:k]) / k + statistics.pvariance(q["ratios"][:k]) / k)
                        se = (sum(diffs) ** 0.5) / len(lands)
                        row += "%8.3f+-%.3f" % (m, se)
                print(row)
    kinds = [k for k in ("evals", "time") if any(r["by"] == k for r in first["runs"])]
    for by, (label, lands) in [(k, st) for k in kinds for st in sets]:
        if not lands:
            continue
        print("\n%s, %s, the mean's difference to %s paired by seed (each seed's mean over the %d landscapes;"
              " the mean over seeds +- its standard error)" % (label, "by evaluations" if by == "evals" else
                                                                "by simulated time", base, len(lands)))
        print("%-28s" % "" + "".join("%14d" % b for b in budgets))
        for v in names:
            if v == base:
                continue
            row = "%-28s" % v[:28]
            for b in budgets:
                rs = [per(docs[v], n, b, by) for n in lands]
                bs = [per(docs[base], n, b, by) for n in lands]
                if any(r is None for r in rs + bs):
                    row += "%14s" % "-"
                    continue
                k = min(len(r["ratios"]) for r in rs + bs)
                d = [statistics.mean(r["ratios"][i] - q["ratios"][i] for r, q in zip(rs, bs)) for i in range(k)]
                se = statistics.stdev(d) / k ** 0.5 if k > 1 else float("nan")
                row += "%+8.3f+-%.3f" % (statistics.mean(d), se)
            print(row)
    print("\nper landscape, median over seeds:")
    for n in first["landscapes"]:
        print("\n" + n)
        for v in names:
            print("  %-26s" % v[:26] + "".join("%8.3f" % per(docs[v], n, b)["median"] if per(docs[v], n, b) else "%8s" % "-"
                                            for b in budgets))


if __name__ == "__main__":
    main()
