#!/usr/bin/env bash
# buffer_bytes.sh CUTUNE SOURCE_DIR - a buffer's size in bytes (elements x element
# size) is overflow-checked: a count that reads params and makes (1 << 62) + 1 doubles
# is a variant that cannot run, with the reason, in analyze (no GPU needed); before,
# its bytes wrapped to 8 and every variant "could launch". The constant case and the
# .npy shape whose bytes wrap are golden diagnostics (test/golden/buffer_bytes_overflow,
# file_input_huge_shape).
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 'extern "C" __global__ void k(double *x, int n) { }' >"$tmp/k.cu"
cat >"$tmp/k.tune" <<'TUNE'
kernel k from "k.cu" {
    param bx in [64, 128] as none;
    param e in [10, 62] as none;
    block bx;
    grid 1;
    arg x : out double[(1 << e) + 1];
    arg n : int = 1 << e;
}
TUNE
"$cutune" analyze --no-cache --color never "$tmp/k.tune" >"$tmp/out" 2>"$tmp/err"
check "analyze ends (exit $?)" test -s "$tmp/out"
check "the variants of e = 62 cannot run, saying why" \
    test "$(grep -c "  62  .*CANNOT LAUNCH: buffer 'x' has 4611686018427387905 double elements of 8 bytes: more than 9223372036854775807 bytes" "$tmp/out")" -eq 2
check "the variants of e = 10 are fine" test "$(grep -c '  10  .* ok$' "$tmp/out")" -eq 2
check "the summary counts them" grep -q '0 failed to compile, 2 cannot launch' "$tmp/err"
finish
