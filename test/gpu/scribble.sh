#!/usr/bin/env bash
# scribble.sh CUTUNE SOURCE_DIR - `in` arguments kept between variants under a
# verification (test/gpu/scribble.tune): the variants with SCRIBBLE = 1 write into their
# `in` argument A while computing the right output; a variant run after one of them on
# the A it left would be wrong, so cutune must find A changed, restore it and check that
# variant again. Checked: every variant is ok and verified; some variant's results name A
# as changed ("inputs_changed"), never B, and each such variant ran after a SCRIBBLE = 1
# variant (or is one); the run's warnings name A; the winner is ok and verified. Exits
# 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$(cd "$2" && pwd)
. "$src/test/gpu/lib.sh.inc"
gpu_probe scribble
gpu_tmp
"$cutune" --color never "$src/test/gpu/scribble.tune" --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
grep -q "found an \`in\` argument changed since it was restored; .*'A' had changed since it was restored" "$tmp/err" ||
    { echo "FAIL: no warning naming 'A' on stderr"; exit 1; }
if grep -q "'B' had changed" "$tmp/err"; then
    echo "FAIL: the warning names 'B', which no variant writes"
    exit 1
fi
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
d = json.load(open(sys.argv[1]))
rs = d["results"]  # in the order the variants ran
check("6 variants (%d)" % len(rs), len(rs) == 6)
scribbled = False  # a SCRIBBLE = 1 variant has run
noted = 0
for r in rs:
    p, st, why = r["params"], r["status"], r.get("reason") or ""
    tag = "#%d %s" % (r["index"], p)
    check("%s: ok and verified (%s, %s)" % (tag, st, why), st == "ok" and r.get("verified") is True)
    note = r.get("inputs_changed")
    if note:
        noted += 1
        check(tag + ": the note names A (%s)" % note, "'A' had changed since it was restored" in note)
        check(tag + ": the note does not name B (%s)" % note, "'B'" not in note)
        check(tag + ": noted after a SCRIBBLE = 1 variant ran, or is one", scribbled or p["SCRIBBLE"] == 1)
    scribbled = scribbled or p["SCRIBBLE"] == 1
check("some variant found A changed (%d)" % noted, noted >= 1)
best = d["summary"]["best"]
check("a winner", best is not None)
if best is not None:
    w = rs[best]
    check("the winner #%d is ok and verified" % w["index"], w["status"] == "ok" and w.get("verified") is True)
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
