#!/usr/bin/env python3
"""split.py - the paired difference of two landscapes.py JSON files over a range of seeds,
as quoted in 2026-11-28b-search.md (seeds 0-59 against the fresh seeds 60-119).

usage: split.py BASE.json VARIANT.json FIRST_SEED END_SEED
Per budget: the mean over seeds FIRST..END-1 of (each seed's mean over the landscapes,
variant minus base), +- its standard error, and how many standard errors that is."""
import json
import statistics as st
import sys


def ratios(doc, name, budget):
    for r in doc["runs"]:
        if r["landscape"] == name and r["budget"] == budget and r["by"] == "evals":
            return r["ratios"]
    raise SystemExit("split.py: no run of %s at %d" % (name, budget))


def main():
    base, var = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    lo, hi = int(sys.argv[3]), int(sys.argv[4])
    lands = base["landscapes"]
    for budget in base["budgets"]:
        d = [st.mean(ratios(var, n, budget)[i] - ratios(base, n, budget)[i] for n in lands) for i in range(lo, hi)]
        m, se = st.mean(d), st.stdev(d) / len(d) ** 0.5
        print("%d %+.4f +- %.4f  (%.1f SE)" % (budget, m, se, m / se if se else 0))


if __name__ == "__main__":
    main()
