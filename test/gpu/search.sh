#!/usr/bin/env bash
# search.sh CUTUNE SOURCE_DIR - search strategies on a GPU, over examples/sweep.tune
# (312 valid configurations): random under a budget measures exactly the budget, the
# results record the search, the same seed measures the same configurations, a re-run
# with another seed reads back every journal entry at no cost (and an exhaustive run
# under a budget on that journal too), guided, genetic, local and anneal run to their
# budgets, and an exhaustive run recorded here lets `cutune simulate` replay a strategy
# over it. Headers go to the temp folder (--header), never into examples/.
# Exits 77 (ctest: skipped) when there is no GPU.
# FLEET=1 (several GPUs; ctest's *-fleet variant): the tuning runs get --devices with two GPUs
# (test/gpu/fleet_args.sh: GPUs 0 and 1, or two workers sharing GPU 0): the same checks
# with two GPU workers fed by one compile pool.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe gpu
. "$(dirname "$0")/../cli/lib.sh.inc"
FLEET_ARGS=""
[ "${FLEET:-0}" = 1 ] && FLEET_ARGS=$(bash "$src/test/gpu/fleet_args.sh" "$cutune") && echo "fleet: $FLEET_ARGS"
gpu_tmp
spec=$src/examples/sweep.tune
ordinals() { python3 -c "import json,sys; print(sorted(r['index'] for r in json.load(open(sys.argv[1]))['results']))" "$1"; }

"$cutune" "$spec" ${FLEET_ARGS:-} --strategy random --budget 30 --seed 5 --results "$tmp/a.json" --header "$tmp/a.h" >"$tmp/out" 2>"$tmp/err"
check "random --budget 30 exits 0" test $? -eq 0
cat "$tmp/err" | tail -5
check "the header went where --header says" grep -qF "header: $tmp/a.h" "$tmp/err"
check "the header was written there" test -s "$tmp/a.h"
check "stderr says what the search did" grep -q "search: random (seed 5): 30 configurations measured; stopped by budget" "$tmp/err"
check "30 results, the search recorded" python3 -c "
import json; d=json.load(open('$tmp/a.json')); s=d['settings']['search']
assert len(d['results'])==30 and s=={'strategy':'random','seed':5,'budget':30,'time_budget_s':None,'patience':None,
  'evaluations':30,'screened':0,'stopped_by':'budget'}, s
assert d['settings']['strategy']=='random' and len(set(r['index'] for r in d['results']))==30"
"$cutune" "$spec" --strategy random --budget 30 --seed 5 --results "$tmp/b.json" --journal "$tmp/b.journal" --header "$tmp/b.h" >/dev/null 2>&1
check "same seed, same configurations" test "$(ordinals "$tmp/a.json")" = "$(ordinals "$tmp/b.json")"
# A re-run with the same journal: the 30 come back free, 30 new ones are measured.
"$cutune" "$spec" --strategy random --budget 30 --seed 6 --results "$tmp/b.json" --journal "$tmp/b.journal" --header "$tmp/b.h" >/dev/null 2>"$tmp/err"
# Every journal entry joins the results, not only those the new seed happens to draw.
check "resumed run: 30 measured, 30 read back" python3 -c "
import json; d=json.load(open('$tmp/b.json')); a=json.load(open('$tmp/a.json'))
s=d['settings']['search']; res=d['results']
assert s['evaluations']==30 and sum(r['resumed'] for r in res)==30, (s, d['summary'])
assert len(res)==60 and len(set(r['index'] for r in res))==60, len(res)
assert set(r['index'] for r in res if r['resumed'])==set(r['index'] for r in a['results']), 'read back: not the first run'
ok=[r['objective'] for r in res if r['status']=='ok' and not r['pruned']]
assert res[d['summary']['best']]['objective']==max(ok), 'the best is not the best of all 60'"
# An exhaustive run on that journal under a budget: 10 measured, and all 60 entries in
# its results, those past the point where the budget stopped it included.
"$cutune" "$spec" --budget 10 --results "$tmp/b.json" --journal "$tmp/b.journal" --header "$tmp/b.h" >/dev/null 2>"$tmp/err"
check "exhaustive --budget 10 on the journal exits 0" test $? -eq 0
check "exhaustive: 10 measured, the whole journal read back" python3 -c "
import json; d=json.load(open('$tmp/b.json')); res=d['results']
assert d['settings']['search']['evaluations']==10 and sum(r['resumed'] for r in res)==60, (d['settings']['search'], d['summary'])
assert len(res)==70 and len(set(r['index'] for r in res))==70, len(res)"
for st in genetic guided local anneal; do
    "$cutune" "$spec" ${FLEET_ARGS:-} --strategy $st --budget 40 --seed 1 --results "$tmp/$st.json" --header "$tmp/$st.h" >/dev/null 2>"$tmp/err"
    check "$st --budget 40 exits 0" test $? -eq 0
    check "$st measured at most 40" python3 -c "
import json; d=json.load(open('$tmp/$st.json')); s=d['settings']['search']
assert s['strategy']=='$st' and s['evaluations']<=40 and len(d['results'])<=40+s['screened'], s"
done
"$cutune" "$spec" --results "$tmp/full.json" --header "$tmp/full.h" >/dev/null 2>&1
check "the exhaustive recording" test -s "$tmp/full.json"
"$cutune" simulate "$spec" --results "$tmp/full.json" --strategy genetic --budget 10% --repeat 5 >"$tmp/sim" 2>&1
check "simulate over it" grep -q "best found / true best: median" "$tmp/sim"
cat "$tmp/sim" | tail -1
finish
