#!/usr/bin/env python3
"""perland.py - per landscape and budget, the paired difference (variant minus base, seed by
seed) of landscapes.py JSON files, +- its standard error; as quoted in 2026-11-28b-search.md.

usage: perland.py BASE.json VARIANT.json..."""
import json
import statistics as st
import sys


def ratios(doc, name, budget):
    for r in doc["runs"]:
        if r["landscape"] == name and r["budget"] == budget and r["by"] == "evals":
            return r["ratios"]
    return None


def main():
    base = json.load(open(sys.argv[1]))
    for path in sys.argv[2:]:
        var = json.load(open(path))
        print("==", path)
        for n in base["landscapes"]:
            row = "%-20s" % n[:20]
            for budget in base["budgets"]:
                x, y = ratios(var, n, budget), ratios(base, n, budget)
                if x is None or y is None:
                    row += "%16s" % "-"
                    continue
                d = [p - q for p, q in zip(x, y)]
                row += "%+8.3f+-%.3f" % (st.mean(d), st.stdev(d) / len(d) ** 0.5)
            print(row)


if __name__ == "__main__":
    main()
