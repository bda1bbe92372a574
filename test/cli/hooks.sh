#!/usr/bin/env bash
# hooks.sh CUTUNE SOURCE_DIR - resets and checkers without a GPU: analyze compiles a spec's reset
# kernels and checker kernel as tuning will and warns for each that does not compile
# (exit 0: the variants are fine); inputs from .npy and raw files check, and a file
# that changes under a spec is read again (no stale answer); a FIFO given as an input
# is refused at once, not waited on. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp

cat >"$tmp/k.cu" <<'CU'
extern "C" __global__ void scale(const float *x, float *y, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 3.0f * x[i];
}
extern "C" __global__ void clear(const float *x, float *y, unsigned n) { y[threadIdx.x] = 0.0f; }
extern "C" __global__ void close_enough(const float *out, const float *ref, unsigned long long n, double *score)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && out[i] != ref[i]) atomicAdd(score, 1.0);
}
CU
spec() { # spec RESET-KERNEL CHECKER-KERNEL INPUT
    cat <<TUNE
kernel scale from "k.cu" {
    param bx in [128, 256] as none;
    block bx;
    grid cdiv(1024, bx);
    arg x : in float[1024] = $3;
    arg y : out float[1024];
    arg n : uint = 1024;
    reset kernel $1 block 256 grid 4;
    verify y against config(bx = 128) check kernel $2 tol 0;
}
TUNE
}
spec clear close_enough 'random(seed = 1)' >"$tmp/good.tune"
"$cutune" analyze --arch sm_90 "$tmp/good.tune" >"$tmp/good.out" 2>"$tmp/good.err"
check "analyze of a spec whose reset and checker kernels compile exits 0" test $? -eq 0
check "... and warns about nothing" bash -c "! grep -q 'warning' '$tmp/good.err'"
spec claer close_enuogh 'random(seed = 1)' >"$tmp/bad.tune"
"$cutune" analyze --arch sm_90 "$tmp/bad.tune" >"$tmp/bad.out" 2>"$tmp/bad.err"
check "analyze of a spec with misspelt reset and checker kernels exits 0 (its variants compile)" test $? -eq 0
check "... and warns that the reset kernel 'claer' does not compile" \
    grep -q "bad.tune:8:5: warning: the reset kernel 'claer' does not compile for sm_90" "$tmp/bad.err"
check "... and that the checker kernel 'close_enuogh' does not compile" \
    grep -q "warning: the checker kernel 'close_enuogh' does not compile for sm_90" "$tmp/bad.err"

# Inputs from files: an .npy of 1024 float32 and a raw file; then the .npy replaced by
# one of 1000 elements, which the next check sees.
npy() { # npy FILE COUNT DESCR
    python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
n, descr = int(sys.argv[2]), sys.argv[3]
d = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, n)
total = (10 + len(d) + 1 + 63) // 64 * 64
h = b'\x93NUMPY\x01\x00' + struct.pack('<H', total - 10) + d.encode() + b' ' * (total - 11 - len(d)) + b'\n'
open(sys.argv[1], 'wb').write(h + b'\0' * (n * int(descr[2:])))
PY
}
npy "$tmp/x.npy" 1024 '<f4'
spec clear close_enough 'file("x.npy")' >"$tmp/npy.tune"
"$cutune" check "$tmp/npy.tune" >/dev/null 2>"$tmp/npy.err"
check "an .npy input of the arg's type and count checks" test $? -eq 0
npy "$tmp/x.npy" 1000 '<f4'
"$cutune" check --color never "$tmp/npy.tune" >/dev/null 2>"$tmp/npy2.err"
check "the same spec, the file now of 1000 elements: refused" test $? -eq 1
check "... saying so" grep -q "has shape (1000,): 1000 elements; arg 'x' has 1024" "$tmp/npy2.err"
head -c 4096 /dev/zero >"$tmp/x.bin"
spec clear close_enough 'file("x.bin")' >"$tmp/raw.tune"
"$cutune" check "$tmp/raw.tune" >/dev/null 2>&1
check "a raw input of 4096 bytes for 1024 floats checks" test $? -eq 0
mkfifo "$tmp/fifo"
spec clear close_enough 'file("fifo")' >"$tmp/fifo.tune"
timeout 10 "$cutune" check --color never "$tmp/fifo.tune" >/dev/null 2>"$tmp/fifo.err"
check "a FIFO as an input is refused at once (no writer needed)" test $? -eq 1
check "... as not a regular file" grep -q "cannot read input file '.*fifo': not a regular file" "$tmp/fifo.err"
finish
