#!/usr/bin/env bash
# device_attrs.sh CUTUNE SOURCE_DIR - device attributes on a real GPU: tunes
# examples/persistent.tune (grid sm_count * blocks_per_sm, a --use_fast_math switch, N
# passed as a let-define) and checks that every variant ran with the grid the GPU's own
# SM count gives (as `cutune devices` reports it, not the sm_90 table's 132), that the
# results record the attributes the run used, that the switch reached the options of
# exactly the `fast` variants, that -DN is every variant's, and that a correct variant
# won. Skipped without a GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe
gpu_tmp
"$cutune" devices --format json >"$tmp/devices.json" 2>"$tmp/devices.err" || { cat "$tmp/devices.err"; echo "FAIL: cutune devices"; exit 1; }
"$cutune" --color never "$src/examples/persistent.tune" --results "$tmp/p.json" --fresh >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
grep -q "^device  *sm_count .* (read from GPU 0" "$tmp/out" || { echo "FAIL: the summary did not show the GPU's values"; exit 1; }
grep -q "device attributes: sm_count .* (read from GPU 0" "$tmp/out" || { echo "FAIL: the run did not say it read the GPU's values"; exit 1; }
python3 - "$tmp/devices.json" "$tmp/p.json" <<'PY'
import json, sys
dev = json.load(open(sys.argv[1]))[0]
d = json.load(open(sys.argv[2]))
sms = dev["sm_count"]
attrs = d["device"].get("attributes", {})
fails = 0
def check(ok, what):
    global fails
    print(("ok   " if ok else "FAIL ") + what)
    fails += 0 if ok else 1
print("GPU 0: %s, %d SMs (cutune devices)" % (dev["name"], sms))
check(attrs.get("sm_count") == sms, "results record sm_count %s = the device's %d" % (attrs.get("sm_count"), sms))
check(attrs.get("warp_size") == 32 and attrs.get("cc") == dev["compute_capability"],
      "results record warp_size 32 and cc %s" % attrs.get("cc"))
check(attrs.get("max_threads_per_sm", 0) >= 1024, "results record max_threads_per_sm %s" % attrs.get("max_threads_per_sm"))
rs = d["results"]
check(len(rs) > 0, "%d variants ran" % len(rs))
for r in rs:
    p = r["params"]
    want = sms * p["blocks_per_sm"]
    if r["grid"][0] != want:
        check(False, "variant %s: grid %s, want sm_count * blocks_per_sm = %d" % (p, r["grid"], want))
    if ("--use_fast_math" in r["options"]) != bool(p["fast"]):
        check(False, "variant %s: options %s" % (p, r["options"]))
    if "-DN=16777216" not in r["defines"]:
        check(False, "variant %s: defines %s" % (p, r["defines"]))
    if p["threads"] * p["blocks_per_sm"] > attrs.get("max_threads_per_sm", 0):
        check(False, "variant %s breaks threads * blocks_per_sm <= max_threads_per_sm" % p)
check(fails == 0, "every variant's grid is %d * blocks_per_sm, with -DN and the switch as asked" % sms)
best = d["summary"]["best"]
check(best is not None and rs[best]["status"] == "ok", "a correct variant won")
check(any(r["status"] == "ok" and r["params"]["fast"] for r in rs), "fast-math variants verified (atol 1e-5)")
print("%d checks failed" % fails)
sys.exit(1 if fails else 0)
PY
