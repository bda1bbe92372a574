#!/usr/bin/env bash
# simulate.sh CUTUNE SOURCE_DIR - `cutune simulate` end to end over a small recorded run
# written here (synthetic outcomes: the objective is a formula of the params): results,
# reproducibility, JSON, and the errors (another spec, missing configurations, bad
# budgets, an unknown strategy). Run by ctest.
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
    param a in 0 .. 9;
    param b in 0 .. 9;
    param c in [1, 2, 4, 8];
    require a + b <= 12;
    block 32; grid 1;
    metric score = 1.0 / time_s;
    objective maximize score;
}
TUNE
# The recording: every valid configuration (by hand: a + b <= 12); objective
# 100 - (a-7)^2 - (b-3)^2 - |log2 c - 2|, one failure at a = b = 0, best (7, 3, 4) = 100.
python3 - "$tmp" <<'PY'
import json, math, sys
d = sys.argv[1]
res = []
for a in range(10):
    for b in range(10):
        for c in (1, 2, 4, 8):
            if a + b > 12:
                continue
            obj = 100 - (a - 7) ** 2 - (b - 3) ** 2 - abs(math.log2(c) - 2)
            ok = not (a == 0 and b == 0)
            t = 1.0 / obj
            res.append({"index": len(res), "params": {"a": a, "b": b, "c": c},
                        "status": "ok" if ok else "wrong", "objective": obj if ok else None,
                        "block": [32, 1, 1], "grid": [1, 1, 1],
                        "time_ms": {"median": t, "min": t, "max": t, "q1": t, "q3": t} if ok else None,
                        "resources": {"registers": 32}, "occupancy": {"theoretical": 0.5},
                        "gpu_seconds": 0.1, "compile_seconds": 0.2})
doc = {"format": "cutune-results", "version": 1, "spec": {"kernel": "k", "params": [
       {"name": "a", "type": "int"}, {"name": "b", "type": "int"}, {"name": "c", "type": "int"}]},
       "objective": {"name": "score", "direction": "maximize"}, "results": res}
json.dump(doc, open(d + "/full.json", "w"))
short = dict(doc, results=res[:-3])
json.dump(short, open(d + "/short.json", "w"))
other = json.loads(json.dumps(doc)); other["spec"]["kernel"] = "gemm"
json.dump(other, open(d + "/other.json", "w"))
renamed = json.loads(json.dumps(doc)); renamed["spec"]["params"][2]["name"] = "d"
for r in renamed["results"]:
    r["params"]["d"] = r["params"].pop("c")
json.dump(renamed, open(d + "/renamed.json", "w"))
# Files that simulate used to read while emit refused them: another format, a later
# version, entries without their launch (block, grid).
json.dump(dict(doc, format="kernel_tuner"), open(d + "/format.json", "w"))
json.dump(dict(doc, version=3), open(d + "/v2.json", "w"))
bare = json.loads(json.dumps(doc))
for r in bare["results"]:
    del r["block"], r["grid"]
json.dump(bare, open(d + "/bare.json", "w"))
# As a run with a final race leaves it: the optimum provisional (placed by a few samples,
# past the race's limit), every configuration with an odd a pruned (behind, few samples).
marked = json.loads(json.dumps(doc))
for r in marked["results"]:
    p = r["params"]
    if (p["a"], p["b"], p["c"]) == (7, 3, 4):
        r["provisional"] = True
    elif p["a"] % 2 and r["status"] == "ok":
        r["pruned"] = True
