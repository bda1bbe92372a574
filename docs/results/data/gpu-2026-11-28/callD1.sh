. .devrun/setup.sh D1
echo "== settings (read only)"; nvidia-smi -q | grep -i -E "persistence mode|MIG Mode|Current +:" | sort | uniq -c
D=build/bench/driver_start
echo "== driver starts"
for r in 1 2; do for m in "-n 1 -v" "-n 4 -v" "-n 4 -v -s ctx" "-n 1 -t" "-n 4 -t" "-n 1 -v -k" "-n 4 -v -k" "-n 4 -v -s ctx -k" "-n 4 -t -k"; do echo "## $m"; $D $m; done; done 2>&1 | tee $OUT/driver.txt
echo "== suites"
(cd build && CUDA_VISIBLE_DEVICES=0 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite1.txt 2>&1; echo "rc=$?" >> /tmp/suite1.txt) &
(cd build && CUDA_VISIBLE_DEVICES=1,2 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite2.txt 2>&1; echo "rc=$?" >> /tmp/suite2.txt) &
wait
(cd build && ctest --output-on-failure -L gpu -R "gpu/(race|racecap|phases|tune|shards|twins-fleet|faults-fleet|search-fleet|kill9-fleet|devmemo|screen)$" -j1 --timeout 150 > /tmp/suite4.txt 2>&1; echo "rc=$?" >> /tmp/suite4.txt)
for f in /tmp/suite1.txt /tmp/suite2.txt /tmp/suite4.txt; do echo "## $f"; grep -E "tests passed|Failed|\*\*\*|Timeout|rc=" $f; done
mkdir -p /tmp/logs && cp /tmp/suite*.txt /tmp/logs/ && cp build/Testing/Temporary/LastTest.log /tmp/logs/LastTest4.log
tar czf $OUT/suites.tgz -C /tmp logs
