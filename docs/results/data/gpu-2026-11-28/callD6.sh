. .devrun/setup.sh D6
echo "== genetic, its window the pipeline's depth: one GPU (GPU 0), then four"
CUDA_VISIBLE_DEVICES=0 MEMO=keep SPACES="genetic genetic20" bench/speed.sh -n 2 /tmp/g1 2>&1
MEMO=keep OPTS="--devices all" SPACES="genetic genetic20" bench/speed.sh -n 1 /tmp/g4 2>&1
echo "== auto20 traced, four GPUs and one"
export CUTUNE_CACHE_DIR=/tmp/tc4; rm -rf /tmp/tc4; build/cutune devices > /dev/null 2>&1
CUTUNE_TRACE=/tmp/a4.json build/cutune --color never examples/sgemm.tune --budget 20% --seed 1 --set n=4096 --devices all --results /tmp/a4r.json --header /tmp/a4.h --fresh > /tmp/a4.out 2>&1; echo "rc=$?"
export CUTUNE_CACHE_DIR=/tmp/tc1; rm -rf /tmp/tc1; CUDA_VISIBLE_DEVICES=0 build/cutune devices > /dev/null 2>&1
CUDA_VISIBLE_DEVICES=0 CUTUNE_TRACE=/tmp/a1.json build/cutune --color never examples/sgemm.tune --budget 20% --seed 1 --set n=4096 --results /tmp/a1r.json --header /tmp/a1.h --fresh > /tmp/a1.out 2>&1; echo "rc=$?"
for n in a4 a1; do echo "## $n"; grep -E "^wall|^best" /tmp/$n.out; python3 bench/trace_floor.py /tmp/$n.json --variants 2 > /tmp/floor-$n.txt 2>&1; head -40 /tmp/floor-$n.txt; done
mkdir -p /tmp/logs && cp /tmp/floor-a4.txt /tmp/floor-a1.txt /tmp/a4.out /tmp/a1.out /tmp/logs/ && gzip -c /tmp/a4.json > /tmp/logs/trace-a4.json.gz && gzip -c /tmp/a1.json > /tmp/logs/trace-a1.json.gz
for d in g1 g4; do for f in /tmp/$d/*.json; do [ -f "$f" ] && cp "$f" /tmp/logs/$d-$(basename $f); done; done
tar czf $OUT/logs.tgz -C /tmp logs
