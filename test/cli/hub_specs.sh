#!/usr/bin/env bash
# hub_specs.sh CUTUNE SOURCE_DIR - the runnable specs of the benchmark hub's kernels
# (bench/landscapes/conv_milo_run.tune, dedisp_milo_run.tune) and their recorder
# (bench/record-hub.sh), without a GPU: each spec counts the hub's valid space (4,362 and
# 11,130, the counts of the hub's own recordings), lists exactly the configurations of the
# simulation-only spec it stands beside (so an H100 recording of it has the hub's keys),
# replays a hub recording with another GPU's as the prior; the dedispersion's delays are
# the hub's formula's; record-hub.sh stops at its cap, resumes and gzips, with a stand-in
# for cutune, and makes the two take turns on a shared GPU. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
land=$src/bench/landscapes

valid() { "$cutune" check "$1" -q | sed -n 's/^space .* raw, \([0-9,]*\) valid.*/\1/p'; }
check "the convolution spec counts the hub's 4,362 valid configurations" test "$(valid "$land/conv_milo_run.tune")" = 4,362
check "the dedispersion spec counts the hub's 11,130" test "$(valid "$land/dedisp_milo_run.tune")" = 11,130

# The same configurations, in the same order, with the same param names and values: the
# CSV listing's columns up to the launch geometry (index and params).
params() { "$cutune" list "$1" --format csv | python3 -c "
import csv, sys
rows = list(csv.reader(sys.stdin))
cut = rows[0].index('block.x')
for r in rows: print(','.join(r[:cut]))"; }
for k in conv dedisp; do
    params "$land/${k}_milo.tune" >"$tmp/$k.sim"
    params "$land/${k}_milo_run.tune" >"$tmp/$k.run"
    check "$k: the runnable spec lists the simulation spec's configurations ($(wc -l <"$tmp/$k.run") lines)" \
        cmp -s "$tmp/$k.sim" "$tmp/$k.run"
done

# A hub recording replays over the runnable spec, with another GPU's as the prior.
for k in convolution:conv dedispersion:dedisp; do
    for g in A4000 A6000; do gunzip -c "$land/${k%%:*}_$g.json.gz" >"$tmp/${k%%:*}_$g.json"; done
    "$cutune" simulate "$land/${k#*:}_milo_run.tune" --results "$tmp/${k%%:*}_A6000.json" --strategy auto \
        --budget 25 --repeat 2 --prior "$tmp/${k%%:*}_A4000.json" --format json >"$tmp/sim.json" 2>"$tmp/err"
    check "${k%%:*}: the A6000 recording replays over the runnable spec with the A4000's as prior ($(head -c 200 "$tmp/err"))" \
        python3 -c "import json; assert len(json.load(open('$tmp/sim.json'))['runs']) == 2"
done

# The delays: the hub's dispersion formula (kernels/dedisp_shifts.py's docstring), here in
# double precision; the committed file holds them as the hub's float32 arithmetic gives
# them, within its rounding (the difference of two close inverse squares: 1e-5 samples).
check "dedisp_shifts.py writes the committed dedisp_shifts.bin" sh -c \
    "python3 '$land/kernels/dedisp_shifts.py' '$tmp/shifts.bin' && cmp -s '$tmp/shifts.bin' '$land/kernels/dedisp_shifts.bin'"
check "the delays are the dispersion formula's, and stay within max_shift" python3 -c "
import struct
v = struct.unpack('<1536f', open('$land/kernels/dedisp_shifts.bin', 'rb').read())
hi = 1425.0 + 1535 * 0.1953125
want = [4148.808 * (1 / (1425.0 + c * 0.1953125) ** 2 - 1 / hi ** 2) * 25000 / (25000 * 0.00004096) for c in range(1536)]
want[-1] = 0.0
assert all(abs(a - b) <= 1e-5 for a, b in zip(v, want)), max(abs(a - b) for a, b in zip(v, want))
assert 15.8 < v[0] < 15.9 and v[0] * 2048 * 0.02 < 650, v[0]"

# record-hub.sh with a stand-in for cutune that takes 3 s: a cap of 1 s stops both runs
# (exit 3), the same command resumes them, and complete runs are gzipped and not rerun.
cat >"$tmp/fake" <<'EOF'
#!/usr/bin/env bash
res=""; while [ $# -gt 0 ]; do [ "$1" = --results ] && res=$2; shift; done
echo "run on $CUDA_VISIBLE_DEVICES"
trap 'exit 130' TERM
sleep "${FAKE_SLEEP:-3}" & wait $!
echo '{"results": []}' >"$res"
EOF
chmod +x "$tmp/fake"
mkdir "$tmp/bin" # a host of 4 GPUs, as nvidia-smi -L lists them
printf '#!/bin/sh\n[ "$1" = -L ] && for i in 0 1 2 3; do echo "GPU $i: NVIDIA H100 (UUID: GPU-$i)"; done\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
PATH=$tmp/bin:$PATH
FAKE_SLEEP=3 "$src/bench/record-hub.sh" "$tmp/fake" "$tmp/rec" --cap 1 >"$tmp/out1" 2>&1
rc=$?
check "record-hub.sh: stopped at the cap, exit 3 ($(tr '\n' ' ' <"$tmp/out1" | head -c 300))" test $rc -eq 3
check "record-hub.sh: nothing gzipped yet" test ! -e "$tmp/rec/convolution.json.gz"
FAKE_SLEEP=0 "$src/bench/record-hub.sh" "$tmp/fake" "$tmp/rec" --cap 5 >"$tmp/out2" 2>&1
rc=$?
check "record-hub.sh: resumed to the end, exit 0 ($(tr '\n' ' ' <"$tmp/out2" | head -c 300))" test $rc -eq 0
check "record-hub.sh: both gzipped" sh -c "gunzip -c '$tmp/rec/convolution.json.gz' | grep -q results &&
    gunzip -c '$tmp/rec/dedispersion.json.gz' | grep -q results"
check "record-hub.sh, 4 GPUs: the convolution on GPU 0, the dedispersion on GPUs 1-3" sh -c \
    "grep -q 'run on 0$' '$tmp/rec/convolution.log' && grep -q 'run on 1,2,3$' '$tmp/rec/dedispersion.log'"
rm "$tmp/rec/dedispersion.json.gz"
"$src/bench/record-hub.sh" "$tmp/fake" "$tmp/rec" >/dev/null 2>&1
check "record-hub.sh, 4 GPUs: once the convolution is complete, the dedispersion on all four" \
    test "$(tail -n 1 "$tmp/rec/dedispersion.log")" = "run on 0,1,2,3"
"$src/bench/record-hub.sh" "$tmp/fake" "$tmp/rec" >"$tmp/out3" 2>&1
check "record-hub.sh: complete runs are not started again" test "$(grep -c 'complete already' "$tmp/out3")" -eq 2
# The convolution done first (a stand-in where it takes 1 s, the dedispersion 4 s): the
# dedispersion is stopped and resumed on all four GPUs, and completes.
sed 's/"${FAKE_SLEEP:-3}"/"$(case $res in *dedisp*) echo 4 ;; *) echo 1 ;; esac)"/' "$tmp/fake" >"$tmp/fake2"
chmod +x "$tmp/fake2"
"$src/bench/record-hub.sh" "$tmp/fake2" "$tmp/move" --cap 100 >"$tmp/out5" 2>&1
rc=$?
check "record-hub.sh: the dedispersion moved to every GPU and completed, exit 0 ($(tr '\n' ' ' <"$tmp/out5" | head -c 400))" \
    sh -c "test $rc -eq 0 && test \"\$(grep 'run on' '$tmp/move/dedispersion.log' | tr '\n' ' ')\" = 'run on 1,2,3 run on 0,1,2,3 ' &&
        gunzip -c '$tmp/move/dedispersion.json.gz' | grep -q results"

# One GPU for both: they take turns (the stand-in notes when each starts and ends).
sed -i 's/^sleep/echo "start $(date +%s%N)"; sleep/; s/^echo .{"results/echo "end $(date +%s%N)"; &/' "$tmp/fake"
printf '#!/bin/sh\n[ "$1" = -L ] && echo "GPU 0: NVIDIA H100 (UUID: GPU-0)"\n' >"$tmp/bin/nvidia-smi"
FAKE_SLEEP=1 "$src/bench/record-hub.sh" "$tmp/fake" "$tmp/one" >"$tmp/out4" 2>&1
rc=$?
check "record-hub.sh on one GPU: both complete, exit 0 ($(tr '\n' ' ' <"$tmp/out4" | head -c 300))" test $rc -eq 0
check "record-hub.sh on one GPU: the dedispersion starts after the convolution ends" python3 -c "
import re
end = int(re.search(r'end (\d+)', open('$tmp/one/convolution.log').read()).group(1))
start = int(re.search(r'start (\d+)', open('$tmp/one/dedispersion.log').read()).group(1))
assert start >= end, (start, end)"
"$src/bench/record-hub.sh" "$tmp/fake" "$tmp/rec" --cap 1s >/dev/null 2>&1
check "record-hub.sh: a cap that is no whole number is refused (exit 2)" test $? -eq 2
finish
