. .devrun/setup.sh D3
export CUDA_VISIBLE_DEVICES=0
build/cutune devices > /dev/null 2>&1
for sp in sum_matrix sgemm sgemm1778; do
  spec=bench/speed/$sp.tune; extra=
  [ $sp = sgemm1778 ] && spec=examples/sgemm.tune && extra="--set n=4096"
  rm -f /tmp/t-$sp.json; CUTUNE_TRACE=/tmp/t-$sp.json build/cutune --color never $spec $extra --results /tmp/r-$sp.json --header /tmp/h-$sp.h --fresh > /tmp/o-$sp.txt 2>&1; echo "$sp rc=$?"
  grep -E "^best|wall" /tmp/o-$sp.txt | head -3
  python3 - /tmp/t-$sp.json <<'PY'
import json, re, sys
t = open(sys.argv[1]).read(); ev = json.loads(t.rstrip().rstrip(",") + "]")
xs = []
for e in ev:
    if e.get("name") == "cold and warm":
        m = re.match(r"cold ([\d.]+) ms, fastest warm ([\d.]+) ms \((\d+) samples of (\d+)", e["args"]["detail"])
        c, w, n, b = float(m[1]), float(m[2]), int(m[3]), int(m[4]); xs.append((c, w, n, b))
for lab, sel in (("all", xs), ("batch 1", [x for x in xs if x[3] == 1]), ("warm >= 1 ms", [x for x in xs if x[1] >= 1])):
    if not sel: continue
    ex = sorted(c - w for c, w, n, b in sel); rel = sorted((c - w) / w for c, w, n, b in sel)
    q = lambda a, p: a[min(len(a) - 1, int(p * len(a)))]
    print("%-13s n %4d  excess ms: min %.4f p10 %.4f p50 %.4f p90 %.4f p99 %.4f max %.4f | relative p50 %.4f p90 %.4f max %.4f" % (lab, len(sel), ex[0], q(ex,.1), q(ex,.5), q(ex,.9), q(ex,.99), ex[-1], q(rel,.5), q(rel,.9), rel[-1]))
top = sorted(xs, key=lambda x: x[0] - x[1])[-5:]
print("largest:", ["cold %.4f warm %.4f n %d b %d" % x for x in top])
PY
done
