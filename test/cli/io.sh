#!/usr/bin/env bash
# io.sh CUTUNE SOURCE_DIR - what cutune reads and writes, under hostile conditions: a
# spec that is a device, a FIFO or a folder; output to a full disk, a closed pipe with
# SIGPIPE ignored, a device node or a planted link. Each must give a clear message and
# exit 3 (a file could not be read or written), quickly, and harm nothing. Run by ctest.
set -u
cutune=$1
src=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$src/docs/results/data/sum_matrix-h100-run1.json
sweep=$src/examples/sweep.tune

# ---- reading: one reader, regular files only ----
timeout 10 "$cutune" check /dev/zero >/dev/null 2>"$tmp/err"
check "check /dev/zero: 3, not an endless read" test $? -eq 3
check "/dev/zero: not a regular file" grep -q "cannot read spec '/dev/zero': not a regular file" "$tmp/err"
timeout 10 "$cutune" check "$tmp" >/dev/null 2>"$tmp/err"
check "check DIR: 3" test $? -eq 3
check "DIR: is a directory (not an I/O error)" grep -q "Is a directory" "$tmp/err"
mkfifo "$tmp/fifo"
timeout 10 "$cutune" check "$tmp/fifo" >/dev/null 2>"$tmp/err"
check "check FIFO: 3 at once, no writer awaited" test $? -eq 3
timeout 10 "$cutune" emit csv /dev/zero >/dev/null 2>"$tmp/err"
check "emit csv /dev/zero: 3" test $? -eq 3
check "results /dev/zero: not a regular file" grep -q "not a regular file" "$tmp/err"

# ---- writing stdout: a full disk, a closed pipe ----
"$cutune" check "$sweep" >/dev/full 2>"$tmp/err"
check "check > /dev/full: 3" test $? -eq 3
check "full disk is said" grep -q "cannot write to standard output: No space left on device" "$tmp/err"
"$cutune" emit csv "$results" >/dev/full 2>"$tmp/err"
check "emit csv > /dev/full: 3" test $? -eq 3
"$cutune" list "$sweep" --format json >/dev/full 2>"$tmp/err"
check "list > /dev/full: 3" test $? -eq 3
# A space of 10^12 configurations: with SIGPIPE ignored, list must stop at the first
# failed write, not run through the space.
cat >"$tmp/huge.tune" <<EOF
kernel k from "$src/test/golden/k.cu" {
    param a in 1 .. 10000 as none;
    param b in 1 .. 10000 as none;
    param c in 1 .. 10000 as none;
    block (32);
    grid (1);
}
EOF
start=$(date +%s)
(trap '' PIPE; exec timeout 20 "$cutune" list "$tmp/huge.tune" 2>"$tmp/err") | head -n 3 >/dev/null
status=${PIPESTATUS[0]}
check "list into a closed pipe, SIGPIPE ignored: 3 (not 124: it stopped)" test "$status" -eq 3
check "closed pipe is said" grep -q "cannot write to standard output: Broken pipe" "$tmp/err"
check "stopped within seconds" test $(($(date +%s) - start)) -lt 10

# ---- writing files: the one writer ----
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/out.h.tmp" # the old writer wrote through OUT.tmp
"$cutune" emit header --spec "$sweep" "$results" -o "$tmp/out.h" 2>"$tmp/err"
check "header beside a planted OUT.tmp link: 0" test $? -eq 0
check "the planted link's target is untouched" grep -qx precious "$tmp/victim"
check "the header is written" grep -q SUM_MATRIX_TUNED "$tmp/out.h"
check "no temporary left" test -z "$(ls "$tmp" | grep 'out.h.tmp.')"
ln -s "$tmp/victim" "$tmp/link.h"
"$cutune" emit header --spec "$sweep" "$results" -o "$tmp/link.h" 2>"$tmp/err"
check "-o a symbolic link: 3" test $? -eq 3
check "a link is refused, not written through" grep -qx precious "$tmp/victim"
check "link refusal is said" grep -q "cannot write '$tmp/link.h': not a regular file" "$tmp/err"
"$cutune" emit csv "$results" -o /dev/null 2>"$tmp/err"
check "-o /dev/null (a device node): 3" test $? -eq 3
check "/dev/null is still a device" test -c /dev/null
"$cutune" emit csv "$results" -o "$tmp" 2>"$tmp/err"
check "-o a folder: 3" test $? -eq 3
check "folder refusal is said" grep -q "Is a directory" "$tmp/err"
"$cutune" emit t4 "$results" -o - >"$tmp/t4.json"
check "-o - is stdout: 0" test $? -eq 0
check "t4 on stdout is JSON" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/t4.json"
finish
