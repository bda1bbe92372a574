#!/usr/bin/env python3
"""dd-landscape.py - the facts about the H100 dedispersion recording quoted in 2026-11-27j-search.md.

Run from the repository root: python3 docs/results/data/search-2026-11-27j/dd-landscape.py
Prints the recording's checks (every configuration once, statuses, how each entry was timed:
in full, pruned or provisional, the hub's keys), how many configurations lie within 5 % and
1 % of each GPU's optimum, and between the H100 and each hub GPU: Spearman's rank
correlation over the configurations that ran on both and what each GPU's best configuration
is worth on the other. The convolution's counterpart: landscape.py.
"""
import collections
import gzip
import json

PARAMS = ["block_size_x", "block_size_y", "block_size_z", "tile_size_x", "tile_size_y", "tile_stride_x",
          "tile_stride_y", "loop_unroll_factor_channel"]


def load(path):
    return json.load(gzip.open(path, "rt"))["results"]


def key(entry):
    return tuple(sorted(entry["params"].items()))


def times(rows):
    return {key(x): (x["objective"] if x["status"] == "ok" else None) for x in rows}


def ranks(d, keys):
    order = sorted(keys, key=lambda k: d[k])
    return {k: i for i, k in enumerate(order)}


def spearman(a, b):
    keys = [k for k in a if a[k] is not None and b.get(k) is not None]
    ra, rb = ranks(a, keys), ranks(b, keys)
    m = (len(keys) - 1) / 2
    cov = sum((ra[k] - m) * (rb[k] - m) for k in keys)
    var = sum((ra[k] - m) ** 2 for k in keys)
    return cov / var, len(keys)


def show(k):
    p = dict(k)
    return " ".join(str(p[n]) for n in PARAMS)


h100 = load("bench/landscapes/h100/dedispersion.json.gz")
print("H100: %d entries, %d distinct indices (0..%d), %d distinct configurations" %
      (len(h100), len({x["index"] for x in h100}), max(x["index"] for x in h100), len({key(x) for x in h100})))
print("statuses:", dict(collections.Counter(x["status"] for x in h100)))
print("ok and verified:", sum(1 for x in h100 if x["status"] == "ok" and x.get("verified")))
kind = collections.Counter()
reps = collections.defaultdict(collections.Counter)
for x in h100:
    k = "provisional" if x.get("provisional") else "pruned" if x.get("pruned") else "in full"
    kind[k] += 1
    reps[k][x["reps"]] += 1
print("timed:", dict(kind), "; samples:", {k: dict(sorted(v.items())) for k, v in reps.items()})
by_gpu = {"H100": times(h100)}
hb = min(x["objective"] for x in h100)
for k in ("provisional", "pruned", "in full"):
    r = [hb / x["objective"] for x in h100 if ("provisional" if x.get("provisional") else
                                               "pruned" if x.get("pruned") else "in full") == k]
    print("  %-11s of the best: %.4f .. %.4f" % (k, min(r), max(r)))
for gpu in ("A4000", "A6000", "W6600"):
    rows = load("bench/landscapes/dedispersion_%s.json.gz" % gpu)
    same_index = {x["index"]: key(x) for x in rows} == {x["index"]: key(x) for x in h100}
    same_set = {key(x) for x in rows} == {key(x) for x in h100}
    print("%s: %d entries (%s); the same configurations as the H100's: %s; index for index: %s" %
          (gpu, len(rows), dict(collections.Counter(x["status"] for x in rows)), same_set, same_index))
    by_gpu[gpu] = times(rows)
print()
for gpu, d in by_gpu.items():
    ok = {k: v for k, v in d.items() if v is not None}
    best = min(ok.values())
    print("%-5s %5d ran; within 5 %% of its optimum: %4d, within 1 %%: %3d, within 0.5 %%: %2d; best %s %.4g" %
          (gpu, len(ok), sum(1 for v in ok.values() if best / v >= 0.95), sum(1 for v in ok.values() if best / v >= 0.99),
           sum(1 for v in ok.values() if best / v >= 0.995), show(min(ok, key=ok.get)), best))
print()
h = by_gpu["H100"]
hkey = min((k for k, v in h.items() if v is not None), key=lambda k: h[k])
print("H100's five best (%s):" % " ".join(PARAMS))
for k in sorted((k for k in h if h[k] is not None), key=lambda k: h[k])[:5]:
    print("  %.4f  %s" % (hb / h[k], show(k)))
for gpu in ("A4000", "A6000", "W6600"):
    o = by_gpu[gpu]
    obest = min(v for v in o.values() if v is not None)
    okey = min((k for k, v in o.items() if v is not None), key=lambda k: o[k])
    rho, n = spearman(h, o)
    print("%s: Spearman %.3f over %d; its best on the H100 %.3f of the optimum; the H100's best on it %s" %
          (gpu, rho, n, hb / h[okey] if h[okey] else float("nan"),
           "%.3f" % (obest / o[hkey]) if o[hkey] else "fails"))