json.dump(marked, open(d + "/marked.json", "w"))
PY
s=$tmp/s.tune
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy exhaustive >"$tmp/out" 2>"$tmp/err"
check "exhaustive simulate exits 0" test $? -eq 0
check "the true best is the formula's optimum" grep -q '^true best  *score 100 ' "$tmp/out"
check "exhaustive without a budget finds it" grep -q 'median 1.0000' "$tmp/out"
# the best is #270 (from 0): listing order finds it on the 271st evaluation
check "exhaustive: found at 271" grep -qE '^ +1 +0 +316 +0 +100 +1.0000 +271 ' "$tmp/out"
# by hand: 100 (a, b) pairs less the 21 with a + b >= 13 = 79, times 4 values of c = 316; 4 fail (a = b = 0)
check "the space is counted" grep -q '^space  *316 valid configurations, 312 ran correctly' "$tmp/out"
# A provisional or pruned entry's objective is a measurement from fewer samples: it ran
# correctly, and a provisional optimum is still the true best (and a prior's best).
"$cutune" simulate "$s" --results "$tmp/marked.json" --strategy exhaustive >"$tmp/out" 2>"$tmp/err"
check "provisional and pruned entries: exit 0" test $? -eq 0
check "provisional and pruned entries ran correctly" grep -q '^space  *316 valid configurations, 312 ran correctly' "$tmp/out"
check "a provisional optimum is the true best" grep -q '^true best  *score 100 (#270)' "$tmp/out"
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy auto --budget 5 --repeat 3 --prior "$tmp/marked.json" \
    --format json >"$tmp/jp" 2>"$tmp/err"
check "--prior with a provisional optimum: found on the first evaluation" python3 -c "
import json; d=json.load(open('$tmp/jp')); assert all(r['ratio']==1 and r['best_at']==1 for r in d['runs']), d"
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy random --budget 10 --repeat 5 --seed 7 \
    --format json >"$tmp/j1" 2>"$tmp/err"; check "random json exits 0" test $? -eq 0
check "json: five runs of 10 evaluations, seeds 7..11" python3 -c "
import json,sys; d=json.load(open('$tmp/j1')); r=d['runs']
assert len(r)==5 and all(x['evaluations']==10 for x in r) and [x['seed'] for x in r]==[7,8,9,10,11], r
assert all(0<x['ratio']<=1 for x in r) and d['budget']==10 and d['true_best']==100"
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy random --budget 10 --repeat 5 --seed 7 \
    --format json >"$tmp/j2" 2>&1
check "same seed, same runs" cmp -s "$tmp/j1" "$tmp/j2"
# The pipeline, by hand: 10 variants of 0.2 s compile and 0.1 s GPU asked at once. On 2
# compile threads, compiles end at 0.2, 0.2, 0.4, 0.4 ... 1.0, 1.0; the GPU runs each when
# it is ready and free: the last two from 1.0 to 1.2. The bound: max(10 * 0.2 / 2, 10 * 0.1) = 1.0.
# On 1 thread: compiles end at 0.2 ... 2.0, the last GPU run at 2.1; bound 2.0.
for tb in "2 1.2 1.0" "1 2.1 2.0"; do
    set -- $tb
    "$cutune" simulate "$s" --results "$tmp/full.json" --strategy random --budget 10 --threads $1 \
        --format json >"$tmp/jt" 2>"$tmp/err"
    check "--threads $1: wall $2 s, bound $3 s" python3 -c "
import json; d=json.load(open('$tmp/jt')); r=d['runs'][0]
assert d['threads']==$1 and abs(r['simulated_seconds']-$2)<1e-9 and abs(r['bound_seconds']-$3)<1e-9, r"
done
# A binary is compiled once however many launches share it (a param `as none` reaches the
# kernel through blockDim only): 8 configurations of 2 binaries (x), 0.5 s of compile and
# 0.1 s of GPU each, on 1 thread. Compiles end at 0.5 (x = 1) and 1.0 (x = 2); the four of
# x = 1 run from 0.5 to 0.9, those of x = 2 from 1.0 to 1.4. Bound max(2 * 0.5, 8 * 0.1) = 1.0.
# (Charged per configuration it would be a wall of 4.1 and a bound of 4.0.)
cat >"$tmp/launch.tune" <<'TUNE'
kernel k from "k.cu" {
    param t in [32, 64, 128, 256] as none;
    param x in [1, 2];
    block t; grid 1;
    objective minimize time;
}
TUNE
python3 - "$tmp" <<'PY2'
import json, sys
d = sys.argv[1]
res = []
for t in (32, 64, 128, 256):
    for x in (1, 2):
        ms = 1.0 + t / 1000 + x
        res.append({"index": len(res), "params": {"t": t, "x": x}, "status": "ok", "objective": ms,
                    "block": [t, 1, 1], "grid": [1, 1, 1],
                    "time_ms": {"median": ms, "min": ms, "max": ms, "q1": ms, "q3": ms},
                    "resources": {"registers": 32}, "occupancy": {"theoretical": 0.5},
                    "gpu_seconds": 0.1, "compile_seconds": 0.5})
