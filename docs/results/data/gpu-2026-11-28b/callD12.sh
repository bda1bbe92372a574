. .devrun/setup.sh D12
echo "tree $(cat .devrun/TREE)"; nvidia-smi -L; nproc
mkdir -p /tmp/rec; export CUTUNE_CACHE_DIR=/tmp/rec/.cache
t0=$(date +%s)
timeout -s TERM -k 30 500 build/cutune tune bench/landscapes/inpoly.tune --strategy exhaustive -q --results /tmp/rec/inpoly.json > /tmp/rec/inpoly.log 2>&1
echo "rc=$? wall $(( $(date +%s) - t0 )) s"
tail -25 /tmp/rec/inpoly.log
if [ -s /tmp/rec/inpoly.json ]; then gzip -9 -k /tmp/rec/inpoly.json; cp /tmp/rec/inpoly.json.gz $OUT/; fi
cp /tmp/rec/inpoly.log $OUT/; gzip -c /tmp/rec/inpoly.json.journal > $OUT/inpoly.journal.gz 2>/dev/null; true
