. .devrun/setup.sh D8
echo "tree $(cat .devrun/TREE)"
(cd build && CUDA_VISIBLE_DEVICES=0 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite1.txt 2>&1; echo "rc=$?" >> /tmp/suite1.txt) &
(cd build && CUDA_VISIBLE_DEVICES=1,2 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/suite2.txt 2>&1; echo "rc=$?" >> /tmp/suite2.txt) &
wait
(cd build && ctest --output-on-failure -L gpu -R "gpu/(race|racecap|phases|tune|shards|twins-fleet|faults-fleet|search-fleet|kill9-fleet|devmemo|screen|trace)$" -j1 --timeout 150 > /tmp/suite4.txt 2>&1; echo "rc=$?" >> /tmp/suite4.txt)
for f in /tmp/suite1.txt /tmp/suite2.txt /tmp/suite4.txt; do echo "## $f"; grep -E "tests passed|Failed|\*\*\*|Timeout|rc=|Test +#" $f | sed 's/  */ /g'; done
mkdir -p /tmp/logs && cp /tmp/suite*.txt /tmp/logs/ && tar czf $OUT/logs.tgz -C /tmp logs
