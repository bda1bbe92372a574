#!/usr/bin/env python3
"""merge_check.py - helpers of test/cli/merge.sh (`cutune merge`: shards of a run joined).

split ORIGINAL N DIR [TWIN]: writes DIR/shard-I-of-N.json for I in 0..N-1, each the
  original with only the entries whose index % N == I and settings.shard = {I, N}, and
  nothing else recomputed (summary.best null: an index into the original's results
  would be wrong). TWIN (any word): first makes the original's second entry a twin of its
  first (same_code_as), so that the twin and its run land in different shards.
same ORIGINAL MERGED N [TWIN]: exits 1, saying why, unless MERGED, merged from split's N
  shards, holds the original's entries (keyed by index, each field equal; only
  launches/resumed may be added), in index order, the same winner (by index), the same
  counts, no settings.shard, the shards' seconds added up (each shard's summary is the
  original's: N times its seconds) and the longest wall time (the original's).
"""
import json
import math
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def with_twin(d):
    r = d["results"]
    r[1]["same_code_as"] = r[0]["index"]
    return d


def split(original, n, folder, twin=False):
    d = load(original)
    if twin:
        d = with_twin(d)
    for i in range(n):
        s = json.loads(json.dumps(d))
        s["results"] = [e for e in d["results"] if e["index"] % n == i]
        s["settings"]["shard"] = {"index": i, "count": n}
        s["summary"]["best"] = None
        with open(f"{folder}/shard-{i}-of-{n}.json", "w") as f:
            json.dump(s, f)


def equal(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    return a == b


def fail(why):
    print("merge_check:", why)
    sys.exit(1)


def counts(results):
    c = {"variants": len(results), "timed": 0, "wrong": 0, "failed": 0, "unlaunchable": 0, "pruned": 0,
         "twins": 0}
    for e in results:
        c["timed"] += e.get("time_ms") is not None and e["status"] == "ok"
        c["pruned"] += bool(e.get("pruned"))
        c["twins"] += "same_code_as" in e
        st = e["status"]
        if st == "wrong":
            c["wrong"] += 1
        elif st == "cannot launch":
            c["unlaunchable"] += 1
        elif st != "ok":
            c["failed"] += 1
    return c


def same(original, merged, n, twin=False):
    o, m = load(original), load(merged)
    if twin:
        o = with_twin(o)
    if "shard" in m["settings"]:
        fail("a complete merge has settings.shard")
    if not m["settings"].get("merged_from"):
        fail("no settings.merged_from")
    idx = [e["index"] for e in m["results"]]
    if idx != sorted(idx):
        fail("entries not in index order")
    by = {e["index"]: e for e in m["results"]}
    if len(by) != len(idx) or by.keys() != {e["index"] for e in o["results"]}:
        fail("not the original's configurations, each once")
    for e in o["results"]:
        got = by[e["index"]]
        extra = set(got) - set(e)
        if extra - {"launches", "resumed"}:
            fail(f"entry {e['index']}: fields added: {extra}")
        for k in e:
            if not equal(e[k], got.get(k)):
                fail(f"entry {e['index']}: {k}: {e[k]!r} became {got.get(k)!r}")
    ob, mb = o["summary"]["best"], m["summary"]["best"]
    if o["results"][ob]["index"] != m["results"][mb]["index"]:
        fail(f"the winner is #{m['results'][mb]['index']}, not #{o['results'][ob]['index']}")
    want = counts(o["results"])
    for k, v in want.items():
        if k in o["summary"] and k != "twins" and o["summary"][k] != v:
            fail(f"the original's summary.{k} is {o['summary'][k]}, its entries say {v}")
        if m["summary"][k] != v:
            fail(f"summary.{k} is {m['summary'][k]}, not {v}")
    for k, times in (("compile_seconds", n), ("gpu_seconds", n), ("timing_seconds", n), ("wall_seconds", 1)):
        if not math.isclose(m["summary"][k], times * o["summary"][k], rel_tol=1e-9):
            fail(f"summary.{k} is {m['summary'][k]}, not {times} x {o['summary'][k]}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "split":
        split(args[0], int(args[1]), args[2], len(args) > 3)
    else:
        same(args[0], args[1], int(args[2]), len(args) > 3)
