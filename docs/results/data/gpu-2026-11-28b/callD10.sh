. .devrun/setup.sh D10
echo "tree $(cat .devrun/TREE)"; N=$(nproc); echo "cores $N"
mkdir -p /tmp/logs
for s in 0 1 2 3 4 5 6 7 8 9; do
  for b in build/cutune bench-bins/cutune-1cd8ec4c; do
    n=$(basename $b)
    $b examples/sgemm.tune --strategy auto --budget 5% --seed $s --no-cache --results /tmp/sa-$n-$s.json --header /tmp/sa.h > /tmp/logs/sgemm-$n-s$s.txt 2>&1
    python3 - /tmp/sa-$n-$s.json docs/results/data/sgemm-h100-full.json $n $s <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rec = json.load(open(sys.argv[2]))
b = d["results"][d["summary"]["best"]]
ok = [x for x in rec["results"] if x.get("status") == "ok"]
top = max(x["objective"] for x in ok)
same = [x for x in ok if x["params"] == b["params"]]
print("%s seed %s: GPU best #%s %.1f GFLOPS, recording %.4f of its best" % (sys.argv[3], sys.argv[4], b.get("index"), b["objective"], same[0]["objective"] / top))
PY
  done
done | tee /tmp/logs/gpu-vs.txt
for b in build/cutune bench-bins/cutune-1cd8ec4c; do $b simulate examples/sgemm.tune --results docs/results/data/sgemm-h100-full.json --strategy auto --budget 5% --threads $N --seed 0 --repeat 10 > /tmp/logs/sim-$(basename $b).txt 2>&1; echo "$b"; tail -14 /tmp/logs/sim-$(basename $b).txt; done
tar czf $OUT/logs.tgz -C /tmp logs
