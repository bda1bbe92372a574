#!/bin/bash
# The commands of docs/results/2026-11-27j-search.md, as run (from the repository root of
# branch heldout at 635a84b2, build/cutune built there); output into $O.
cd "$(git rev-parse --show-toplevel)" || exit 1
O=${O:-/tmp/search-2026-11-27j}
mkdir -p "$O"
{ date -u +%FT%TZ; uptime; } > $O/times.txt
/usr/bin/time -f "wall %e s, user %U s, sys %S s" bench/search/landscapes.py --set heldout --seeds 20 --budgets 25,50,100,200,400 --json $O/landscapes-heldout.json > $O/landscapes-heldout.txt 2>$O/landscapes-heldout.time
date -u +%FT%TZ >> $O/times.txt
/usr/bin/time -f "wall %e s, user %U s, sys %S s" bench/search/landscapes.py --set heldout --only convolution --seeds 60 --no-time --json $O/conv60.json > $O/conv60.txt 2>$O/conv60.time
date -u +%FT%TZ >> $O/times.txt
/usr/bin/time -f "wall %e s, user %U s, sys %S s" bench/search/priors.py --targets all --budgets 25,50,100 --seeds 20 --json $O/priors.json > $O/priors.txt 2>$O/priors.time
date -u +%FT%TZ >> $O/times.txt
for g in A4000 A6000 W6600; do gunzip -c bench/landscapes/convolution_$g.json.gz > /tmp/cA_$g.json; done
gunzip -c bench/landscapes/h100/convolution.json.gz > /tmp/cA_H100.json
for pair in H100:none H100:A4000 H100:A6000 H100:W6600 A4000:H100 A6000:H100 W6600:H100; do
  t=${pair%:*}; p=${pair#*:}; pa=(); [ $p = none ] || pa=(--prior /tmp/cA_$p.json)
  echo "== build/cutune simulate bench/landscapes/conv_milo_run.tune --results convolution_$t.json --strategy auto --budget 25 --repeat 20 --seed 0 ${pa[*]/\/tmp\/cA_/convolution_}"
  build/cutune simulate bench/landscapes/conv_milo_run.tune --results /tmp/cA_$t.json --strategy auto --budget 25 --repeat 20 --seed 0 "${pa[@]}" 2>&1
  echo "exit $?"
done > $O/prior-runs.txt
rm -f /tmp/cA_*.json
date -u +%FT%TZ >> $O/times.txt
