. .devrun/setup.sh D2
OLD=bench-bins/cutune-fb563eb6
echo "== suites"
(cd build && CUDA_VISIBLE_DEVICES=0 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite1.txt 2>&1; echo "rc=$?" >> /tmp/suite1.txt) &
(cd build && CUDA_VISIBLE_DEVICES=1,2 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite2.txt 2>&1; echo "rc=$?" >> /tmp/suite2.txt) &
wait
(cd build && ctest --output-on-failure -L gpu -R "gpu/(race|racecap|phases|tune|shards|twins-fleet|faults-fleet|search-fleet|kill9-fleet|devmemo|screen|trace)$" -j1 --timeout 150 > /tmp/suite4.txt 2>&1; echo "rc=$?" >> /tmp/suite4.txt)
for f in /tmp/suite1.txt /tmp/suite2.txt /tmp/suite4.txt; do echo "## $f"; grep -E "tests passed|Failed|\*\*\*|Timeout|rc=" $f; done
mkdir -p /tmp/logs && cp /tmp/suite*.txt /tmp/logs/
echo "== speed, GPU 0: new then old, alternating"
export CUDA_VISIBLE_DEVICES=0
for i in 1 2; do
  MEMO=keep SPACES="sgemm sum_matrix" bench/speed.sh -n 1 /tmp/sp-new$i 2>&1 | tee -a /tmp/logs/speed.txt
  echo "-- old" | tee -a /tmp/logs/speed.txt
  MEMO=keep SPACES="sgemm sum_matrix" bench/speed.sh -n 1 -c $OLD /tmp/sp-old$i 2>&1 | tee -a /tmp/logs/speed.txt
done
python3 - /tmp/sp-new1/sgemm-1.json /tmp/sp-new2/sgemm-1.json /tmp/sp-old1/sgemm-1.json /tmp/sp-old2/sgemm-1.json <<'PY' | tee -a /tmp/logs/speed.txt
import json, sys, collections
for p in sys.argv[1:]:
    d = json.load(open(p)); s = d["summary"]; r = [x for x in d["results"] if x.get("time_ms")]
    L = collections.Counter(x.get("launches") for x in r)
    one = sum(x["time_ms"]["min"] for x in r) / 1e3
    print("%s: gpu %.2f timing %.2f; one launch each at its fastest %.2f s; launches %s; winner %s" % (p, s["gpu_seconds"], s["timing_seconds"], one, sorted(L.items()), d["results"][s["best"]]["params"]))
PY
cp -r /tmp/sp-new1 /tmp/sp-old1 /tmp/logs/ 2>/dev/null
unset CUDA_VISIBLE_DEVICES
echo "== scale"
bench/scale.sh -n 1 /tmp/s4 2>&1 | tail -9 | tee /tmp/logs/scale4.txt
bench/scale.sh -n 1 -d 0,1 /tmp/s2 2>&1 | tail -7 | tee /tmp/logs/scale2.txt
tar czf $OUT/logs.tgz -C /tmp logs
