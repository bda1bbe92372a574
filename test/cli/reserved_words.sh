#!/usr/bin/env bash
# reserved_words.sh CUTUNE SOURCE_DIR - names that are reserved words of the spec
# language, as Kernel Tuner's and T1 files' params may be (step, block, grid, in, time):
# the macro the kernel reads may be any word but a C or C++ keyword (`as define step`:
# -Dstep=1, also for a let); a param or let named by a reserved word is an error at
# file:line:col saying what to write instead, and a macro named like a C or C++ keyword
# one too; a T1 file whose params have such names imports into a spec that checks, each
# variant defining the T1's macros with the configuration's values (a T1 param named
# like a C or C++ keyword: the import refuses it at its JSON path).
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
printf '__global__ void k(float *x) {}\n' >"$tmp/k.cu"

# ---- the spec's reserved words as macros: accepted, passed as written ----
cat >"$tmp/ok.tune" <<'TUNE'
kernel k from "k.cu" {
    param step_ in [1, 2] as define step;
    param block_x in [32, 64] as define block;
    let grid_ = 2 as define grid;
    block block_x;
    grid grid_;
}
TUNE
"$cutune" check -q "$tmp/ok.tune" >/dev/null 2>"$tmp/err"
check "as define step, block; let as define grid: checks" test $? -eq 0
check "... without a word on stderr" test ! -s "$tmp/err"
"$cutune" list "$tmp/ok.tune" --format json >"$tmp/ok.json"
check "each variant defines step, block and grid with its values" python3 -c "import json,sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 4, rows
for r in rows:
    p = r['params']
    assert r['defines'] == ['-Dstep=%d' % p['step_'], '-Dblock=%d' % p['block_x'], '-Dgrid=2'], r" "$tmp/ok.json"

# ---- a reserved word as a name, a C keyword as a macro: errors that say what to write ----
spec_with() { # LINE: a spec of kernel k with LINE among its statements, to $tmp/t.tune
    printf 'kernel k from "k.cu" {\n    %s\n    block 32;\n    grid 1;\n}\n' "$1" >"$tmp/t.tune"
}
refused() { # WHAT LINE PATTERN: `check` of a spec with LINE exits 1, saying PATTERN
    spec_with "$2"
    "$cutune" check "$tmp/t.tune" >/dev/null 2>"$tmp/err"
    check "$1: exit 1" test $? -eq 1
    check "$1: said at file:line:col" grep -qF -- "$3" "$tmp/err"
    check "$1: one error" grep -q "t.tune: 1 error" "$tmp/err"
}
refused "param float ... as define FLOAT" "param float in [1, 2] as define FLOAT;" \
    "t.tune:2:11: error: 'float' is a reserved word of the spec language, so it cannot name a param; name it otherwise (float_): its macro stays FLOAT"
refused "param step" "param step in [1, 2];" \
    "t.tune:2:11: error: 'step' is a reserved word of the spec language, so it cannot name a param; name it otherwise and keep the macro the kernel reads (param step_ in ... as define step)"
refused "let block ... as define" "let block = 4 as define;" \
    "t.tune:2:9: error: 'block' is a reserved word of the spec language, so it cannot name a let; name it otherwise and keep the macro the kernel reads (let block_ = ... as define block)"
refused "as define float" "param x in [1, 2] as define float;" \
    "t.tune:2:33: error: the macro float of param 'x' is a C or C++ keyword: -Dfloat=... would redefine it in the kernel's source; name another (as define FLOAT)"
refused "param class (its own macro)" "param class in [1, 2];" \
    "t.tune:2:11: error: param 'class' would be passed as the macro class, a C or C++ keyword"
refused "let as define template" "let n = 3 as define template;" \
    "t.tune:2:25: error: the macro template of let 'n' is a C or C++ keyword"
spec_with "param class in [1, 2] as none; require class > 0;"
"$cutune" check -q "$tmp/t.tune" >/dev/null 2>&1
check "param class as none (no macro): checks" test $? -eq 0

