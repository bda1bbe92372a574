#!/usr/bin/env bash
# config.sh CUTUNE SOURCE_DIR - `--config NAME=VALUE[,NAME=VALUE...]` on list, analyze
# and tune: one configuration or a few, a partial one pinning only the params it names,
# and each mistake a usage error naming the configuration. No GPU needed. Run by ctest.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
cli_tmp

cat >"$tmp/k.cu" <<'CU'
extern "C" __global__ void k(float *x)
{
    __shared__ float buf[SIZE];
    buf[threadIdx.x] = x[threadIdx.x] * U;
    __syncthreads();
    x[threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}
CU
# SIZE * U <= 16384: SIZE 1024 and 2048 take U 1..8, 4096 takes U 1, 2, 4.
cat >"$tmp/k.tune" <<'TUNE'
kernel k from "k.cu" {
    param SIZE in [1024, 2048, 4096];
    param U in [1, 2, 4, 8];
    require SIZE * U <= 16384;
    block 128;
    grid 1;
    arg x : inout float[128] = zeros;
}
TUNE
lst() { "$cutune" list --color never --format csv "$tmp/k.tune" "$@" 2>"$tmp/err" | cut -d, -f2,3 | tail -n +2 | tr '\n' ' '; }
check "without --config: 11 configurations" test "$(lst | wc -w)" -eq 11
check "one whole configuration" test "$(lst --config SIZE=2048,U=4)" = "2048,4 "
check "a partial one pins only SIZE" test "$(lst --config SIZE=4096)" = "4096,1 4096,2 4096,4 "
check "several: their union, in listing order" \
    test "$(lst --config U=8,SIZE=1024 --config 'SIZE = 2048, U = 1')" = "1024,8 2048,1 "

# analyze compiles only those; tune without a GPU compiles only those, then says so.
"$cutune" analyze --color never --format csv --config SIZE=1024,U=2 --config SIZE=4096,U=4 "$tmp/k.tune" \
    >"$tmp/a.csv" 2>"$tmp/a.err"
check "analyze --config exits 0" test $? -eq 0
check "... and compiles the two configurations" test "$(cut -d, -f2,3 "$tmp/a.csv" | tail -n +2 | tr '\n' ' ')" = \
    "1024,2 4096,4 "
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$tmp/k.tune" --config SIZE=2048 --color never >"$tmp/t.out" 2>"$tmp/t.err"
check "tune --config without a GPU exits 4" test $? -eq 4
check "... after compiling the 4 configurations of SIZE 2048" grep -q '^4 variants for sm_' "$tmp/t.err"

# Mistakes: exit 2, the configuration named with what is wrong with it.
refused() { # WHAT MESSAGE CONFIG...
    local what=$1 says=$2
    shift 2
    "$cutune" list --color never "$tmp/k.tune" "$@" >/dev/null 2>"$tmp/e"
    local rc=$?
    check "$what: exit 2 (got $rc)" test $rc -eq 2
    check "$what: says \"$says\" ($(grep cutune: "$tmp/e"))" grep -qF -e "$says" "$tmp/e"
}
refused "an unknown param" "cutune: --config SIZ=2048: the kernel k has no param 'SIZ'; did you mean 'SIZE'?" \
    --config SIZ=2048
refused "a value outside the domain" \
    "--config SIZE=1000,U=1: '1000' is not a value of param 'SIZE' (its values: 1024, 2048, 4096)" \
    --config SIZE=1024 --config SIZE=1000,U=1
refused "a whole configuration the constraints exclude" \
    "--config SIZE=4096,U=8: the spec's constraints exclude it: it breaks the require at $tmp/k.tune:4:13" \
    --config SIZE=4096,U=8
refused "not NAME=VALUE" "--config 4096: '4096' is not NAME=VALUE" --config 4096
"$cutune" check "$tmp/k.tune" --config SIZE=1024 >/dev/null 2>"$tmp/e"
check "check takes no --config (exit 2)" test $? -eq 2

# Two kernel blocks: --config needs --kernel.
cat "$tmp/k.tune" >"$tmp/two.tune"
sed 's/kernel k from/kernel k2 from/; s/param U in/param V in/; s/SIZE \* U/SIZE * V/' "$tmp/k.tune" >>"$tmp/two.tune"
"$cutune" list --color never "$tmp/two.tune" --config SIZE=1024 >/dev/null 2>"$tmp/e"
check "two blocks without --kernel: exit 2" test $? -eq 2
check "... saying to name one" grep -q 'has 2 kernel blocks: name one with --kernel NAME' "$tmp/e"
finish
