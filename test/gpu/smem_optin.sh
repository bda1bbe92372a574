#!/usr/bin/env bash
# smem_optin.sh CUTUNE SOURCE_DIR - a variant whose static and dynamic shared memory
# together pass 48 KiB launches (test/gpu/smem_optin.tune): the tuner opts the function
# in whenever static + dynamic > 48 KiB, not only when the dynamic part alone does. Every
# one of the four variants (8 or 32 KiB static x 8 or 32 KiB dynamic) must be ok.
# Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe smem
gpu_tmp
"$cutune" --color never "$src/test/gpu/smem_optin.tune" --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
fails = ["%s: %s %s" % (r["params"], r["status"], r.get("reason") or "") for r in rs if r["status"] != "ok"]
if len(rs) != 4:
    fails.append("%d variants, expected 4" % len(rs))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
echo "smem opt-in test passed"
