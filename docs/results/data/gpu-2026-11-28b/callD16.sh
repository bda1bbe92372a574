. .devrun/setup.sh D16
echo "tree $(cat .devrun/TREE) head $(cat .devrun/HEAD)"; nvidia-smi -L; nproc
mkdir -p /tmp/logs
(cd build && CUDA_VISIBLE_DEVICES=0 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/logs/suite1.txt 2>&1; echo "rc=$?" >> /tmp/logs/suite1.txt)
if [ "$(nvidia-smi -L | wc -l)" -ge 2 ]; then
(cd build && CUDA_VISIBLE_DEVICES=0,1 ctest --output-on-failure -L gpu -E "cmake-" -j1 --timeout 150 > /tmp/logs/suite2.txt 2>&1; echo "rc=$?" >> /tmp/logs/suite2.txt)
fi
for f in /tmp/logs/suite*.txt; do echo "## $f"; grep -E "tests passed|Failed|\*\*\*|Timeout|rc=|Total Test" $f; done
grep -rh "binaries not recorded" /tmp/logs/ | head -3
tar czf $OUT/logs-D16.tgz -C /tmp logs
