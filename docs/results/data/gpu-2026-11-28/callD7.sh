. .devrun/setup.sh D7
B=bench-bins/cutune-base28
(sleep 1.2; echo "-- niceness of the processes 1.2 s into the first run"; ps -eo ni,comm | sort | uniq -c | sort -rn | head -6) &
for i in 1 2; do
  echo "== round $i: nice (new), 4 GPUs"; MEMO=keep OPTS="--devices all" SPACES="auto20" bench/speed.sh -n 1 /tmp/n4-$i 2>&1 | tail -1
  echo "== round $i: base, 4 GPUs"; MEMO=keep OPTS="--devices all" SPACES="auto20" bench/speed.sh -n 1 -c $B /tmp/b4-$i 2>&1 | tail -1
done
echo "== base, 4 GPUs, --jobs 60"; MEMO=keep OPTS="--devices all --jobs 60" SPACES="auto20" bench/speed.sh -n 1 -c $B /tmp/j4 2>&1 | tail -1
echo "== one GPU: nice, base"
CUDA_VISIBLE_DEVICES=0 MEMO=keep SPACES="auto20 sgemm" bench/speed.sh -n 1 /tmp/n1 2>&1 | tail -2
CUDA_VISIBLE_DEVICES=0 MEMO=keep SPACES="auto20 sgemm" bench/speed.sh -n 1 -c $B /tmp/b1 2>&1 | tail -2
python3 - <<'PY'
import json, glob, collections
for f in sorted(glob.glob('/tmp/[nbj]4*/auto20-1.json')):
    d = json.load(open(f)); byd = collections.defaultdict(list)
    for x in d['results']:
        if x.get('started_s') is not None: byd[x.get('gpu', 0)].append(x['started_s'])
    print(f, 'first per GPU:', {k: round(min(v), 2) for k, v in sorted(byd.items())}, 'winner', d['results'][d['summary']['best']]['params'])
PY
