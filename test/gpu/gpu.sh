#!/usr/bin/env bash
# gpu.sh CUTUNE SOURCE_DIR - tunes test/gpu/tiny.tune end to end on GPU 0 and checks
# the results: every variant accounted for, wrong answers rejected, variants that need
# too many registers per block skipped with the reason, the correct ones timed and
# verified, the winner correct, and the model's occupancy equal to the driver's.
# Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe gpu
gpu_tmp
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$tmp/r.json" --report "$tmp/r.html" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
# The account says where the wrong variants lie: every BUG = 1 variant that ran, and only those.
grep -qE '^the 4 wrong variants all have (.*, )?ITEMS 4, BUG 1(, .*)?; 4 of the 4 that ran with those values$' "$tmp/err" ||
    { echo "FAIL: the account does not say the 4 wrong variants are those of BUG 1 (ITEMS 4)"; exit 1; }
# --report: the run's page, the report's own elements only, with its winner.
grep -qx "report: $tmp/r.html" "$tmp/err" || { echo "FAIL: --report did not say where the page went"; exit 1; }
python3 "$src/test/report/check_html.py" "$tmp/r.html" || { echo "FAIL: the --report page (above)"; exit 1; }
grep -q '<h3>The winner</h3>' "$tmp/r.html" && ! grep -q 'there is no winner' "$tmp/r.html" ||
    { echo "FAIL: the --report page has no winner"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks of $tmp/r.json (above)"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
check("format", d["format"] == "cutune-results" and d["version"] == 1)
check("device named", d["device"]["name"] != "" and d["device"]["arch"].startswith("sm_"))
res = d["results"]
check("15 variants (got %d)" % len(res), len(res) == 15)
for r in res:
    p = r["params"]
    tag = "#%d %s" % (r["index"], p)
    if p["HEAVY"] == 1 and p["threads"] == 1024:
        check(tag + " cannot launch", r["status"] == "cannot launch" and "registers" in (r["reason"] or ""))
    elif p["BUG"] == 1:
        check(tag + " is wrong", r["status"] == "wrong" and "differ" in (r["reason"] or ""))
    else:
        check(tag + " ok", r["status"] == "ok")
        check(tag + " verified", r["verified"] is True)
        t = r["time_ms"]
        check(tag + " timed", t is not None and 0 < t["min"] <= t["median"] <= t["max"])
        check(tag + " repetitions", r["pruned"] or r["reps"] >= 5)
        # 1 Mi elements take a few microseconds: below the 50 us floor, so batched
        # (the register-heavy variants compute for longer)
        # (unless the race stopped it on its checked run: one launch, batch 1)
        if p["HEAVY"] == 0:
            check(tag + " batched per event pair", r["batch"] > 1 or r["launches"] == 1)
        check(tag + " metric", r["metrics"]["GBps"] > 0 and abs(r["objective"] - r["metrics"]["GBps"]) < 1e-9)
        occ = r["occupancy"]
        check(tag + " model occupancy = driver's (%s vs %s)" % (occ["blocks_per_sm"], occ["driver_blocks_per_sm"]),
              occ["blocks_per_sm"] == occ["driver_blocks_per_sm"])
best = d["summary"]["best"]
check("a winner", best is not None)
if best is not None:
    w = res[best]
    check("the winner is correct", w["status"] == "ok" and w["params"]["BUG"] == 0)
    ok = [r for r in res if r["status"] == "ok" and not r["pruned"]]
    check("the winner has the best objective", all(w["objective"] >= r["objective"] for r in ok))
check("counts: 4 wrong, 3 cannot launch (got %s wrong, %s)" % (d["summary"]["wrong"], d["summary"]["unlaunchable"]),
      d["summary"]["wrong"] == 4 and d["summary"]["unlaunchable"] == 3)
check("summary records the compile counts (got %r, %r)" % (d["summary"].get("compiled"), d["summary"].get("cached")),
      isinstance(d["summary"].get("compiled"), int) and isinstance(d["summary"].get("cached"), int)
      and d["summary"]["compiled"] + d["summary"]["cached"] >= 1)
check("settings.reference names the configuration (got %r)" % d["settings"]["reference"],
      (d["settings"]["reference"] or "").startswith("configuration"))
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
# A second run: every binary from the cache, the same winner.
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$tmp/r2.json" >"$tmp/out2" 2>"$tmp/err2" || {
    echo "FAIL: second run exited $?"
    cat "$tmp/out2" "$tmp/err2"
    exit 1
}
grep -q '(0 compiled' "$tmp/err2" || { echo "FAIL: the second run compiled again"; cat "$tmp/err2"; exit 1; }
python3 -c "
import json,sys
a=json.load(open('$tmp/r.json')); b=json.load(open('$tmp/r2.json'))
ok = a['summary']['best'] is not None and b['summary']['best'] is not None
if not ok: print('first run best:', a['summary']['best'], 'second run best:', b['summary']['best'])
sys.exit(0 if ok else 1)" ||
    { echo "FAIL: no winner on the second run"; cat "$tmp/err2"; exit 1; }
# Verified against a reference kernel instead of a configuration: the BUG variants are
# wrong, the others right.
"$cutune" --color never "$src/test/gpu/tiny_kernel_ref.tune" --results "$tmp/k.json" >"$tmp/out3" 2>"$tmp/err3" || {
    echo "FAIL: the kernel-reference run exited $?"
    cat "$tmp/out3" "$tmp/err3"
    exit 1
}
grep -q "outputs checked against the kernel scale_ref" "$tmp/err3" ||
    { echo "FAIL: the kernel-reference run does not say what it checks against:"; cat "$tmp/err3"; exit 1; }
python3 - "$tmp/k.json" <<'PY' || { echo "FAIL: the checks of the kernel-reference run's $tmp/k.json (above)"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
res = d["results"]
ok = True
if len(res) != 6:
    print("FAIL: %d results, expected the 6 valid configurations: %s" % (len(res), [r["params"] for r in res]))
    ok = False
if d["settings"]["reference"] != "kernel scale_ref":
    print("FAIL: settings.reference is %r, expected 'kernel scale_ref'" % d["settings"]["reference"])
    ok = False
for r in res:
    want = "wrong" if r["params"]["BUG"] == 1 else "ok"
    if r["status"] != want:
        print("FAIL: #%d %s is %s, expected %s" % (r["index"], r["params"], r["status"], want))
        ok = False
sys.exit(0 if ok else 1)
PY
echo "gpu tests passed"
