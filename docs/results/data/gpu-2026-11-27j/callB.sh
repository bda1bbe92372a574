. .devrun/setup.sh B
# 1. the driver's start, four GPUs taking turns: the token after cuInit, the context, the first allocation
for r in 1 2; do for s in init ctx alloc; do build/bench/driver_start -n 4 -v -s $s; done; done > $OUT/driver.txt 2>&1
build/bench/driver_start -n 1 -v >> $OUT/driver.txt 2>&1
build/bench/driver_start -n 4 -v >> $OUT/driver.txt 2>&1
# 2. the dedispersion, resumed on every GPU and core
mkdir -p /tmp/hub && gunzip -c .devrun/dedispersion.json.journal.gz > /tmp/hub/dedispersion.json.journal
wc -l /tmp/hub/dedispersion.json.journal > $OUT/hub.txt
echo done | gzip > /tmp/hub/convolution.json.gz   # the convolution is complete: the dedispersion takes the machine
bench/record-hub.sh build/cutune /tmp/hub --cap ${CAP:-330} >> $OUT/hub.txt 2>&1
echo "hub rc=$?" >> $OUT/hub.txt
tail -6 /tmp/hub/dedispersion.log >> $OUT/hub.txt 2>/dev/null
cp /tmp/hub/dedispersion.json.gz $OUT/ 2>/dev/null || gzip -c /tmp/hub/dedispersion.json.journal > $OUT/dedispersion.json.journal.gz
wc -l /tmp/hub/*.journal >> $OUT/hub.txt
