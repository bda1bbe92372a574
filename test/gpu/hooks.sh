#!/usr/bin/env bash
# hooks.sh CUTUNE SOURCE_DIR - resets and checkers on a GPU:
#   1. the histogram (kernels/histogram.cu) without a reset: the bins accumulate across
#      launches, and every variant is reported wrong after its last launch; with
#      `reset bins = zeros;`, and with a reset kernel, every variant verifies;
#   2. an in-place kernel (y += x) reset to its input, and to a constant, verifies;
#   3. the relative L2 norm, the ULP distance and a user checker kernel each reject the
#      deliberately wrong variant (BUG = 1) and accept the right one;
#   4. an input read from an .npy file reaches the kernel (checked against a reference
#      that computes from the index what the file holds).
# Every variant is timed in full (--prune -1), so each is launched many times.
# Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$(cd "$2" && pwd)
. "$src/test/gpu/lib.sh.inc"
gpu_probe hooks
gpu_tmp
fails=0
hist=$src/kernels/histogram.cu
k=$src/test/gpu/hooks.cu

# tune NAME: tunes $tmp/NAME.tune into $tmp/NAME.json (whatever its exit code).
tune() {
    "$cutune" --color never --prune -1 "$tmp/$1.tune" --results "$tmp/$1.json" >"$tmp/$1.out" 2>&1
    echo "== $1: exit $?"; tail -n 5 "$tmp/$1.out"
}
# expect NAME PYTHON-CONDITION-ON-r DESCRIPTION: every result r of NAME satisfies it.
expect() {
    if python3 - "$tmp/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [r for r in d["results"] if not eval(sys.argv[2], {}, {"r": r, "p": r["params"]})]
for r in bad:
    print("   %s: %s %s (launches %s)" % (r["params"], r["status"], r["reason"], r.get("launches")))
sys.exit(1 if bad or not d["results"] else 0)
PY
    then echo "ok   $1: $3"; else echo "FAIL $1: $3"; fails=$((fails + 1)); fi
}

histogram_spec() { # histogram_spec RESET-STATEMENT
    cat <<TUNE
kernel histogram from "$hist" {
    let n = 1 << 22;
    param threads in [128, 256] as none;
    param items in [1, 4] as define ITEMS;
    block threads;
    grid cdiv(n, threads * items);
    arg data : in uint8[n] = random(seed = 3, min = 0, max = 255);
    arg bins : out uint[256];
    arg n : uint64 = n;
    $1
    verify bins against kernel histogram_naive block 256 grid 64 atol 0;
    measure(repeat = 5, max_repeat = 10);
}
TUNE
}
histogram_spec "" >"$tmp/hist_noreset.tune"
histogram_spec "reset bins = zeros;" >"$tmp/hist_reset.tune"
histogram_spec "reset kernel clear_bins from \"$k\" block 256 grid 1;" >"$tmp/hist_kernel.tune"
tune hist_noreset
expect hist_noreset 'r["status"] == "wrong" and "after its last launch" in r["reason"] and not r["verified"]' \
    "without a reset, every variant is wrong after its last launch"
tune hist_reset
expect hist_reset 'r["status"] == "ok" and r["verified"] and r["launches"] > 1 and r["batch"] == 1' \
    "reset bins = zeros: every variant verifies, one launch per sample"
tune hist_kernel
expect hist_kernel 'r["status"] == "ok" and r["verified"]' "a reset kernel: every variant verifies"

inplace_spec() { # inplace_spec RESET-STATEMENT
    cat <<TUNE
kernel accumulate from "$k" {
    let n = 1 << 20;
    param bx in [128, 256] as none;
    block bx;
    grid cdiv(n, bx);
    arg x : in float[n] = random(seed = 1);
    arg y : inout float[n] = ramp();
    arg n : uint = n;
    $1
    verify y against config(bx = 128);
    measure(repeat = 5, max_repeat = 10);
}
TUNE
}
inplace_spec "reset y = input;" >"$tmp/inplace_input.tune"
inplace_spec "reset y = constant(5);" >"$tmp/inplace_constant.tune"
tune inplace_input
expect inplace_input 'r["status"] == "ok" and r["verified"] and r["launches"] > 1' "reset y = input: in place, verified"
tune inplace_constant
expect inplace_constant 'r["status"] == "ok" and r["verified"]' "reset y = constant(5): verified"

checker_spec() { # checker_spec CLAUSE
    cat <<TUNE
kernel scale from "$k" {
    let n = 1 << 20;
    param bx in [128, 256] as none;
    param BUG in [0, 1];
    block bx;
    grid cdiv(n, bx);
    arg x : in float[n] = random(seed = 5, min = 0.5, max = 1);
    arg y : out float[n];
    arg n : uint = n;
    verify y against config(bx = 128, BUG = 0) $1;
    measure(repeat = 5, max_repeat = 10);
}
TUNE
}
checker_spec "l2 1e-6" >"$tmp/check_l2.tune"
checker_spec "ulp 4" >"$tmp/check_ulp.tune"
checker_spec "check kernel close_enough from \"$k\"" >"$tmp/check_kernel.tune"
for pair in "check_l2:relative L2 error" "check_ulp:ULP apart" "check_kernel:scored"; do
    name=${pair%%:*}
    says=${pair#*:}
    tune "$name"
    expect "$name" "(p['BUG'] == 0 and r['status'] == 'ok' and r['verified']) or \
(p['BUG'] == 1 and r['status'] == 'wrong' and '$says' in r['reason'])" "rejects BUG = 1 ($says), accepts BUG = 0"
done

# An .npy file of n float32: 0, 1, 2, ... (written here without NumPy).
python3 - "$tmp/x.npy" <<'PY'
import struct, sys
n = 1 << 20
d = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
total = (10 + len(d) + 1 + 63) // 64 * 64
h = b'\x93NUMPY\x01\x00' + struct.pack('<H', total - 10) + d.encode() + b' ' * (total - 11 - len(d)) + b'\n'
open(sys.argv[1], 'wb').write(h + struct.pack('<%df' % n, *range(n)))
PY
cat >"$tmp/npy.tune" <<TUNE
kernel scale from "$k" {
    let n = 1 << 20;
    param bx in [128, 256] as none;
    block bx;
    grid cdiv(n, bx);
    arg x : in float[n] = file("x.npy");
    arg y : out float[n];
    arg n : uint = n;
    verify y against kernel scale_of_index from "$k" block 256 grid n // 256;
    measure(repeat = 5, max_repeat = 10);
}
TUNE
tune npy
expect npy 'r["status"] == "ok" and r["verified"]' "an .npy input reaches the kernel"

[ $fails -eq 0 ] || { echo "FAIL: $fails checks"; exit 1; }
echo "all hooks checks passed"
