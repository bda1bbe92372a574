. .devrun/setup.sh C2
OLD=bench-bins/cutune-970abc25
# 1. the GPU suite on GPU 0 and on GPUs 1,2 at once; the dedispersion's final race and file on GPU 3
mkdir -p /tmp/hub && gunzip -c .devrun/dedispersion.json.journal.gz > /tmp/hub/dedispersion.json.journal
echo done | gzip > /tmp/hub/convolution.json.gz
(bench/record-hub.sh build/cutune /tmp/hub --dedisp-gpus 3 --cap 150 > $OUT/hub.txt 2>&1; echo "hub rc=$?" >> $OUT/hub.txt
 tail -6 /tmp/hub/dedispersion.log >> $OUT/hub.txt; cp /tmp/hub/dedispersion.json.gz $OUT/ 2>/dev/null) &
(cd build && CUDA_VISIBLE_DEVICES=0 ctest -L gpu -E "cmake-" -j1 --timeout 150 > $OUT/suite1.txt 2>&1; echo "rc=$?" >> $OUT/suite1.txt) &
(cd build && CUDA_VISIBLE_DEVICES=1,2 ctest -L gpu -E "cmake-" -j1 --timeout 150 > $OUT/suite2.txt 2>&1; echo "rc=$?" >> $OUT/suite2.txt) &
wait
# 2. the several-GPU tests on all four
(cd build && ctest -L gpu -R "gpu/(race|racecap|phases|tune|shards|twins-fleet|faults-fleet|search-fleet|kill9-fleet|devmemo|screen)$" -j1 --timeout 150 > $OUT/suite4.txt 2>&1; echo "rc=$?" >> $OUT/suite4.txt)
# 3. several GPUs, warm SGEMM
bench/scale.sh -n 1 /tmp/s4 > $OUT/scale4.txt 2>&1; echo "rc=$?" >> $OUT/scale4.txt
bench/scale.sh -n 1 -d 0,1 /tmp/s2 > $OUT/scale2.txt 2>&1; echo "rc=$?" >> $OUT/scale2.txt
# 4. one GPU: new and old, the device memo kept
export CUDA_VISIBLE_DEVICES=0
MEMO=keep SPACES="sum_matrix auto genetic" bench/speed.sh -n 2 /tmp/sp-new > $OUT/speed.txt 2>&1
echo "== old" >> $OUT/speed.txt
MEMO=keep SPACES="sum_matrix auto" bench/speed.sh -n 2 -c $OLD /tmp/sp-old >> $OUT/speed.txt 2>&1
MEMO=keep SPACES=sgemm bench/speed.sh -n 1 /tmp/sp-sg >> $OUT/speed.txt 2>&1
python3 - /tmp/sp-sg/sgemm-1.json >> $OUT/speed.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]; r = d["results"]
ran = [x for x in r if x.get("time_ms")]
one = sum(x["time_ms"]["min"] for x in ran) / 1e3
print("sgemm 330: %d ran; gpu_s %.2f; one launch each at its fastest sample: %.2f s; launches %d; timing_s %.2f; gpu_work %s" % (
    len(ran), s["gpu_seconds"], one, sum(x.get("launches") or 0 for x in ran), s["timing_seconds"],
    " ".join("%s=%.2f" % kv for kv in (s.get("gpu_work") or {}).items())))
PY
MEMO=keep SPACES=sum_matrix bench/phases.sh -n 1 /tmp/ph > $OUT/phases.txt 2>&1
python3 - /tmp/sp-new/sum_matrix-1.json /tmp/sp-new/sum_matrix-2.json >> $OUT/phases.txt <<'PY'
import json, sys
for p in sys.argv[1:]:
    d = json.load(open(p)); s = d["summary"]; r = [x for x in d["results"] if x["status"] == "ok"]; w = d["results"][s["best"]]
    c = [x for x in r if x["launches"] > x["reps"] + 1]; f = [x for x in c if not x["pruned"]]; t = [x for x in c if x.get("tied")]
    p_ = [x for x in r if x.get("provisional")]
    print("%s: race %.3f s of %.3f s; raced %d (in full %d, tied %d, behind %d), not raced %d; winner %s" % (p, s["phases"]["race"], s["phases"]["wall"], len(c), len(f), len(t), len(c) - len(f) - len(t), len(p_), w["params"]))
PY
# 5. a timeline, when this build has CUTUNE_TRACE
if grep -q CUTUNE_TRACE build/cutune 2>/dev/null; then
  rm -f /tmp/t1.json; CUTUNE_TRACE=/tmp/t1.json build/cutune --color never bench/speed/sum_matrix.tune --results /tmp/t1r.json --fresh > /dev/null 2>&1
  unset CUDA_VISIBLE_DEVICES
  rm -f /tmp/t4.json; CUTUNE_TRACE=/tmp/t4.json build/cutune --color never examples/sgemm.tune --set n=4096 --devices all --results /tmp/t4r.json --fresh > /dev/null 2>&1
  gzip -c /tmp/t1.json > $OUT/trace-sum_matrix.json.gz; gzip -c /tmp/t4.json > $OUT/trace-sgemm-4gpus.json.gz
  python3 bench/trace_floor.py /tmp/t1.json > $OUT/floor-sum_matrix.txt 2>&1
  python3 bench/trace_floor.py /tmp/t4.json --variants 2 > $OUT/floor-sgemm-4gpus.txt 2>&1
fi