# ---- a T1 file whose params are named like reserved words ----
# Kernel Tuner's hotspot (BAT's T1 file), its space cut down, with params named step,
# block, grid, in and time (a reserved word, a statement, a built-in name) in a condition.
cp "$src/test/data/t1/hotspot_milo.cu" "$tmp/"
python3 - "$src/test/data/t1/hotspot_milo.json" "$tmp/kw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cs = d['ConfigurationSpace']
for p in cs['TuningParameters']:
    if p['Name'] in ('block_size_x', 'block_size_y'):
        p['Values'], p['Default'] = '[32]' if p['Name'] == 'block_size_x' else '[1]', 32 if p['Name'] == 'block_size_x' else 1
    elif p['Name'] == 'loop_unroll_factor_t':
        p['Values'], p['Default'] = '[1]', 1
    elif p['Name'] not in ('grid_width', 'grid_height', 'max_tfactor'):
        p['Values'] = '[%d]' % p['Default']
for name in ('step', 'block', 'grid', 'in', 'time'):
    cs['TuningParameters'].append({'Name': name, 'Type': 'int', 'Values': '[1, 2]', 'Default': 1})
cs['Conditions'].append({'Expression': 'step * block <= 2 * grid and time + grid >= 2',
                         'Parameters': ['step', 'block', 'grid', 'time']})
json.dump(d, open(sys.argv[2], 'w'), indent=1)
PY
"$cutune" import "$tmp/kw.json" -o "$tmp/kw.tune" 2>"$tmp/err"
check "T1 with params step, block, grid, in, time: imported" test $? -eq 0
check "... each renamed, a note saying the macro stays" grep -q "'step' is a word cutune reserves: the param is 'step_', still defined as the macro step" "$tmp/err"
"$cutune" check -q "$tmp/kw.tune" >/dev/null 2>"$tmp/err"
check "... the spec checks" test $? -eq 0
check "... no error" bash -c '! grep -q "error" "$1"' _ "$tmp/err"
"$cutune" list "$tmp/kw.tune" --format json >"$tmp/kw.list.json" 2>/dev/null
check "... each variant defines step, block, grid, in, time with its values, as Kernel Tuner would" python3 -c "import json,sys
rows = json.load(open(sys.argv[1]))
assert rows, 'no variants'
for r in rows:
    flags = r['defines'] + r['options']
    for name in ('step', 'block', 'grid', 'in', 'time'):
        assert '-D%s=%d' % (name, r['params'][name + '_']) in flags, (name, r)
    p = {n: r['params'][n + '_'] for n in ('step', 'block', 'grid', 'time')}
    assert p['step'] * p['block'] <= 2 * p['grid'] and p['time'] + p['grid'] >= 2, r
import itertools
want = sum(s * b <= 2 * g and t + g >= 2 for s, b, g, i, t in itertools.product([1, 2], repeat=5))
assert len(rows) == want, (len(rows), want)" "$tmp/kw.list.json"
# A T1 param named like a C or C++ keyword (float, class) cannot reach the kernel as a
# macro (Kernel Tuner's #define would redefine the keyword too): the import refuses it
# at the param's JSON path, each one, and writes no spec.
python3 - "$tmp/kw.json" "$tmp/ckw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['ConfigurationSpace']['TuningParameters'] += [{'Name': n, 'Type': 'int', 'Values': '[1, 2]', 'Default': 1}
                                                for n in ('float', 'class')]
json.dump(d, open(sys.argv[2], 'w'), indent=1)
PY
nparams=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['ConfigurationSpace']['TuningParameters']))" "$tmp/ckw.json")
"$cutune" import -q "$tmp/ckw.json" -o "$tmp/ckw.tune" 2>"$tmp/err"
check "T1 with params float and class: refused (exit 1)" test $? -eq 1
check "... no spec written" test ! -e "$tmp/ckw.tune"
check "... float refused at its Name" grep -q "ckw.json: \$.ConfigurationSpace.TuningParameters\[$((nparams - 2))\].Name: \"float\" is a keyword of C or C++" "$tmp/err"
check "... class refused at its Name" grep -q "ckw.json: \$.ConfigurationSpace.TuningParameters\[$((nparams - 1))\].Name: \"class\" is a keyword of C or C++" "$tmp/err"
finish
