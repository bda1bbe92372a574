#!/bin/bash
# The commands of the dedispersion's section of docs/results/2026-11-27j-search.md, as run
# (from the repository root of branch heldout2 at b947c5e9, build/cutune built there); output into $O
# with the prefix dd- (the convolution's section: commands.sh).
cd "$(git rev-parse --show-toplevel)" || exit 1
O=${O:-/tmp/search-2026-11-27j-dd}
mkdir -p "$O"
T="/usr/bin/time -f wall_%e_s,_user_%U_s,_sys_%S_s"
{ date -u +%FT%TZ; uptime; } > $O/dd-times.txt
$T bench/search/landscapes.py --set heldout --seeds 20 --budgets 25,50,100,200,400 --json $O/dd-landscapes-heldout.json > $O/dd-landscapes-heldout.txt 2>$O/dd-landscapes-heldout.time
date -u +%FT%TZ >> $O/dd-times.txt
$T bench/search/priors.py --targets all --budgets 25,50,100 --seeds 20 --json $O/dd-priors.json > $O/dd-priors.txt 2>$O/dd-priors.time
date -u +%FT%TZ >> $O/dd-times.txt
for g in A4000 A6000 W6600; do gunzip -c bench/landscapes/dedispersion_$g.json.gz > /tmp/dA_$g.json; done
gunzip -c bench/landscapes/h100/dedispersion.json.gz > /tmp/dA_H100.json
for pair in H100:none H100:A4000 H100:A6000 H100:W6600 A4000:H100 A6000:H100 W6600:H100 A4000:none A6000:none W6600:none; do
  t=${pair%:*}; p=${pair#*:}; pa=(); [ $p = none ] || pa=(--prior /tmp/dA_$p.json)
  echo "== build/cutune simulate bench/landscapes/dedisp_milo_run.tune --results dedispersion_$t.json --strategy auto --budget 25 --repeat 20 --seed 0 ${pa[*]/\/tmp\/dA_/dedispersion_}"
  build/cutune simulate bench/landscapes/dedisp_milo_run.tune --results /tmp/dA_$t.json --strategy auto --budget 25 --repeat 20 --seed 0 "${pa[@]}" 2>&1
  echo "exit $?"
done > $O/dd-prior-runs.txt
rm -f /tmp/dA_*.json
date -u +%FT%TZ >> $O/dd-times.txt
$T bench/search/landscapes.py --set heldout --only dedispersion --seeds 60 --no-time --json $O/dd60.json > $O/dd60.txt 2>$O/dd60.time
date -u +%FT%TZ >> $O/dd-times.txt
python3 docs/results/data/search-2026-11-27j/dd-landscape.py > $O/dd-landscape.txt
