#!/usr/bin/env bash
# outcomes.sh CUTUNE SOURCE_DIR - the exit statuses and the honest counts of `cutune SPEC`
# on a GPU (docs/cli.md; test/cli/outcomes.sh is the same without one): 0 tuned, also
# when some variants fail to compile (counted, "N of them did not compile"); 6 when
# nothing compiled or nothing can launch; the results file and the journal written
# through the one writer; a journal with lines out of range said, not trusted; a NUL byte
# in a record in the middle one ignored line, named, and no record lost. Exits 77
# (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$(cd "$2" && pwd)
. "$src/test/gpu/lib.sh.inc"
gpu_probe gpu
. "$src/test/cli/lib.sh.inc"
gpu_tmp
run() { # NAME ARGS...: stdout, stderr to $tmp/NAME.out/.err; status in $rc
    local name=$1
    shift
    "$cutune" "$@" --color never >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
}
mkdir -p "$tmp/k"
cat >"$tmp/k/k.cu" <<'CU'
extern "C" __global__ void k(float *x)
{
#if BROKEN
#error "BROKEN variants do not compile"
#endif
    x[threadIdx.x] *= 2.0f;
}
CU
spec() { # NAME THREADS BROKEN
    printf 'kernel k from "k.cu" {\n    param threads in [%s];\n    param BROKEN in [%s];\n' "$2" "$3" >"$tmp/k/$1.tune"
    printf '    block threads;\n    grid 1;\n    arg x : inout float[4096] = random(seed = 1);\n}\n' >>"$tmp/k/$1.tune"
}
spec some "64, 128, 256" "0, 1"
spec none "64, 128" "1"
spec big "2048, 4096" "0"

run some "$tmp/k/some.tune" --results "$tmp/some.json"
check "some fail to compile: tuned all the same, exit 0 (not $rc)" test $rc -eq 0
check "... the failures counted" grep -q '(3 of them did not compile)' "$tmp/some.err"
check "... 3 timed" grep -qE ': 6 variants: 3 timed' "$tmp/some.err"
check "... the results file holds all 6" python3 -c "
import json; d = json.load(open('$tmp/some.json'))
st = sorted(r['status'] for r in d['results'])
assert st == ['compile error'] * 3 + ['ok'] * 3, st
"
# The journal, tampered: a line whose index is past the space is not trusted, and said.
printf '{"index":4611686018427387904,"status":"ok","params":{"threads":64,"BROKEN":0}}\n' >>"$tmp/some.json.journal"
run resumed "$tmp/k/some.tune" --results "$tmp/some.json"
check "resumed over a tampered journal: exit 0 (not $rc)" test $rc -eq 0
check "... 6 resumed" grep -q '(6 variants resumed from an earlier run' "$tmp/resumed.err"
check "... the bad line said" grep -q 'journal: 1 line was not trusted' "$tmp/resumed.err"
# A NUL byte inside an early record (the only line of its configuration) and a torn
# tail: the damaged line is ignored with its line number and reason, every later record
# still resumed, and the file cut only at its torn tail (before: read as a torn tail at
# the NUL, cut there, the later records lost).
python3 - "$tmp/some.json.journal" >"$tmp/damaged.line" <<'PY'
import json, sys
p = sys.argv[1]
lines = open(p, "rb").read().split(b"\n")[:-1]
index = [json.loads(l).get("index") for l in lines[1:]]
k = next(i for i in range(1, len(lines)) if index.count(index[i - 1]) == 1)
lines[k] = lines[k].replace(b'"status":"', b'"status":"\x00', 1)
open(p, "wb").write(b"\n".join(lines) + b'\n{"index":1,"sta')
open(p + ".expected", "wb").write(b"\n".join(lines) + b"\n")
print(k + 1)
PY
run damaged "$tmp/k/some.tune" --results "$tmp/some.json"
check "a NUL byte in record 2: exit 0 (not $rc)" test $rc -eq 0
check "... 5 resumed: the records after it too" grep -q '(5 variants resumed from an earlier run' "$tmp/damaged.err"
check "... both damaged lines said, the NUL's by line" grep -q "journal: 2 lines were not trusted.*line $(cat "$tmp/damaged.line"): a NUL byte" "$tmp/damaged.err"
check "... the file cut only at its torn tail" cmp -s <(head -c "$(stat -c %s "$tmp/some.json.journal.expected")" "$tmp/some.json.journal") "$tmp/some.json.journal.expected"

run none "$tmp/k/none.tune"
check "nothing compiles: exit 6 (not $rc)" test $rc -eq 6
check "... NOTHING COMPILED said" grep -q 'NOTHING COMPILED' "$tmp/none.err"
run big "$tmp/k/big.tune"
check "nothing can launch: exit 6 (not $rc)" test $rc -eq 6

# The README's first command, on a GPU: tuned, exit 0.
run sweep "$src/examples/sweep.tune" --results "$tmp/sweep.json" --header "$tmp/sweep.h"
check "examples/sweep.tune on a GPU: exit 0 (not $rc)" test $rc -eq 0
check "... a best configuration on stdout" grep -q '^best: #' "$tmp/sweep.out"
for f in some resumed damaged none big sweep; do
    echo "---- $f (exit status above)"
    cat "$tmp/$f.err"
done
finish
