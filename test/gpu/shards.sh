#!/usr/bin/env bash
# shards.sh CUTUNE SOURCE_DIR - sharded runs on a GPU. test/gpu/tiny.tune (15 variants: ok,
# wrong, cannot launch) is tuned four ways: in one process; as --shard 0/2 and 1/2 joined
# by cutune merge; with --devices on two GPUs (GPUs 0 and 1 when the machine has two of
# one model, else two workers sharing GPU 0: test/gpu/fleet_args.sh): the one compile pool
# feeding both, each variant on whichever is free, one journal, the spread; and as two
# shards each with those --devices (a shard per host on all its GPUs), merged. Each way
# must hold every
# configuration exactly once, each with the one-process run's status (ok, wrong,
# cannot launch), and a winner whose median is within 10 % of the one-process winner's
# (near-ties may change places). Exits 77 without a GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe shards
gpu_tmp
spec=$src/test/gpu/tiny.tune
devices=$(bash "$src/test/gpu/fleet_args.sh" "$cutune")
echo "fleet: $devices"
fail() { echo "FAIL: $*"; exit 1; }
"$cutune" --color never "$spec" --results "$tmp/one.json" -q >/dev/null 2>"$tmp/err1" ||
    { cat "$tmp/err1"; fail "the one-process run"; }
for i in 0 1; do
    "$cutune" --color never "$spec" --shard "$i/2" --results "$tmp/sh.json" -q >/dev/null 2>"$tmp/err.$i" ||
        { cat "$tmp/err.$i"; fail "shard $i/2"; }
done
"$cutune" merge "$tmp/sh.shard-0-of-2.json" "$tmp/sh.shard-1-of-2.json" -o "$tmp/merged.json" ||
    fail "cutune merge"
"$cutune" --color never "$spec" $devices --results "$tmp/dev.json" >"$tmp/dev.out" 2>"$tmp/dev.err"
rc=$?
cat "$tmp/dev.out" "$tmp/dev.err"
[ $rc -eq 0 ] || fail "$devices exited $rc"
grep -q "2 GPUs, one compile pool" "$tmp/dev.err" || fail "--devices said nothing of its GPUs"
grep -q "^spread: GPU [01]'s median time over GPU 0's" "$tmp/dev.err" || fail "--devices printed no spread"
# A shard per host driving all of its GPUs (--shard with --devices), then merged.
for i in 0 1; do
    "$cutune" --color never "$spec" --shard "$i/2" $devices --results "$tmp/hd.json" -q >/dev/null \
        2>"$tmp/hd.$i" || { cat "$tmp/hd.$i"; fail "shard $i/2 with $devices"; }
done
"$cutune" merge "$tmp/hd.shard-0-of-2.json" "$tmp/hd.shard-1-of-2.json" -o "$tmp/hd.json" ||
    fail "cutune merge of the shards run with --devices"
python3 - "$tmp/one.json" "$tmp/merged.json" "$tmp/dev.json" "$tmp/hd.json" "${devices#--devices }" <<'PY' ||
    fail "the checks above"
import json, sys
gpus = [int(g) for g in sys.argv[5].split(",")]
one, *others = (json.load(open(p)) for p in sys.argv[1:5])
def by_ordinal(d):
    out = {}
    for r in d["results"]:
        out.setdefault(r["index"], []).append(r)
    return out
want = {o: rs[0]["status"] for o, rs in by_ordinal(one).items()}
best = one["results"][one["summary"]["best"]]
fails = []
for name, d in zip(("shards + merge", "--devices", "shards with --devices + merge"), others):
    got = by_ordinal(d)
    if sorted(got) != sorted(want):
        fails.append("%s: configurations %s, want %s" % (name, sorted(got), sorted(want)))
    dup = [o for o, rs in got.items() if len(rs) > 1]
    if dup:
        fails.append("%s: configurations more than once: %s" % (name, dup))
    diff = [o for o in want if o in got and got[o][0]["status"] != want[o]]
    if diff:
        fails.append("%s: statuses differ at %s" % (name, diff))
    if "shard" in d["settings"]:
        fails.append("%s: the merged file still says it is a shard" % name)
    b = d["results"][d["summary"]["best"]]
    ratio = b["time_ms"]["median"] / best["time_ms"]["median"]
    print("%s: %d configurations, winner #%d (%.4f ms) against #%d (%.4f ms): %.3f" % (
        name, len(got), b["index"], b["time_ms"]["median"], best["index"], best["time_ms"]["median"], ratio))
    if not 0.9 <= ratio <= 1.1:
        fails.append("%s: the winner's median is %.3fx the one-process winner's" % (name, ratio))
dev = others[1] # --devices: the run says which GPUs, which ran what, and the spread
if dev["settings"].get("devices") != gpus:
    fails.append("--devices: settings.devices is %r, not %r" % (dev["settings"].get("devices"), gpus))
ran = [r for r in dev["results"] if r["status"] in ("ok", "wrong") and r.get("same_code_as") is None]
if not ran or any(r.get("gpu") not in gpus for r in ran):
    fails.append("--devices: a variant that ran does not say its GPU")
sp = dev["summary"].get("device_spread") or []
if len(sp) != 1 or sp[0]["gpu"] != gpus[1] or sp[0]["variants"] < 1 or not 0.5 < sp[0]["median"] < 2:
    fails.append("--devices: summary.device_spread is %r" % sp)
journal = [json.loads(l) for l in open(sys.argv[3] + ".journal").read().splitlines()[1:]]
if sorted(set(l["index"] for l in journal)) != sorted(want):
    fails.append("--devices: the one journal does not hold every configuration")
if gpus[0] != gpus[1]: # two GPUs: each measured some (15 variants, two workers)
    print("variants per GPU:", {g: sum(r.get("gpu") == g for r in ran) for g in gpus})
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
echo "shards test passed"
