#!/usr/bin/env bash
# values.sh CUTUNE SOURCE_DIR - typed values on a GPU (test/gpu/values.tune): a variant
# carries the configuration it was made from, typed, to the GPU worker and into its
# record. The spec's metric `code` reads every param (int, float, bool, string); every
# entry's `code` must be what the spec's expression gives for the entry's own params,
# for the variants the worker ran (their values crossed the pipe typed) and for the
# twins, whose metrics the tuner evaluates from their records' values. Run twice: by
# default (4 experiments run, 44 twins) and with --run-twins (all 48 run). Exits 77
# (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe values
gpu_tmp
spec=$src/test/gpu/values.tune
"$cutune" --color never "$spec" --results "$tmp/a.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
"$cutune" --color never "$spec" --results "$tmp/b.json" --run-twins --fresh >"$tmp/out2" 2>"$tmp/err2"
rc=$?
cat "$tmp/err2"
[ $rc -eq 0 ] || { echo "FAIL: cutune --run-twins exited $rc"; exit 1; }
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
def expected(p):  # the spec's metric, in its order of operations
    return (p["ITEMS"] * 100000 + p["threads"] * 10 + p["alpha"] * 1000 + (1 if p["fast"] else 0)
            + (0.25 if p["algo"] == "tree" else 0.5))
for path, want_twins in ((sys.argv[1], True), (sys.argv[2], False)):
    d = json.load(open(path))
    rs = d["results"]
    check("%s: 48 variants (%d)" % (path, len(rs)), len(rs) == 48)
    twins = [r for r in rs if "same_code_as" in r]
    check("%s: twins %d" % (path, len(twins)), len(twins) == 44 if want_twins else len(twins) == 0)
    seen = set()
    for r in rs:
        p = r["params"]
        tag = "%s #%d %s" % (path.split("/")[-1], r["index"], p)
        check(tag + " typed params", type(p["threads"]) is int and type(p["ITEMS"]) is int
              and type(p["alpha"]) is float and type(p["fast"]) is bool and type(p["algo"]) is str)
        check(tag + " ok (%s)" % r["status"], r["status"] == "ok")
        seen.add((p["threads"], p["ITEMS"], p["alpha"], p["fast"], p["algo"]))
        code = (r.get("metrics") or {}).get("code")
        want = expected(p)
        check(tag + " code %r == %r" % (code, want), isinstance(code, float) and abs(code - want) <= 1e-9 * abs(want))
    check(path + ": every configuration once (%d)" % len(seen), len(seen) == 48)
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
echo "values test passed"
