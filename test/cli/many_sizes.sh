#!/usr/bin/env bash
# many_sizes.sh CUTUNE SOURCE_DIR - a `size` statement of 10,000 sizes is checked in
# time near-linear in their number: every size is checked (each may fail a domain or
# a constant), but the sizes are read once and their repeats found by sorting. Before,
# each size's check read every size again and compared every pair: 3,000 sizes took
# 81 s and 1 GB, and 10,000 would take hours. No GPU.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 'extern "C" __global__ void k(float *x, int n) { }' >"$tmp/k.cu"
# spec N EXTRA: N sizes (1024 ...), then EXTRA (text) inside the list.
spec() {
    python3 - "$1" "$2" >"$tmp/s.tune" <<'PY'
import sys
n, extra = int(sys.argv[1]), sys.argv[2]
sizes = ", ".join(f"({1024 + i}, {i % 7 + 1})" for i in range(n)) + extra
print(f'''kernel k from "k.cu" {{
    size (n, m) in [{sizes}];
    param bx in [64, 128, 256] as none;
    require bx <= n * m;
    block bx;
    grid cdiv(n * m, bx);
    arg x : out float[n * m];
    arg n : int = n;
}}''')
PY
}
spec 10000 ""
start=$(date +%s)
timeout 120 "$cutune" check "$tmp/s.tune" >"$tmp/out" 2>"$tmp/err"
rc=$?
took=$(($(date +%s) - start))
check "10,000 sizes: check exits 0 (exit $rc; 124 is timeout's)" test $rc -eq 0
# A cubic check needs hours here; linear work takes a few seconds even on 2 busy cores.
check "... within 30 s (took ${took} s)" test "$took" -le 30
check "... and lists every size" test "$(grep -c '^  n=' "$tmp/out")" -eq 10000

# Repeats are still found, each at its repeat with a note at the first listing.
spec 10000 ", (1024, 1), (5000, 1), (1 << 10, 1)"
timeout 120 "$cutune" check --color never "$tmp/s.tune" >"$tmp/out" 2>"$tmp/err"
check "repeated sizes are an error" test $? -ne 0
check "... each repeat reported" test "$(grep -c 'error: the size n = .* is listed twice' "$tmp/err")" -eq 3
check "... the first listing noted" test "$(grep -c 'note: first listed here' "$tmp/err")" -eq 3
check "... n = 5000, m = 1 among them" grep -q 'the size n = 5000, m = 1 is listed twice' "$tmp/err"
finish
