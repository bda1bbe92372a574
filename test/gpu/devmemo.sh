#!/usr/bin/env bash
# devmemo.sh CUTUNE SOURCE_DIR - the device query's answer kept for the next run
# (runtime/devmemo.h), on a real GPU: the first query writes the memo into the cache
# folder, the next one answers the same from it; CUTUNE_DEVICE_MEMO=0 neither reads nor
# writes it; a memo that lies about the GPU (its SM count edited) stops the run with a
# message that names the memo, which is removed, and the run after it is right again.
# Skipped without a GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe
gpu_tmp
fails=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi; }
memo() { ls "$CUTUNE_CACHE_DIR"/devices-*.json 2>/dev/null; }

CUTUNE_DEVICE_MEMO=0 "$cutune" devices --format json >"$tmp/off.json" 2>&1
check '[ -z "$(memo)" ]' "CUTUNE_DEVICE_MEMO=0: no memo written"
"$cutune" devices --format json >"$tmp/first.json" 2>&1
check '[ -n "$(memo)" ]' "the first query wrote $(basename "$(memo)" 2>/dev/null)"
"$cutune" devices --format json >"$tmp/second.json" 2>&1
check 'cmp -s "$tmp/first.json" "$tmp/second.json" && cmp -s "$tmp/off.json" "$tmp/first.json"' \
    "the answer from the memo is the driver's, byte for byte"
f=$(memo)
python3 - "$f" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for dev in d["devices"]:
    dev["sm_count"] -= 4
json.dump(d, open(sys.argv[1], "w"))
PY
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$tmp/a.json" --fresh >"$tmp/a.out" 2>&1
rc=$?
cat "$tmp/a.out"
check '[ $rc -ne 0 ]' "a memo unlike the GPU stops the run (exit $rc)"
check 'grep -q "out of date and is removed; run again" "$tmp/a.out"' "the message names the stale memo"
check '[ ! -e "$f" ]' "the stale memo is removed"
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$tmp/b.json" --fresh >"$tmp/b.out" 2>&1
rc=$?
check '[ $rc -eq 0 ]' "the next run asks the driver and tunes (exit $rc)"
"$cutune" devices --format json >"$tmp/third.json" 2>&1
check 'cmp -s "$tmp/first.json" "$tmp/third.json" && [ -n "$(memo)" ]' "the memo is written again, with the driver's answer"
echo "$fails checks failed"
[ $fails -eq 0 ]
