#!/usr/bin/env bash
# vectors.sh CUTUNE SOURCE_DIR - vector element types on a GPU (test/gpu/vectors.tune):
# float2, double2 and int4 buffers allocated at their vectors' size, filled lane by lane,
# and verified lane by lane: the variants with SWAP = 0 match the reference, those with
# SWAP = 1 are `wrong`, the reason naming lane 10, element 5's .x. The double4, char4,
# uchar2, short2 and ushort4 inputs are checked by the kernel against their fills (a
# lane that differs traps: the variant is not ok), a half2 output is verified too.
# Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe vectors
gpu_tmp
"$cutune" --color never "$src/test/gpu/vectors.tune" --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
rs = json.load(open(sys.argv[1]))["results"]
check("4 variants (%d)" % len(rs), len(rs) == 4)
for r in rs:
    p, st, why = r["params"], r["status"], r.get("reason") or ""
    tag = "%s: %s (%s)" % (p, st, why)
    if p["SWAP"]:
        check(tag + ": wrong at element 5 .x", st == "wrong" and "of 8192 lanes differ; first at 10 (element 5 .x)" in why)
    else:
        check(tag + ": ok", st == "ok")
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
