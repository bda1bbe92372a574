#!/usr/bin/env bash
# outcomes.sh CUTUNE SOURCE_DIR - `cutune SPEC` without a GPU reports what happened and
# no more, and a script tells the outcomes apart by the exit status alone (docs/cli.md):
# 4 not tuned for want of a GPU (some variants could run on one), 6 nothing could run
# (none compiled, or none that compiled can launch). Every GPU is hidden
# (CUDA_VISIBLE_DEVICES=-1), so this runs the same on GPU machines. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache CUDA_VISIBLE_DEVICES=-1

# run NAME ARGS...: cutune ARGS, stdout to $tmp/NAME.out, stderr to $tmp/NAME.err; the
# exit status in $rc.
run() {
    local name=$1
    shift
    "$cutune" "$@" --color never >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
}
# lacks FILE TEXT: FILE does not hold TEXT.
lacks() {
    ! grep -qF -- "$2" "$1"
}

# The shipped example: checked, counted, compiled, and not tuned: exit 4.
run sweep "$src/examples/sweep.tune"
check "examples/sweep.tune without a GPU exits 4 (not tuned: no GPU), not $rc" test $rc -eq 4
check "... after the space summary" grep -q '312 valid' "$tmp/sweep.out"
check "... and compiling all 312" grep -q '^312 variants for sm_90: 12 compiled (.*), 0 from the cache, 300 the same' "$tmp/sweep.err"
check "... of which none failed" grep -q '^0 failed to compile, 0 cannot launch' "$tmp/sweep.err"
check "... saying NOT TUNED and why" grep -q 'NOT TUNED. Timing needs a GPU' "$tmp/sweep.err"
check "... and that every variant compiled (they did)" grep -q 'every variant compiled' "$tmp/sweep.err"

# A kernel that does not compile when BROKEN is 1.
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
spec() { # NAME THREADS BROKEN: a spec of k.cu over those values
    printf 'kernel k from "k.cu" {\n    param threads in [%s] as none;\n    param BROKEN in [%s];\n' "$2" "$3" \
        >"$tmp/k/$1.tune"
    printf '    block threads;\n    grid 1;\n    arg x : inout float[4096] = random(seed = 1);\n}\n' >>"$tmp/k/$1.tune"
}
spec some "64, 128, 256" "0, 1"  # 6 variants: 3 compile, 3 do not
spec none "64, 128" "1"          # nothing compiles
spec big "2048, 4096" "0"        # compiles, cannot launch (more than 1024 threads)

# Some variants fail to compile: counted as failed, never "every variant compiled".
run some "$tmp/k/some.tune"
check "some fail to compile: exit 4 (the others could run on a GPU), not $rc" test $rc -eq 4
# (threads is `as none`: one binary per BROKEN value, the other two the same binary; the
# failed NVRTC run is not counted as compiled)
check "... the summary counts 1 compiled, not the 2 NVRTC ran" \
    grep -q '^6 variants for sm_90: 1 compiled (.*), 0 from the cache, 2 the same binary' "$tmp/some.err"
check "... and 3 failed" grep -q '^3 failed to compile, 0 cannot launch' "$tmp/some.err"
check "... never 'every variant compiled'" lacks "$tmp/some.err" 'every variant compiled'
check "... the verdict counts them" grep -q 'Of 6 variants, 3 compiled and can launch, 3 failed to compile and 0 cannot launch' "$tmp/some.err"
check "... and says it did not tune" grep -q 'NOT TUNED' "$tmp/some.err"
check "... the compiler's log is shown" grep -q 'BROKEN variants do not compile' "$tmp/some.err"
# Again, from the cache: the failures are still failures, not cached binaries.
run some2 "$tmp/k/some.tune"
check "from the cache: exit 4 again, not $rc" test $rc -eq 4
check "... 1 from the cache, not 2" grep -q ': 0 compiled (.*), 1 from the cache, 2 the same binary' "$tmp/some2.err"
check "... still 3 failed" grep -q '^3 failed to compile' "$tmp/some2.err"
# --limit: only the first variants were compiled, and it says so.
run limit --limit 2 "$tmp/k/some.tune"
check "--limit 2: exit 4, not $rc" test $rc -eq 4
check "... compiles only the first 2" grep -q '^2 variants for sm_90' "$tmp/limit.err"
check "... and says so" grep -q 'compiling the first 2 variants (--limit' "$tmp/limit.err"
check "... never 'every variant compiled'" lacks "$tmp/limit.err" 'every variant compiled'

# Nothing compiles: said plainly, exit 6, no claim of compiling.
run none "$tmp/k/none.tune"
check "nothing compiles: exit 6 (nothing could run), not $rc" test $rc -eq 6
check "... says NOTHING COMPILED" grep -q 'cutune: NOTHING COMPILED: none of the 2 variants compiled for sm_90' "$tmp/none.err"
check "... the summary counts 0 compiled" grep -q '^2 variants for sm_90: 0 compiled (' "$tmp/none.err"
check "... and 2 failed" grep -q '^2 failed to compile' "$tmp/none.err"
check "... says a GPU would not help" grep -q 'a GPU would not change that' "$tmp/none.err"
check "... never 'every variant compiled'" lacks "$tmp/none.err" 'every variant compiled'
check "... never 'NOT TUNED. Timing needs a GPU'" lacks "$tmp/none.err" 'Timing needs a GPU'
run tune_none tune "$tmp/k/none.tune"
check "cutune tune SPEC: the same exit 6, not $rc" test $rc -eq 6

# Everything compiles, nothing can launch: exit 6 too.
run big "$tmp/k/big.tune"
check "nothing can launch: exit 6, not $rc" test $rc -eq 6
check "... says NOTHING CAN RUN with the counts" \
    grep -q 'NOTHING CAN RUN: none of the 2 variants both compiled for sm_90 and can launch (0 failed to compile, 2 cannot launch)' \
    "$tmp/big.err"

# analyze: 0 when some variant can run (it reports the rest), 6 when none can.
run a_some analyze "$tmp/k/some.tune"
check "analyze, some fail: exit 0, not $rc" test $rc -eq 0
check "... each failure in the table" test "$(grep -c 'COMPILE ERROR' "$tmp/a_some.out")" -eq 3
run a_none analyze "$tmp/k/none.tune"
check "analyze, nothing compiles: exit 6, not $rc" test $rc -eq 6
check "... saying so" grep -q 'cutune analyze: NOTHING COMPILED' "$tmp/a_none.err"

# --jobs: 0 (one per core) to 256; anything else is a usage error (2) that names the range.
for j in 0 1 256; do
    run jobs analyze --jobs "$j" "$tmp/k/some.tune"
    check "--jobs $j is accepted (exit $rc)" test $rc -eq 0
done
for j in 257 -1 99999999999 4x ""; do
    run jobs analyze --jobs "$j" "$tmp/k/some.tune"
    check "--jobs '$j' is a usage error (exit $rc)" test $rc -eq 2
    check "... naming the range" grep -q -- "--jobs takes a thread count from 1 to 256" "$tmp/jobs.err"
done
run jobs --jobs 100000 "$tmp/k/some.tune"
check "cutune SPEC --jobs 100000: a usage error too (exit $rc)" test $rc -eq 2

finish
