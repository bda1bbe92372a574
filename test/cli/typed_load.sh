#!/usr/bin/env bash
# typed_load.sh CUTUNE SOURCE_DIR - a results file read back carries typed values
# (docs/results-format.md, "What is refused on load"): a value whose JSON type is not its
# param's is refused with the file and the JSON path by every reader (emit t4 reads the
# file as a stream: it once wrote "abc" for an int param as 0); a missing value is named
# by its path; a value outside the spec's domain is left out where a recording is matched
# to a spec (simulate), and a value of another type than the spec's param too (a string
# "1" is not the int 1: it once was); a float param's whole value written as a JSON
# integer reads back as the float it is (CSV "2.0", as a tuning run writes it). Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
echo 'extern "C" __global__ void k() {}' >"$tmp/k.cu"
cat >"$tmp/s.tune" <<'TUNE'
kernel k from "k.cu" {
    param a in 0 .. 3;
    param f in [0.5, 2.0] as none;
    param s in ["x", "y"] as none;
    param on in [true, false] as none;
    block 32; grid 1;
    metric score = 1.0 / time_s;
    objective maximize score;
}
TUNE
# The recording: every configuration (4 x 2 x 2 x 2 = 32), objective a formula of them;
# then the files the checks below read, each a change of it.
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
res = []
for a in range(4):
    for f in (0.5, 2.0):
        for s in ("x", "y"):
            for on in (True, False):
                obj = 10 + a * f + (s == "y") + on
                t = 1.0 / obj
                res.append({"index": len(res), "params": {"a": a, "f": f, "s": s, "on": on},
                            "status": "ok", "objective": obj, "block": [32, 1, 1], "grid": [1, 1, 1],
                            "time_ms": {"median": t, "min": t, "max": t, "q1": t, "q3": t},
                            "resources": {"registers": 32}, "occupancy": {"theoretical": 0.5},
                            "gpu_seconds": 0.1, "compile_seconds": 0.2})
best = max(range(len(res)), key=lambda i: res[i]["objective"])
doc = {"format": "cutune-results", "version": 1, "spec": {"kernel": "k", "params": [
       {"name": "a", "type": "int"}, {"name": "f", "type": "float"}, {"name": "s", "type": "string"},
       {"name": "on", "type": "bool"}]}, "objective": {"name": "score", "direction": "maximize"},
       "summary": {"best": best}, "results": res}
def dump(name, change):
    c = json.loads(json.dumps(doc))
    change(c)
    json.dump(c, open(d + "/" + name, "w"))
dump("full.json", lambda c: None)
def wrong(c): c["results"][2]["params"]["a"] = "abc"
dump("wrong.json", wrong)
def missing(c): del c["results"][1]["params"]["a"]
dump("missing.json", missing)
def outside(c):  # a configuration of an older spec: a = 9, f = 1.0
    c["results"].append(dict(c["results"][0], index=32, params={"a": 9, "f": 1.0, "s": "x", "on": True}))
dump("outside.json", outside)
def strings(c):  # the int param recorded as a string param: another spec's recording
    c["spec"]["params"][0]["type"] = "string"
    for r in c["results"]:
        r["params"]["a"] = str(r["params"]["a"])
dump("strings.json", strings)
def whole(c):  # a float param's whole value written as a JSON integer
    for r in c["results"]:
        if r["params"]["f"] == 2.0:
            r["params"]["f"] = 2
dump("whole.json", whole)
PY
s=$tmp/s.tune

# ---- a value of another JSON type than its param's: refused by every reader ----
for cmd in "emit t4" "emit csv" "emit header" "report"; do
    $cutune $cmd "$tmp/wrong.json" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "$cmd: \"abc\" for an int param: exit 3 (got $rc)" test $rc -eq 3
    check "$cmd: the file and the JSON path named" grep -qF 'wrong.json: results[2].params.a: "abc" is not an integer' "$tmp/err"
done

# ---- a missing value: named by its JSON path ----
for cmd in "emit t4" "emit csv"; do
    $cutune $cmd "$tmp/missing.json" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "$cmd: a missing value: exit 3 (got $rc)" test $rc -eq 3
    check "$cmd: a missing value named by its path" grep -qF 'missing.json: results[1].params.a: missing' "$tmp/err"
done

# ---- a value outside the spec's domain: left out where matched to the spec ----
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy random --budget 8 --repeat 3 --format json \
    >"$tmp/sim_full" 2>"$tmp/err"
check "simulate over the full recording exits 0" test $? -eq 0
"$cutune" simulate "$s" --results "$tmp/outside.json" --strategy random --budget 8 --repeat 3 --format json \
    >"$tmp/sim_outside" 2>"$tmp/err"
check "simulate: an entry outside the domain is left out (exit 0)" test $? -eq 0
check "simulate: the same runs as without it" python3 -c "
import json; a=json.load(open('$tmp/sim_full')); b=json.load(open('$tmp/sim_outside'))
del a['results'], b['results']; assert a==b and a['space']==32, (a, b)"
"$cutune" emit csv "$tmp/outside.json" >"$tmp/csv" 2>"$tmp/err"
check "emit csv loads a file with a value outside the spec's domain" test $? -eq 0
check "... and writes its row as recorded" grep -q '^32,0,9,1.0,x,true,' "$tmp/csv"

# ---- a value of another type than the spec's param: not of its domain ----
"$cutune" simulate "$s" --results "$tmp/strings.json" --strategy random --budget 8 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "simulate: the string \"1\" is not the int 1: exit 3 (got $rc)" test $rc -eq 3
check "simulate: ... the recording does not cover the space" grep -q 'does not cover the space: 32 of its 32' "$tmp/err"
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy auto --budget 8 --prior "$tmp/strings.json" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--prior: another type's recording holds no configuration of the space: exit 3 (got $rc)" test $rc -eq 3
check "--prior: ... says so" grep -q "none of its configurations is one of this spec's space" "$tmp/err"

# ---- a float param's whole value written as a JSON integer: the float it is ----
"$cutune" emit csv "$tmp/whole.json" >"$tmp/csv_whole" 2>"$tmp/err"
check "emit csv of whole.json exits 0" test $? -eq 0
"$cutune" emit csv "$tmp/full.json" >"$tmp/csv_full" 2>"$tmp/err"
check "CSV: f = 2 reads back as the float 2.0, as the same run written with 2.0" cmp -s "$tmp/csv_whole" "$tmp/csv_full"
"$cutune" emit t4 "$tmp/whole.json" >"$tmp/t4" 2>"$tmp/err"
check "T4: the values typed (a float a real, a bool a boolean, a string a string)" python3 -c "
import json; d=json.load(open('$tmp/t4'))
c=[r['configuration'] for r in d['results']]
assert len(c)==32 and all(type(x['a']) is int and type(x['f']) is float and type(x['s']) is str and type(x['on']) is bool for x in c), c[:3]
assert c[2]=={'a':0,'f':0.5,'s':'y','on':True} and c[-1]=={'a':3,'f':2.0,'s':'y','on':False}, (c[2], c[-1])"
"$cutune" emit header --spec "$s" "$tmp/whole.json" >"$tmp/h" 2>"$tmp/err"
check "header from whole.json exits 0" test $? -eq 0
# the best: a = 3, f = 2.0, s = "y", on = true (10 + 6 + 1 + 1 = 18)
check "header: the winner's values as C literals of their types" grep -qzE \
    '#define K_A 3.#define K_F 2\.0.#define K_S "y".#define K_ON 1' "$tmp/h"
finish
