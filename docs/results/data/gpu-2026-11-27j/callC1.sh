. .devrun/setup.sh C1
OLD=bench-bins/cutune-970abc25
# 1. the dedispersion's end on GPU 3 (its journal is complete: the final race and the file), meanwhile
#    the new GPU tests on GPU 0
mkdir -p /tmp/hub && gunzip -c .devrun/dedispersion.json.journal.gz > /tmp/hub/dedispersion.json.journal
echo done | gzip > /tmp/hub/convolution.json.gz
(bench/record-hub.sh build/cutune /tmp/hub --dedisp-gpus 3 --cap 200 > $OUT/hub.txt 2>&1; echo "hub rc=$?" >> $OUT/hub.txt
 tail -8 /tmp/hub/dedispersion.log >> $OUT/hub.txt; cp /tmp/hub/dedispersion.json.gz $OUT/ 2>/dev/null) &
(cd build && CUDA_VISIBLE_DEVICES=0 ctest -L gpu -R "gpu/(scribble|racecap|race|vectors|hooks|faults|fill|phases)$" --output-on-failure -j1 --timeout 150) > $OUT/tests-new.txt 2>&1
echo "tests rc=$?" >> $OUT/tests-new.txt
wait
# 2. one GPU, old and new in turn: the device memo kept, then fully cold
export CUDA_VISIBLE_DEVICES=0
MEMO=keep bench/speed.sh -n 2 /tmp/sp-new > $OUT/speed.txt 2>&1
echo "== old" >> $OUT/speed.txt
MEMO=keep bench/speed.sh -n 2 -c $OLD /tmp/sp-old >> $OUT/speed.txt 2>&1
echo "== cold (no memo): new, old" >> $OUT/speed.txt
SPACES=sum_matrix bench/speed.sh -n 1 /tmp/sp-new2 >> $OUT/speed.txt 2>&1
SPACES=sum_matrix bench/speed.sh -n 1 -c $OLD /tmp/sp-old2 >> $OUT/speed.txt 2>&1
MEMO=keep SPACES=sum_matrix bench/phases.sh -n 1 /tmp/ph-new > $OUT/phases.txt 2>&1
# 3. pnpoly: the GPU workers' account, new and old
MEMO=keep SPACES=pnpoly timeout 200 bench/phases.sh -n 1 /tmp/pp-new > $OUT/pnpoly.txt 2>&1
echo "== old" >> $OUT/pnpoly.txt
MEMO=keep SPACES=pnpoly timeout 200 bench/phases.sh -n 1 -c $OLD /tmp/pp-old >> $OUT/pnpoly.txt 2>&1
python3 - >> $OUT/pnpoly.txt <<'PY'
import json
for side in ("new", "old"):
    try:
        d = json.load(open("/tmp/pp-%s/pnpoly-1.json" % side))
    except Exception as e:
        print(side, e); continue
    s = d["summary"]; st = {}
    for r in d["results"]: st[r["status"]] = st.get(r["status"], 0) + 1
    print(side, "variants", len(d["results"]), st, "gpu_s", s.get("gpu_seconds"), "timing_s", s.get("timing_seconds"),
          "best", d["results"][s["best"]]["params"] if s.get("best") is not None else None)
PY
