. .devrun/setup.sh D9
echo "tree $(cat .devrun/TREE)"
N=$(nproc); mkdir -p /tmp/logs
(cd build && CUDA_VISIBLE_DEVICES=0 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite1.txt 2>&1; echo "rc=$?" >> /tmp/suite1.txt) &
(cd build && CUDA_VISIBLE_DEVICES=1,2 ctest --output-on-failure -L gpu -R "gpu/(search|search-fleet|screen|tune)$" -j1 --timeout 150 > /tmp/suite2.txt 2>&1; echo "rc=$?" >> /tmp/suite2.txt) &
wait
for f in /tmp/suite1.txt /tmp/suite2.txt; do echo "## $f"; grep -E "tests passed|Failed|\*\*\*|Timeout|rc=" $f; done
cp /tmp/suite*.txt /tmp/logs/
export CUDA_VISIBLE_DEVICES=0
for s in 0 1 2 3; do
  build/cutune examples/sgemm.tune --strategy auto --budget 5% --seed $s --no-cache --results /tmp/sa-$s.json --header /tmp/sa-$s.h > /tmp/logs/sgemm-auto-s$s.txt 2>&1; echo "seed $s rc=$?"
  build/cutune simulate examples/sgemm.tune --results docs/results/data/sgemm-h100-full.json --strategy auto --budget 5% --threads $N --seed $s > /tmp/logs/sim-s$s.txt 2>&1
  grep -E "^wall|variants:" /tmp/logs/sgemm-auto-s$s.txt; grep -A2 "^ run" /tmp/logs/sim-s$s.txt | tail -1
  python3 - /tmp/sa-$s.json docs/results/data/sgemm-h100-full.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rec = json.load(open(sys.argv[2]))
b = d["results"][d["summary"]["best"]]
ok = [x for x in rec["results"] if x.get("status") == "ok"]
top = max(x["objective"] for x in ok)
same = [x for x in ok if x["params"] == b["params"]]
print("GPU best #%s %.1f GFLOPS; in the recording %.1f = %.4f of its best; evaluations %d" % (b.get("index"), b["objective"], same[0]["objective"] if same else float("nan"), (same[0]["objective"] / top) if same else float("nan"), len([x for x in d["results"] if x.get("status")])))
PY
  cp /tmp/sa-$s.json /tmp/logs/
done
tar czf $OUT/logs.tgz -C /tmp logs
