. .devrun/setup.sh D11
echo "tree $(cat .devrun/TREE) head $(cat .devrun/HEAD)"; N=$(nproc); echo "cores $N"
mkdir -p /tmp/logs
(cd build && CUDA_VISIBLE_DEVICES=0 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/logs/suite1.txt 2>&1; echo "rc=$?" >> /tmp/logs/suite1.txt)
(cd build && CUDA_VISIBLE_DEVICES=0,1 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/logs/suite2.txt 2>&1; echo "rc=$?" >> /tmp/logs/suite2.txt)
for f in /tmp/logs/suite1.txt /tmp/logs/suite2.txt; do echo "## $f"; grep -E "tests passed|Failed|\*\*\*|Timeout|rc=|Total Test" $f; done
export CUDA_VISIBLE_DEVICES=0
for s in 0 1 2 3 4 5 6 7 8 9; do
  build/cutune examples/sgemm.tune --strategy auto --budget 5% --seed $s --no-cache --results /tmp/logs/sa-$s.json --header /tmp/sa.h > /tmp/logs/sgemm-s$s.txt 2>&1
  python3 - /tmp/logs/sa-$s.json docs/results/data/sgemm-h100-full.json $s <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rec = json.load(open(sys.argv[2]))
b = d["results"][d["summary"]["best"]]
ok = [x for x in rec["results"] if x.get("status") == "ok"]
top = max(x["objective"] for x in ok)
same = [x for x in ok if x["params"] == b["params"]]
print("seed %s: GPU best #%s %.1f GFLOPS, recording %.4f of its best" % (sys.argv[3], b.get("index"), b["objective"], same[0]["objective"] / top))
PY
  grep -E "^wall" /tmp/logs/sgemm-s$s.txt
done | tee /tmp/logs/gpu-vs.txt
for r in 1 2; do build/cutune simulate examples/sgemm.tune --results docs/results/data/sgemm-h100-full.json --strategy auto --budget 5% --threads $N --seed 0 --repeat 10 > /tmp/logs/sim-$r.txt 2>&1; done
tail -14 /tmp/logs/sim-1.txt; cmp /tmp/logs/sim-1.txt /tmp/logs/sim-2.txt && echo "simulation reproduced byte for byte"
cp /tmp/logs/* $OUT/ 2>/dev/null; true