json.dump({"format": "cutune-results", "version": 1, "spec": {"kernel": "k", "params": [
    {"name": "t", "type": "int"}, {"name": "x", "type": "int"}]},
    "objective": {"name": "time", "direction": "minimize"}, "results": res}, open(d + "/launch.json", "w"))
PY2
"$cutune" simulate "$tmp/launch.tune" --results "$tmp/launch.json" --strategy exhaustive --threads 1 \
    --format json >"$tmp/jl" 2>"$tmp/err"
check "launch-only params share a binary: one compile per binary (wall 1.4 s, bound 1.0 s)" python3 -c "
import json; d=json.load(open('$tmp/jl')); r=d['runs'][0]
assert r['evaluations']==8 and abs(r['simulated_seconds']-1.4)<1e-9 and abs(r['bound_seconds']-1.0)<1e-9, r"
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy random --budget 10 --threads 2 >"$tmp/out"
check "text: the wall and the bound in the table" grep -qE '^ +1 +[0-9]+ +10 +0 .* 1\.2 +1  budget$' "$tmp/out"
"$cutune" simulate "$s" --results "$tmp/full.json" --threads 0 2>"$tmp/err"; check "--threads 0: usage (2)" test $? -eq 2
# The default strategy: auto when a budget is given and neither the command line nor the
# spec names one; the spec's own `search` otherwise.
"$cutune" simulate "$s" --results "$tmp/full.json" --budget 20 --format json >"$tmp/jd"
check "a budget and no strategy: auto" python3 -c "
import json; d=json.load(open('$tmp/jd')); assert d['strategy']=='auto' and d['runs'][0]['evaluations']==20, d"
"$cutune" simulate "$s" --results "$tmp/full.json" --format json >"$tmp/jd"
check "no budget, no strategy: exhaustive" python3 -c "
import json; d=json.load(open('$tmp/jd')); assert d['strategy']=='exhaustive', d"
sed 's/objective maximize score;/objective maximize score; search random;/' "$s" >"$tmp/named.tune"
"$cutune" simulate "$tmp/named.tune" --results "$tmp/full.json" --budget 20 --format json >"$tmp/jd"
check "a budget and the spec's search random: random" python3 -c "
import json; d=json.load(open('$tmp/jd')); assert d['strategy']=='random', d"
sed 's/objective maximize score;/objective maximize score; search auto(budget = 30, seed = 3);/' "$s" >"$tmp/auto.tune"
"$cutune" simulate "$tmp/auto.tune" --results "$tmp/full.json" --format json >"$tmp/jd"
check "search auto(budget = 30) in the spec" python3 -c "
import json; d=json.load(open('$tmp/jd')); assert d['strategy']=='auto' and d['budget']==30 and d['seed']==3, d"
# A `search` that names no strategy: auto, with the settings every strategy takes.
sed 's/objective maximize score;/objective maximize score; search(budget = 30, seed = 3);/' "$s" >"$tmp/unnamed.tune"
"$cutune" simulate "$tmp/unnamed.tune" --results "$tmp/full.json" --format json >"$tmp/jd"
check "search(budget = 30, seed = 3): auto, 30 evaluations, seed 3" python3 -c "
import json; d=json.load(open('$tmp/jd')); r=d['runs'][0]
assert d['strategy']=='auto' and d['budget']==30 and d['seed']==3 and r['evaluations']==30, d"
"$cutune" simulate "$tmp/unnamed.tune" --results "$tmp/full.json" --strategy random --format json >"$tmp/jd"
check "search(budget = 30) with --strategy random: random, the spec's budget" python3 -c "
import json; d=json.load(open('$tmp/jd')); assert d['strategy']=='random' and d['budget']==30, d"
sed 's/objective maximize score;/objective maximize score; search;/' "$s" >"$tmp/bare.tune"
"$cutune" simulate "$tmp/bare.tune" --results "$tmp/full.json" --format json >"$tmp/jd"
check "search; without a budget: auto over the whole space (316)" python3 -c "
import json; d=json.load(open('$tmp/jd')); r=d['runs'][0]
assert d['strategy']=='auto' and r['evaluations']==316 and r['stop_reason']=='space exhausted', d"
"$cutune" simulate "$tmp/bare.tune" --results "$tmp/full.json" --budget 12 --format json >"$tmp/jd"
check "search; with --budget 12: auto, 12 evaluations" python3 -c "
import json; d=json.load(open('$tmp/jd')); assert d['strategy']=='auto' and d['runs'][0]['evaluations']==12, d"
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy local --budget 10% --format json >"$tmp/j3"
check "a percentage budget is of the space (10% of 316, rounded up = 32)" python3 -c "
import json; d=json.load(open('$tmp/j3')); assert d['budget']==32 and d['runs'][0]['evaluations']==32, d"
for st in anneal genetic guided; do
    "$cutune" simulate "$s" --results "$tmp/full.json" --strategy $st --budget 50 --patience 20 >/dev/null 2>&1
    check "$st runs" test $? -eq 0
