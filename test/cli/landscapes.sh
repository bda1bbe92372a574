#!/usr/bin/env bash
# landscapes.sh CUTUNE SOURCE_DIR - auto over recorded landscapes (bench/landscapes/, the
# Kernel Tuner hub's convolution): with the same kernel's recording on another GPU as a
# prior (--prior), auto reaches 0.95 of the optimum within 25 evaluations in the median of
# 10 seeds, and far better than without it; the figures are reproducible per seed; on a
# held-out landscape away from powers of two (inpoly) auto leads random sampling. The
# landscapes' optima are read from the recordings, not from the code under test. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
land=$src/bench/landscapes
for g in A4000 A6000; do
    gunzip -c "$land/convolution_$g.json.gz" >"$tmp/c$g.json" || { echo "FAIL: cannot unpack convolution_$g"; exit 1; }
done
median() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['ratio']['median'])" "$1"; }
"$cutune" simulate "$land/conv_milo.tune" --results "$tmp/cA6000.json" --strategy auto --budget 25 --repeat 10 \
    --prior "$tmp/cA4000.json" --format json >"$tmp/with.json" 2>"$tmp/err"
check "with an A4000 prior: exit 0 ($(head -c 300 "$tmp/err"))" test $? -eq 0
with=$(median "$tmp/with.json")
check "with an A4000 prior, auto on the A6000 reaches 0.95 at 25 evaluations (median $with)" \
    python3 -c "assert $with >= 0.95"
"$cutune" simulate "$land/conv_milo.tune" --results "$tmp/cA6000.json" --strategy auto --budget 25 --repeat 10 \
    --format json >"$tmp/without.json" 2>"$tmp/err"
without=$(median "$tmp/without.json")
check "the prior helps (median $with with it, $without without)" python3 -c "assert $with > $without"
# The true best as the recording says: the least time among the entries that ran.
check "the true best is the recording's" python3 -c "
import json
rec = json.load(open('$tmp/cA6000.json'))['results']
best = min(r['objective'] for r in rec if r['status'] == 'ok')
assert abs(json.load(open('$tmp/with.json'))['true_best'] - best) < 1e-12 * best"
"$cutune" simulate "$land/conv_milo.tune" --results "$tmp/cA6000.json" --strategy auto --budget 25 --repeat 10 \
    --prior "$tmp/cA4000.json" --format json >"$tmp/again.json" 2>/dev/null
check "the same seeds give the same runs" cmp -s "$tmp/with.json" "$tmp/again.json"
# A held-out landscape whose optimum is not at powers of two (the point-in-polygon test on
# an H100: block_x 896, 9 points a thread): auto's power-of-two prior must not cost it the
# lead over random sampling at 25 evaluations.
gunzip -c "$land/h100/inpoly.json.gz" >"$tmp/inpoly.json" || { echo "FAIL: cannot unpack inpoly"; exit 1; }
for s in auto random; do
    "$cutune" simulate "$land/inpoly.tune" --results "$tmp/inpoly.json" --strategy $s --budget 25 --repeat 10 \
        --format json >"$tmp/ip-$s.json" 2>"$tmp/err"
    check "inpoly, $s: exit 0 ($(head -c 300 "$tmp/err"))" test $? -eq 0
done
check "inpoly: the true best is the recording's (block_x 896, tile 9)" python3 -c "
import json
rec = json.load(open('$tmp/inpoly.json'))['results']
best = min((r for r in rec if r['status'] == 'ok'), key=lambda r: r['objective'])
assert (best['params']['block_x'], best['params']['tile']) == (896, 9), best['params']
assert abs(json.load(open('$tmp/ip-auto.json'))['true_best'] - best['objective']) < 1e-12 * best['objective']"
ip_auto=$(median "$tmp/ip-auto.json")
ip_random=$(median "$tmp/ip-random.json")
check "inpoly at 25 evaluations: auto (median $ip_auto) ahead of random ($ip_random)" \
    python3 -c "assert $ip_auto > $ip_random"
finish
