. .devrun/setup.sh S4
export OUT_SW=$OUT
OUT=$OUT SWEEP_DEADLINE=480 bench/search/sweep.sh .devrun/sweep-pow2b.txt 120 25,50,100,200 2>&1 | tail -70
gzip -f $OUT/sweep.json
