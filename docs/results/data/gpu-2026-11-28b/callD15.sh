. .devrun/setup.sh D15
nvidia-smi -L
export CUTUNE_CACHE_DIR=/tmp/c15
build/cutune --color never docs/results/data/gpu-2026-11-28b/d15/chunked_sum.tune --no-cache --results /tmp/cs.json > $OUT/chunked_sum.out 2> $OUT/chunked_sum.err; echo "rc=$?"
cat $OUT/chunked_sum.err
python3 - /tmp/cs.json <<'PY' | tee $OUT/chunked_sum.txt
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["results"]:
    print(x["params"]["threads"], x["params"]["UNROLL"], x["status"], (x.get("reason") or "")[:80])
PY
cp /tmp/cs.json $OUT/
