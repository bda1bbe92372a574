. .devrun/setup.sh D5
echo "== driver_start after its fold"
for m in "-n 4 -v -s ctx" "-n 4 -t" "-n 2 -v -k"; do echo "## $m"; build/bench/driver_start $m; done
echo "== budgeted searches, one GPU (GPU 0)"
CUDA_VISIBLE_DEVICES=0 MEMO=keep SPACES="auto genetic auto20 genetic20" bench/speed.sh -n 2 /tmp/s1 2>&1
echo "== budgeted searches, four GPUs (--devices all)"
MEMO=keep OPTS="--devices all" SPACES="auto genetic auto20 genetic20" bench/speed.sh -n 2 /tmp/s4 2>&1
echo "== sum_matrix, nothing cached, GPU 0"
CUDA_VISIBLE_DEVICES=0 SPACES=sum_matrix bench/speed.sh -n 2 /tmp/sm 2>&1
mkdir -p /tmp/logs && for d in s1 s4 sm; do for f in /tmp/$d/*.json; do [ -f "$f" ] && cp "$f" /tmp/logs/$d-$(basename $f); done; done
tar czf $OUT/logs.tgz -C /tmp logs
