#!/usr/bin/env bash
# devices.sh CUTUNE SOURCE_DIR - `cutune devices`: exit 4 with the driver's reason when no
# GPU is usable (always the case with CUDA_VISIBLE_DEVICES=-1, so this part runs on GPU
# machines too); on a machine with a GPU, exit 0 with one line / JSON object per GPU.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cutune" devices --format xml >/dev/null 2>&1; check "bad --format is a usage error (2)" test $? -eq 2
"$cutune" devices extra >/dev/null 2>&1; check "an argument is a usage error (2)" test $? -eq 2
"$cutune" help devices >"$tmp/out"; check "help devices documents exit 4" grep -q 'Exits 0 when' "$tmp/out"

# No GPU visible: exit 4, nothing on stdout, the reason on stderr.
CUDA_VISIBLE_DEVICES=-1 "$cutune" devices >"$tmp/out" 2>"$tmp/err"
check "no visible GPU exits 4" test $? -eq 4
check "no visible GPU prints nothing on stdout" test ! -s "$tmp/out"
check "no visible GPU says why" grep -qE '^cutune devices: no GPU: .+' "$tmp/err"
cat "$tmp/err"

"$cutune" devices >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 4 ]; then
    check "without a GPU: the reason on stderr" grep -qE '^cutune devices: no GPU: .+' "$tmp/err"
    check "without a GPU: nothing on stdout" test ! -s "$tmp/out"
    "$cutune" devices --format json >"$tmp/out" 2>/dev/null
    check "without a GPU: json also exits 4" test $? -eq 4
else
    check "with a GPU: exit 0" test $rc -eq 0
    check "with a GPU: a line for GPU 0" grep -qE '^0  .+  sm_[0-9]+  [0-9]+ SMs' "$tmp/out"
    "$cutune" devices --format json >"$tmp/json"
    check "with a GPU: json" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d[0]["ordinal"]==0 and d[0]["arch"].startswith("sm_") and d[0]["sm_count"]>0' "$tmp/json"
    "$cutune" devices -q >"$tmp/out"; check "-q: exit 0" test $? -eq 0
    check "-q: silent" test ! -s "$tmp/out"
fi
finish
