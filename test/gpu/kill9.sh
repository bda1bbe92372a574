#!/usr/bin/env bash
# kill9.sh CUTUNE SOURCE_DIR [SPEC] - tunes SPEC (default: examples/sweep.tune), killing
# the tuner with SIGKILL at random moments several times and resuming each time, then
# lets it finish; the journal must hold every configuration once (or a contender's
# provisional line, then its final race's line: never two measurements of the same kind;
# a contender past the final race's limit keeps its provisional line, as the results do)
# and the final results must cover the whole space. Exits 77 (skipped) without a GPU.
# FLEET=1 (several GPUs; ctest's kill9-fleet): the odd-numbered runs use --devices with two GPUs
# (test/gpu/fleet_args.sh), the others and the last one do not, so the journal is resumed
# whatever ran where.
set -u
cutune=$1
src=$2
spec=${3:-$src/examples/sweep.tune}
kills=${KILLS:-4}
. "$src/test/gpu/lib.sh.inc"
gpu_probe
FLEET_ARGS=""
[ "${FLEET:-0}" = 1 ] && FLEET_ARGS=$(bash "$src/test/gpu/fleet_args.sh" "$cutune") && echo "fleet: $FLEET_ARGS"
gpu_tmp
results=$tmp/r.json
journal=$results.journal
for i in $(seq "$kills"); do
    args=""
    [ $((i % 2)) -eq 1 ] && args=${FLEET_ARGS:-} # odd runs on the fleet, even ones on one GPU
    "$cutune" --color never "$spec" $args --results "$results" --header "$tmp/tuned.h" >"$tmp/out.$i" 2>&1 &
    pid=$!
    # somewhere in the run: after the set-up (about 0.5 s on the H100 since the speed work),
    # before the end (a whole run of sweep.tune takes about 4.5 s)
    sleep "$(awk -v s="$RANDOM" 'BEGIN { srand(s); printf "%.1f", 0.7 + rand() * 2.5 }')"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    lines=$(($(wc -l <"$journal" 2>/dev/null || echo 1) - 1))
    echo "kill $i: the journal holds $lines outcomes"
done
"$cutune" --color never "$spec" --results "$results" --header "$tmp/tuned.h" >"$tmp/out.final" 2>&1 || {
    echo "FAIL: the last run failed"
    cat "$tmp/out.final"
    exit 1
}
grep -E 'journal:|variants:' "$tmp/out.final"
python3 - "$journal" "$results" <<'PY'
import collections, json, sys
lines = open(sys.argv[1]).read().splitlines()
head = json.loads(lines[0])
records = [json.loads(l) for l in lines[1:]]
counts = collections.Counter(r["index"] for r in records)
res = json.load(open(sys.argv[2]))
n = len(res["results"])
# A configuration's earlier lines may only be provisional (a contender placed by a few
# samples, timed in full by a later final race); its last line is provisional only when
# the results say so too (a contender past the final race's 16, never timed in full).
lines_of = collections.defaultdict(list)
for r in records:
    lines_of[r["index"]].append(r)
final = {e["index"]: e for e in res["results"]}
dups = [k for k, ls in lines_of.items()
        if (ls[-1].get("provisional") and not final.get(k, {}).get("provisional"))
        or any(not l.get("provisional") for l in ls[:-1])]
ok = head["format"] == "cutune-journal" and not dups and len(counts) == n and set(counts) == set(range(n))
finals = sum(1 for ls in lines_of.values() if len(ls) > 1)
print("journal: %d outcomes for %d configurations, %d timed in full by a final race, %d measured twice; "
      "results resumed: %d" % (len(records), n, finals, len(dups), res["summary"]["resumed"]))
sys.exit(0 if ok else 1)
PY
