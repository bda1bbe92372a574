. .devrun/setup.sh A
# 1. the hub recordings: the convolution's last 53 on GPU 0, the dedispersion on GPUs 1-3
mkdir -p /tmp/hub && gunzip -c docs/results/data/gpu-2026-11-27i/hub-convolution-h100.journal.gz > /tmp/hub/convolution.json.journal
[ -f .devrun/dedispersion.json.journal.gz ] && gunzip -c .devrun/dedispersion.json.journal.gz > /tmp/hub/dedispersion.json.journal
bench/record-hub.sh build/cutune /tmp/hub --conv-gpus 0 --dedisp-gpus 1,2,3 --cap ${CAP:-170} > $OUT/hub.txt 2>&1
echo "hub rc=$?" >> $OUT/hub.txt
tail -5 /tmp/hub/convolution.log >> $OUT/hub.txt 2>/dev/null; tail -5 /tmp/hub/dedispersion.log >> $OUT/hub.txt 2>/dev/null
cp /tmp/hub/convolution.json.gz $OUT/ 2>/dev/null
gzip -c /tmp/hub/dedispersion.json.journal > $OUT/dedispersion.json.journal.gz 2>/dev/null
wc -l /tmp/hub/*.journal >> $OUT/hub.txt
# 2. several GPUs, warm SGEMM: 4 and 2
bench/scale.sh -n 1 /tmp/s4 > $OUT/scale4.txt 2>&1; echo "rc=$?" >> $OUT/scale4.txt
bench/scale.sh -n 1 -d 0,1 /tmp/s2 > $OUT/scale2.txt 2>&1; echo "rc=$?" >> $OUT/scale2.txt
# 3. sum_matrix on GPU 0: cold; own kernels warm only; all warm; cold with 8 compile workers
export CUDA_VISIBLE_DEVICES=0
SPACES=sum_matrix bench/phases.sh -n 2 /tmp/ph > $OUT/phases.txt 2>&1
sm=bench/speed/sum_matrix.tune
one() { # NAME CACHE [ARGS]: one run, its phases
  local n=$1 c=$2; shift 2
  local t0=$(date +%s.%N)
  CUTUNE_CACHE_DIR=$c build/cutune --color never $sm --results /tmp/ph/$n.json --fresh "$@" > /tmp/ph/$n.log 2> /tmp/ph/$n.err
  local rc=$? t1=$(date +%s.%N)
  echo "== $n rc=$rc $(python3 -c "print(round($t1-$t0,3))") s from outside" >> $OUT/phases.txt
  awk '/^where the time went|^GPU workers. time/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' /tmp/ph/$n.err >> $OUT/phases.txt
}
for r in 1 2; do
  rm -rf /tmp/ow$r; CUTUNE_CACHE_DIR=/tmp/ow$r build/cutune --color never .devrun/warm.tune --results /tmp/ph/w$r.json --fresh > /dev/null 2>&1
  one ownwarm$r /tmp/ow$r
  one allwarm$r /tmp/ow$r
  rm -rf /tmp/j8$r; one cold-j8-$r /tmp/j8$r --jobs 8
done
grep -c . /tmp/ph/*.err | head -3 >> $OUT/phases.txt
