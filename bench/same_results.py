#!/usr/bin/env python3
"""bench/same_results.py - do two results files of the same spec say the same thing?

usage: bench/same_results.py OLD.json NEW.json [OLD_ROOT NEW_ROOT]

Compares, configuration by configuration (keyed by kernel and params), everything a run
decides rather than measures: the outcome, its reason, the launch (block, grid, dynamic
shared memory), the -D defines and options, the compiler's resources, the occupancy, the
verification, and whether a record is a twin. Times, timestamps, cache hits and whether
timing was cut short (`pruned`, which depends on timing noise) are measured, not decided,
and are left out. The winners are compared by time: the new run's winner against the old
winner's time in the new run (1.000 = the same speed).

A results file of problem sizes is compared size by size. Where the two runs worked in
different folders, OLD_ROOT and NEW_ROOT are written as <root> before comparing (a compile
error's reason names the kernel file's path).

Prints one line per difference (at most 20) and a summary; exits 0 when every decided field
agrees, 1 when some differ, 2 when a file cannot be read.
"""
import json
import sys

DECIDED = ("status", "reason", "block", "grid", "smem_bytes", "defines", "options",
           "resources", "occupancy", "verified", "duplicate")


def key(rec):
    return (rec.get("kernel"), json.dumps(rec.get("size"), sort_keys=True),
            json.dumps(rec.get("params"), sort_keys=True))


def unrooted(value, root):
    """value with its run's folder written as <root> (a message names the files it read)."""
    return json.loads(json.dumps(value).replace(root, "<root>")) if root else value


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot read: {e}", file=sys.stderr)
        sys.exit(2)
    recs = doc.get("results")
    if recs is None and isinstance(doc.get("sizes"), list):   # problem sizes: version 2
        recs = [dict(r, size=s.get("size")) for s in doc["sizes"] if isinstance(s, dict)
                for r in (s.get("results") or []) if isinstance(r, dict)]
    if not isinstance(recs, list):
        print(f"{path}: no results list", file=sys.stderr)
        sys.exit(2)
    return {key(r): r for r in recs if isinstance(r, dict)}


def median(rec):
    t = rec.get("time_ms")
    return t.get("median") if isinstance(t, dict) else None


def best(recs):
    ok = [(median(r), k) for k, r in recs.items() if r.get("status") == "ok" and median(r) is not None]
    return min(ok)[1] if ok else None


def main():
    if len(sys.argv) not in (3, 5):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    old, new = load(sys.argv[1]), load(sys.argv[2])
    oroot, nroot = (sys.argv[3], sys.argv[4]) if len(sys.argv) == 5 else (None, None)
    diffs = []
    for k in sorted(set(old) | set(new)):
        if k not in new or k not in old:
            diffs.append(f"{k[0]} {k[1]} {k[2]}: only in {'old' if k in old else 'new'}")
            continue
        for field in DECIDED:
            if unrooted(old[k].get(field), oroot) != unrooted(new[k].get(field), nroot):
                diffs.append(f"{k[0]} {k[1]} {k[2]}: {field}: {old[k].get(field)!r} -> {new[k].get(field)!r}")
    for d in diffs[:20]:
        print(d)
    bo, bn = best(old), best(new)
    ratio = "n/a"
    if bo and bn and median(new.get(bo, {})) and median(new[bn]):
        ratio = f"{median(new[bn]) / median(new[bo]):.3f}"
    same = "same winner" if bo == bn else f"winners differ (old {bo[1:] if bo else None}, new {bn[1:] if bn else None})"
    print(f"{len(old)} / {len(new)} configurations, {len(diffs)} decided fields differ; {same}; "
          f"new winner / old winner's time in the new run: {ratio}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
