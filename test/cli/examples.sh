#!/usr/bin/env bash
# examples.sh CUTUNE SOURCE_DIR - every example spec checks and lists cleanly; the
# seeds' specs (the tuned library's) have the spaces their constraints promise, verify their
# outputs, and compile for sm_90 with the resources their studies rely on; and the
# renderers of bench/ (ranking.py, occupancy_table.py) and the runner bench/seeds.sh
# work on results made up for the purpose. No GPU needed. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp

# Every example: check exits 0 without errors, list prints its first variants.
for spec in "$src"/examples/*.tune; do
    name=$(basename "$spec")
    "$cutune" check --color never "$spec" >"$tmp/c.out" 2>"$tmp/c.err"
    check "check $name exits 0" test $? -eq 0
    check "check $name reports no error" bash -c "! grep -q 'error:' '$tmp/c.err'"
    "$cutune" list --color never --limit 3 "$spec" >"$tmp/l.out" 2>"$tmp/l.err"
    check "list --limit 3 $name exits 0" test $? -eq 0
    check "list --limit 3 $name prints variant 0" grep -qE '^ +0 ' "$tmp/l.out"
done

# The seeds' specs: the valid configurations the constraints should leave, worked out
# by hand: reduce 5 blocks x 9 algorithms x 4 ITER; transpose 15 (TILE, ROWS) shapes
# with 32..1024 threads x (2 naive + shared with and without padding); divergence 8
# granularities x 3 ways x 3 blocks; occupancy 9 caps x 7 blocks.
for pair in reduce:180 transpose:60 divergence:72 occupancy:63; do
    name=${pair%%:*}
    want=${pair##*:}
    spec=$src/examples/$name.tune
    "$cutune" check --format json "$spec" >"$tmp/$name.json" 2>"$tmp/$name.err"
    check "$name.tune checks" test $? -eq 0
    check "$name.tune: $want valid configurations" python3 -c "
import json, sys
d = json.load(open('$tmp/$name.json'))
sys.exit(0 if d['valid'] == $want else 1)"
    check "$name.tune verifies its outputs (no warning)" bash -c "! grep -q 'warning' '$tmp/$name.err'"
done

# The stencil over three problem sizes (stencil.tune, `size n in [...]`): 5 block sizes x 4
# items less 1024 x 8 > 4096: 19 valid configurations at each size (the space does not
# depend on n); every variant compiles, and at another size nothing compiles again (the
# code does not depend on n: the compile cache is shared across sizes).
spec=$src/examples/stencil.tune
"$cutune" check --format json "$spec" >"$tmp/stencil.json" 2>"$tmp/stencil.err"
check "stencil.tune checks" test $? -eq 0
check "stencil.tune: three sizes of 19 valid configurations" python3 -c "
import json, sys
d = json.load(open('$tmp/stencil.json'))
sys.exit(0 if d['valid'] == 19 and [s['n'] for s in d['sizes']] == [1 << 20, 1 << 22, 1 << 24] else 1)"
for n in 1048576 4194304 16777216; do
    "$cutune" analyze --arch sm_90 --format json --set n=$n "$spec" >"$tmp/stencil.$n.json" 2>"$tmp/stencil.$n.err"
    check "analyze stencil.tune at n=$n exits 0" test $? -eq 0
    check "analyze stencil.tune at n=$n: every variant compiled, grid cdiv(n, threads * items)" python3 -c "
import json, sys
d = json.load(open('$tmp/stencil.$n.json'))
ok = len(d) == 19
for v in d:
    p = v['params']
    ok = ok and v['compiled'] and v['grid'][0] == -(-$n // (p['threads'] * p['items']))
sys.exit(0 if ok else 1)"
done
check "stencil.tune: the second and third sizes compiled nothing (all from the cache)" \
    bash -c "grep -q ' 0 compiled' '$tmp/stencil.4194304.err' && grep -q ' 0 compiled' '$tmp/stencil.16777216.err'"
# The hooks' examples: the histogram reset before each launch (15 configurations: 4
# block sizes x 4 items per thread, less 128 x 4 under 1024 bytes a block) and the
# float reduction verified by relative L2 norm (5 blocks x 4 items); both check, list
# and compile every variant for sm_90.
for pair in histogram:15 reduce_check:20; do
    name=${pair%%:*}
    want=${pair##*:}
    spec=$src/examples/$name.tune
    "$cutune" check --format json "$spec" >"$tmp/$name.json" 2>"$tmp/$name.err"
    check "$name.tune checks" test $? -eq 0
    check "$name.tune: $want valid configurations" python3 -c "
import json, sys
d = json.load(open('$tmp/$name.json'))
sys.exit(0 if d['valid'] == $want else 1)"
    check "$name.tune: no warning" bash -c "! grep -q 'warning' '$tmp/$name.err'"
    "$cutune" analyze --arch sm_90 --format json "$spec" >"$tmp/$name.a.json" 2>"$tmp/$name.a.err"
    check "analyze $name.tune exits 0" test $? -eq 0
    check "analyze $name.tune: every variant compiled and launchable" python3 -c "
import json, sys
d = json.load(open('$tmp/$name.a.json'))
sys.exit(0 if len(d) == $want and all(v['compiled'] and v['launchable'] for v in d) else 1)"
done
check "histogram.tune: three problem sizes, 1, 8 and 64 MiB" python3 -c "
import json, sys
d = json.load(open('$tmp/histogram.json'))
sys.exit(0 if [s['n'] for s in d['sizes']] == [1 << 20, 1 << 23, 1 << 26] else 1)"
check "histogram.tune resets its bins and reduce_check.tune verifies with l2" bash -c \
    "grep -q '^ *reset bins = zeros;' '$src/examples/histogram.tune' && grep -q ' l2 1e-5;' '$src/examples/reduce_check.tune'"

# Every variant of the seeds' specs compiles for sm_90 (the occupancy study's are also
# allowed 'cannot launch': too many registers per block is part of the study).
for name in reduce transpose divergence occupancy; do
    "$cutune" analyze --arch sm_90 --format json "$src/examples/$name.tune" >"$tmp/$name.a.json" 2>"$tmp/$name.a.err"
    check "analyze $name.tune exits 0" test $? -eq 0
    check "analyze $name.tune: every variant compiled" python3 -c "
import json, sys
d = json.load(open('$tmp/$name.a.json'))
sys.exit(0 if d and all(v['compiled'] and v['registers'] > 0 for v in d) else 1)"
done
check "reduce, transpose, divergence: no spills, all launchable" python3 -c "
import json, sys
ok = True
for name in ['reduce', 'transpose', 'divergence']:
    for v in json.load(open('$tmp/%s.a.json' % name)):
        ok = ok and v['launchable'] and v['spill_stores'] == 0 and v['local_bytes'] == 0
sys.exit(0 if ok else 1)"
check "transpose: the padded tile is one column wider" python3 -c "
import json, sys
d = json.load(open('$tmp/transpose.a.json'))
ok = True
for v in d:
    p = v['params']
    want = 0 if p['VARIANT'] != 2 else p['TILE'] * (p['TILE'] + p['PAD']) * 4
    ok = ok and v['static_smem'] == want
sys.exit(0 if ok else 1)"
# The study's premise: the uncapped kernel needs more than 64 registers, so the caps
# below it change the occupancy, and the lowest caps spill.
check "occupancy: the caps bind, the lowest spill, occupancy follows registers" python3 -c "
import json, sys
d = json.load(open('$tmp/occupancy.a.json'))
free = [v for v in d if v['params']['maxrreg'] == 0]
ok = all(v['registers'] > 64 and v['spill_stores'] == 0 for v in free)
for v in d:
    cap = v['params']['maxrreg']
    ok = ok and (cap == 0 or v['registers'] <= cap)
    ok = ok and (cap not in (32, 40) or v['spill_stores'] > 0)
# 256 threads: warps per SM from the register file alone (64 K registers, allocated per
# warp in units of 256): with 32 registers the whole SM (100 %); uncapped, at most 50 %.
o = {v['params']['maxrreg']: v['occupancy']['occupancy'] for v in d if v['params']['threads'] == 256}
ok = ok and o[32] == 1.0 and o[0] <= 0.5
sys.exit(0 if ok else 1)"

# The renderers, on made-up results: four variants where the highest occupancy is the
# slowest (a disagreement), a variant that was stopped early and one that cannot launch.
python3 - "$tmp/r.json" <<'PY'
import json, sys
def var(i, cap, threads, occ, ms, status='ok', pruned=False):
    timed = status == 'ok'
    return {'index': i, 'params': {'maxrreg': cap, 'threads': threads}, 'status': status,
            'reason': None if timed else 'more registers per block than the hardware allows',
            'kernel': 'k', 'block': [threads, 1, 1], 'grid': [64, 1, 1], 'smem_bytes': 0, 'defines': [],
            'options': [], 'resources': {'registers': 64 if cap == 0 else cap, 'static_smem': 0,
                                         'local_bytes': 0, 'spill_stores': 0 if cap == 0 else 100,
                                         'spill_loads': 0 if cap == 0 else 120},
            'occupancy': {'theoretical': occ, 'limiter': 'registers', 'blocks_per_sm': int(occ * 8),
                          'driver_blocks_per_sm': int(occ * 8) if timed else None},
            'time_ms': {'median': ms, 'min': ms, 'max': ms, 'q1': ms, 'q3': ms} if timed else None,
            'spread': 0.0, 'reps': 3 if pruned else 10, 'batch': 1, 'pruned': pruned,
            'metrics': {'GBps': 2.0 / ms} if timed else {}, 'objective': 2.0 / ms if timed else None,
            'verified': timed, 'max_abs_error': 0.0}
res = [var(0, 0, 128, 0.5, 1.0), var(1, 0, 256, 0.25, 1.2), var(2, 32, 128, 1.0, 2.0),
       var(3, 32, 256, 1.0, 4.0, pruned=True), var(4, 0, 1024, 0.0, None, status='cannot launch')]
d = {'format': 'cutune-results', 'version': 1, 'cutune': '0.0', 'date': 'today',
     'spec': {'path': 'x.tune', 'kernel': 'k', 'kernel_file': 'k.cu',
              'params': [{'name': 'maxrreg', 'type': 'int'}, {'name': 'threads', 'type': 'int'}]},
     'device': {'name': 'Made-up GPU', 'arch': 'sm_90', 'compute_capability': 90, 'sm_count': 1,
                'l2_bytes': 1, 'driver_version': 1},
     'settings': {'strategy': 'exhaustive', 'warmup': 1, 'repeat': 10, 'max_repeat': 10, 'spread': 0.02,
                  'flush_l2': True, 'reference': 'kernel ref'},
     'objective': {'name': 'GBps', 'direction': 'maximize'},
     'summary': {'variants': 5, 'timed': 4, 'wrong': 0, 'failed': 0, 'unlaunchable': 1, 'pruned': 1, 'best': 0,
                 'wall_seconds': 1, 'compile_seconds': 1, 'compile_wall_seconds': 1, 'gpu_seconds': 1,
                 'timing_seconds': 1, 'threads': 1},
     'results': res}
json.dump(d, open(sys.argv[1], 'w'))
PY
python3 "$src/bench/ranking.py" "$tmp/r.json" --ceiling 4 --ceiling-name "copy" --per threads >"$tmp/rank.md" 2>&1
check "ranking.py exits 0" test $? -eq 0
# Best: variant 0, 2.0 GB/s of a ceiling of 4: 50 %.
check "ranking.py: the best as a percentage of the ceiling" grep -q 'maxrreg = 0, threads = 128: .*= \*\*50.0 % of the copy' "$tmp/rank.md"
check "ranking.py: all four timed variants ranked, best first" python3 -c "
import re, sys
text = open('$tmp/rank.md').read().split('Ranking (')[1].split('Not timed')[0]
rows = [l for l in text.splitlines() if re.match(r'\| [0-9]+ \| [0-9]+ \|', l)]
sys.exit(0 if [l.split('|')[2].strip() for l in rows] == ['0', '1', '2', '3'] else 1)"
check "ranking.py: the early-stopped variant is marked" grep -q '3 (stopped)' "$tmp/rank.md"
check "ranking.py: the variant that cannot launch is listed with its reason" grep -q 'cannot launch: more registers' "$tmp/rank.md"
python3 "$src/bench/ranking.py" "$tmp/r.json" --where threads=256 >"$tmp/where.md" 2>&1
check "ranking.py --where keeps only those variants" python3 -c "
import re, sys
text = open('$tmp/where.md').read().split('Ranking (')[1]
rows = [l for l in text.splitlines() if re.match(r'\| [0-9]+ \| [0-9]+ \|', l)]
sys.exit(0 if [l.split('|')[2].strip() for l in rows] == ['1', '3'] else 1)"
python3 "$src/bench/ranking.py" "$tmp/r.json" --per nosuch >/dev/null 2>&1
check "ranking.py --per with an unknown param fails" test $? -ne 0
python3 "$src/bench/occupancy_table.py" "$tmp/r.json" >"$tmp/occ.md" 2>&1
check "occupancy_table.py exits 0" test $? -eq 0
# Variants 2 and 3 (100 %) are slower than 0 (50 %) and 1 (25 %): 4 of the 5 pairs
# that differ in occupancy disagree (0 vs 1 agrees: more occupancy, faster).
check "occupancy_table.py: counts the disagreeing pairs" grep -q 'of 5 pairs .* 4 (80%) disagree' "$tmp/occ.md"
check "occupancy_table.py: marks the slow high-occupancy variant" \
    grep -qE '^\| 4 \| 32 \| 256 \|.*\| yes: 2 \(fastest maxrreg=0, threads=128, 50.0% occ, 4.00x faster\) \|$' "$tmp/occ.md"
check "occupancy_table.py: the fastest is not marked" grep -qE '^\| 1 \| 0 \| 128 \|.*\|  \|$' "$tmp/occ.md"
check "occupancy_table.py: the grid of occupancy / time" grep -qE '^\| 0 \| 50% / 1.000 \| 25% / 1.200 \| - \|$' "$tmp/occ.md"

# persistent.tune (device attributes): without a GPU the device attributes are the --arch table's
# and said to be assumed; the grid is sm_count * blocks_per_sm for the arch asked (132
# SMs for sm_90's H100 SXM5, 108 for sm_80's A100: the vendors' figures); the
# --use_fast_math switch is in the options of exactly the fast variants; -DN (a let
# passed as a define) in every variant's; every variant compiles for sm_90.
spec=$src/examples/persistent.tune
"$cutune" check --color never "$spec" >"$tmp/p.out" 2>"$tmp/p.err"
check "check persistent.tune exits 0" test $? -eq 0
check "check persistent.tune says sm_count is assumed" grep -q '^device  *sm_count 132, max_threads_per_sm 2048  (assumed, no GPU read: sm_90 table: H100 SXM5' "$tmp/p.out"
check "check persistent.tune: 78 valid configurations" grep -q 'space  *96 raw, 78 valid' "$tmp/p.out"
"$cutune" check --color never --format json --arch sm_80 "$spec" >"$tmp/p80.json" 2>"$tmp/p80.err"
check "check --arch sm_80 --format json gives the A100's 108 SMs, assumed" python3 -c "
import json, sys
d = json.load(open('$tmp/p80.json'))['device']
sys.exit(0 if d['attributes']['sm_count'] == 108 and d['assumed'] is True and 'A100' in d['source'] else 1)"
for arch_sms in sm_90:132 sm_80:108; do
    arch=${arch_sms%%:*}
    sms=${arch_sms##*:}
    "$cutune" list --color never --format json --arch "$arch" "$spec" >"$tmp/p-$arch.json" 2>"$tmp/p-$arch.err"
    check "list --arch $arch persistent.tune exits 0" test $? -eq 0
    check "list --arch $arch: grid = $sms * blocks_per_sm, switch and -DN as asked" python3 -c "
import json, sys
vs = json.load(open('$tmp/p-$arch.json'))
ok = len(vs) > 0
for v in vs:
    p = v['params']
    ok = ok and v['grid'][0] == $sms * p['blocks_per_sm']
    ok = ok and ('--use_fast_math' in v['options']) == p['fast']
    ok = ok and '-DN=16777216' in v['defines']
sys.exit(0 if ok else 1)"
done
check "list persistent.tune says on stderr the values are assumed" grep -q 'device attributes: sm_count 132' "$tmp/p-sm_90.err"
"$cutune" analyze --arch sm_90 --format json "$spec" >"$tmp/p.a.json" 2>"$tmp/p.a.err"
check "analyze persistent.tune exits 0" test $? -eq 0
check "analyze persistent.tune: every variant compiled and can launch" python3 -c "
import json, sys
d = json.load(open('$tmp/p.a.json'))
sys.exit(0 if len(d) == 78 and all(v['compiled'] and v['launchable'] for v in d) else 1)"
check "analyze persistent.tune says the values are assumed" grep -q 'device attributes: sm_count 132.*assumed' "$tmp/p.a.err"

# The runner, with a stand-in for cutune that "tunes" by writing the made-up results.
cat >"$tmp/fake-cutune" <<EOF
#!/usr/bin/env bash
case "\$1" in
occupancy) exit 0 ;;
--version) echo "cutune fake"; exit 0 ;;
esac
while [ \$# -gt 0 ]; do
    [ "\$1" = --results ] && { cp "$tmp/r.json" "\$2"; shift; }
    shift
done
echo "tuned"
EOF
chmod +x "$tmp/fake-cutune"
# The made-up results lack the seeds' params, so only occupancy renders; the others
# must fail visibly, and the runner must say so in its exit status.
bash "$src/bench/seeds.sh" "$tmp/out" "$tmp/fake-cutune" >"$tmp/seeds.out" 2>&1
check "seeds.sh reports a failure with exit 1" test $? -eq 1
for name in sum_matrix reduce transpose divergence occupancy; do
    check "seeds.sh wrote $name.json" test -s "$tmp/out/$name.json"
done
check "seeds.sh rendered the occupancy study" grep -q 'Best:' "$tmp/out/occupancy.md"
check "seeds.sh wrote the occupancy table" grep -q 'disagree' "$tmp/out/occupancy-table.md"
check "seeds.sh named the renderings that failed" grep -q 'sum_matrix: rendering failed' "$tmp/out/summary.txt"
check "seeds.sh recorded the environment" grep -q '^cutune: cutune fake' "$tmp/out/env.txt"
bash "$src/bench/seeds.sh" "$tmp/out2" "$tmp/no-such-cutune" >/dev/null 2>&1
check "seeds.sh without cutune exits 2" test $? -eq 2

finish