done
# --prior: a recording of the same kernel guides auto (here the landscape itself: its
# best is the first configuration tried, so every seed finds the optimum at once).
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy auto --budget 5 --repeat 5 --prior "$tmp/full.json" \
    --format json >"$tmp/jp" 2>"$tmp/err"
check "--prior: exit 0" test $? -eq 0
check "--prior: the optimum on the first evaluation" python3 -c "
import json; d=json.load(open('$tmp/jp')); assert all(r['ratio']==1 and r['best_at']==1 for r in d['runs']), d"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(d + "/full.json"))
far = json.loads(json.dumps(doc))
for r in far["results"]:
    r["params"]["c"] = 3  # not a value of c's domain
json.dump(far, open(d + "/far.json", "w"))
sized = {"format": "cutune-results", "version": 2, "spec": dict(doc["spec"], size=["n"]),
         "objective": doc["objective"], "summary": {},
         "sizes": [{"size": {"n": n}, "settings": {}, "summary": {},
                    "results": [dict(r, size={"n": n}) for r in doc["results"]]} for n in (1, 2)]}
json.dump(sized, open(d + "/sized.json", "w"))
PY
for bad in "other:recorded for kernel 'gemm', but the spec tunes 'k'" "renamed:it has no param 'c'" \
           "far:none of its configurations is one of this spec's space" "sized:a run over 2 problem sizes" \
           "nothere:"; do
    f=${bad%%:*} msg=${bad#*:}
    "$cutune" simulate "$s" --results "$tmp/full.json" --budget 5 --prior "$tmp/full.json" --prior "$tmp/$f.json" \
        >/dev/null 2>"$tmp/err"
    check "--prior $f.json: refused (3)" test $? -eq 3
    if [ "$f" = nothere ]; then want="--prior: cannot read '$tmp/$f.json'"; else want="--prior: $tmp/$f.json: $msg"; fi
    check "--prior $f.json: said ($(head -c 200 "$tmp/err"))" grep -qF -- "$want" "$tmp/err"
done
"$cutune" simulate "$s" --results "$tmp/other.json" 2>"$tmp/err"; check "another kernel's results: exit 3" test $? -eq 3
check "another kernel's results: said" grep -q "the results of another spec" "$tmp/err"
"$cutune" simulate "$s" --results "$tmp/renamed.json" 2>"$tmp/err"; check "other params: exit 3" test $? -eq 3
check "other params: said" grep -q "params are not the spec's" "$tmp/err"
"$cutune" simulate "$s" --results "$tmp/short.json" 2>"$tmp/err"; check "missing configurations: exit 3" test $? -eq 3
check "missing configurations: counted and named" grep -q "does not cover the space: 3 of its 316 valid configurations are missing (the first: a = 9, b = 3, c = 2)" "$tmp/err"
"$cutune" simulate "$s" --results "$tmp/nothere.json" 2>"$tmp/err"; check "unreadable results: exit 3" test $? -eq 3
"$cutune" simulate "$s" --results "$tmp/full.json" --budget 0 2>/dev/null; check "--budget 0: usage (2)" test $? -eq 2
"$cutune" simulate "$s" --results "$tmp/full.json" --budget 150% 2>"$tmp/err"; check "--budget 150%: usage (2)" test $? -eq 2
check "--budget 150%: said" grep -q "percentage above 0 and at most 100" "$tmp/err"
"$cutune" simulate "$s" --results "$tmp/full.json" --budget lots 2>/dev/null; check "--budget lots: usage (2)" test $? -eq 2
"$cutune" simulate "$s" --results "$tmp/full.json" --strategy best 2>"$tmp/err"; check "unknown strategy: exit 2" test $? -eq 2
check "unknown strategy: said" grep -q "unknown search strategy 'best'" "$tmp/err"
"$cutune" simulate "$s" 2>/dev/null; check "no --results: usage (2)" test $? -eq 2
"$cutune" simulate "$s" --results "$tmp/full.json" --repeat 0 2>/dev/null; check "--repeat 0: usage (2)" test $? -eq 2
# One loader for emit and simulate: the same files refused, with the same message.
for f in format v2 bare; do
    "$cutune" simulate "$s" --results "$tmp/$f.json" >/dev/null 2>"$tmp/sim.err"; sim=$?
    "$cutune" emit csv "$tmp/$f.json" >/dev/null 2>"$tmp/emit.err"; emit=$?
    check "$f.json: simulate refuses it (3)" test $sim -eq 3
    check "$f.json: emit refuses it (3)" test $emit -eq 3
    msg=$(sed -n 's/^cutune emit: //p' "$tmp/emit.err")
    check "$f.json: the same message ($msg)" grep -qF -- "$msg" "$tmp/sim.err"
done
check "bare.json: what is missing is said" grep -q 'not a cutune results file: an entry.s "block" is not 3 numbers' "$tmp/sim.err"
"$cutune" simulate "$s" --results "$tmp/format.json" 2>"$tmp/err" >/dev/null
check "format.json: the format is said" grep -q "format.json' is not a cutune results file: its \"format\"" "$tmp/err"
"$cutune" simulate "$s" --results "$tmp/v2.json" 2>"$tmp/err" >/dev/null
check "v2.json: the version is said" grep -q "version 3; this cutune reads versions 1 and 2" "$tmp/err"
# The summary of `cutune SPEC` names the search the run makes, not only the spec's: a
# budget on a spec without `search` is auto's, --strategy names its own (no GPU needed:
# the summary comes before the compiles, of which --limit leaves two).
for run in "exhaustive:" "auto:--budget 5" "random:--strategy random --budget 5"; do
    want=${run%%:*}
    # shellcheck disable=SC2086 # the options are words
    "$cutune" tune "$s" --limit 2 --no-cache ${run#*:} >"$tmp/tune.out" 2>&1
    check "tune ${run#*:}: the summary says search $want" grep -qx "search  *$want" "$tmp/tune.out"
done
finish
