#!/usr/bin/env bash
# pnpoly.sh CUTUNE SOURCE_DIR - the speed benchmark's point-in-polygon spec
# (bench/speed/pnpoly.tune), without a GPU: it checks cleanly (its __constant__ data all
# filled), counts the 5,456 configurations of Kernel Tuner's pnpoly example, lists exactly
# the example's values of each param and its grid rule, compiles a few variants (the
# reference, the largest tiles) and flags the ones too large to launch; the polygon files are
# what pnpoly_polygon.py writes, a clockwise polygon on the unit circle whose slopes are its
# edges'. Run by ctest (not quick: it compiles variants).
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
spec=$src/bench/speed/pnpoly.tune
speed=$src/bench/speed

"$cutune" check "$spec" >"$tmp/check" 2>"$tmp/check.err"
check "check: exit 0" test $? -eq 0
check "check: no warning (every __constant__ variable is filled): $(head -c 300 "$tmp/check.err")" test ! -s "$tmp/check.err"

# The example's tune_params, as its Python writes them; the spec's header comment claims
# their product.
cat >"$tmp/kt.py" <<'EOF'
KT = {
    "block_size_x": [32 * i for i in range(1, 32)],
    "tile_size": [1] + [2 * i for i in range(1, 11)],
    "between_method": [0, 1, 2, 3],
    "use_precomputed_slopes": [0, 1],
    "use_method": [0, 1],
}
EOF
want=$(python3 -c "
import sys; sys.path.insert(0, '$tmp'); from kt import KT
n = 1
for v in KT.values(): n *= len(v)
print(format(n, ','))")
check "the example's space is 5,456 configurations (got $want)" test "$want" = 5,456
valid=$(sed -n 's/^space .* raw, \([0-9,]*\) valid.*/\1/p' "$tmp/check")
check "check counts the example's $want (got $valid)" test "$valid" = "$want"
check "the spec's comment says 5,456" grep -q '^# .*5,456 configurations' "$spec"
# test/unit/test_pnpoly.c checks the exact verification on these inputs: it draws them so.
check "the spec's points are test_pnpoly.c's: 20,000,000 of normal(seed = 1)" sh -c \
    "grep -q '^    let n = 20000000;' '$spec' && grep -q 'arg points *: in  *float2\[n\] = normal(seed = 1);' '$spec'"

# Every configuration once, with the example's values only, and Kernel Tuner's grid
# (grid_div_x = [block_size_x, tile_size]: ceil(n / (block_size_x * tile_size))).
"$cutune" list "$spec" --format csv >"$tmp/list.csv" 2>"$tmp/list.err"
check "list: exit 0" test $? -eq 0
check "list: the example's configurations, once each, with its geometry" python3 -c "
import csv, itertools, sys
sys.path.insert(0, '$tmp'); from kt import KT
rows = list(csv.DictReader(open('$tmp/list.csv')))
got = [tuple(int(r[p]) for p in KT) for r in rows]
assert sorted(got) == sorted(itertools.product(*KT.values())), (len(got), len(set(got)))
n = 20000000
for r in rows:
    bx, ts = int(r['block_size_x']), int(r['tile_size'])
    assert (int(r['block.x']), int(r['block.y']), int(r['block.z'])) == (bx, 1, 1), r
    assert (int(r['grid.x']), int(r['grid.y']), int(r['grid.z'])) == (-(-n // (bx * ts)), 1, 1), r
    assert '-DVERTICES=600' in r['defines'] and '-Dtile_size=%d ' % ts in r['defines'], r['defines']"

# A few variants compile: the reference configuration, the largest tiles on the smallest
# and largest blocks (992 threads of 20 points each need more registers than a block may
# have: flagged before any run, as Kernel Tuner's run fails them at launch).
ref=block_size_x=256,tile_size=1,between_method=0,use_precomputed_slopes=0,use_method=0
check "the verify line names the reference configuration tested here" python3 -c "
import re
text = re.sub(r'\s+', ' ', open('$spec').read())
want = 'verify bitmap against config(' + ', '.join('$ref'.split(',')) + ') atol 0;'
assert want.replace('=', ' = ') in text, want"
"$cutune" analyze "$spec" --jobs 2 --format csv --config "$ref" \
    --config block_size_x=32,tile_size=20,use_method=0 --config block_size_x=992,tile_size=20,between_method=3 \
    >"$tmp/an.csv" 2>"$tmp/an.err"
check "analyze of 13 variants: exit 0 ($(tail -c 300 "$tmp/an.err"))" test $? -eq 0
check "analyze: the reference and the 32-thread tiles of 20 compile and can launch; the 992-thread ones cannot" python3 -c "
import csv
rows = list(csv.DictReader(open('$tmp/an.csv')))
assert len(rows) == 13, len(rows)
for r in rows:
    assert r['compiled'] == '1', r
    big = r['block_size_x'] == '992'
    assert r['launchable'] == ('0' if big else '1'), r
    if big: assert 'registers' in r['why'], r['why']
assert sum(r['block_size_x'] == '992' for r in rows) == 4"

# The polygon: the script writes the committed files; they hold a clockwise polygon of 600
# vertices on the unit circle, no two at one height, and each edge's slope.
python3 "$speed/pnpoly_polygon.py" "$tmp"
check "pnpoly_polygon.py writes the committed pnpoly_vertices.bin" cmp -s "$tmp/pnpoly_vertices.bin" "$speed/pnpoly_vertices.bin"
check "pnpoly_polygon.py writes the committed pnpoly_slopes.bin" cmp -s "$tmp/pnpoly_slopes.bin" "$speed/pnpoly_slopes.bin"
check "the polygon: 600 vertices on the unit circle, clockwise, at distinct heights; slope j is edge j's" python3 -c "
import math, struct
raw = open('$speed/pnpoly_vertices.bin', 'rb').read()
assert len(raw) == 600 * 8, len(raw)
c = struct.unpack('<1200f', raw)
v = list(zip(c[0::2], c[1::2]))
assert all(abs(math.hypot(x, y) - 1) < 1e-6 for x, y in v)
angles = [math.atan2(y, x) % (2 * math.pi) for x, y in v]
assert all(a > b for a, b in zip(angles, angles[1:])), 'not in decreasing angle'
area = sum(v[j - 1][0] * v[j][1] - v[j][0] * v[j - 1][1] for j in range(600)) / 2
assert -math.pi < area < -3.1, area  # clockwise, nearly the circle's area
assert len({y for _, y in v}) == 600
s = struct.unpack('<600f', open('$speed/pnpoly_slopes.bin', 'rb').read())
for j in range(600):
    (xk, yk), (xj, yj) = v[j - 1], v[j]
    want = (xk - xj) / (yk - yj)
    assert abs(s[j] - want) <= 1e-6 * abs(want), (j, s[j], want)"
finish
