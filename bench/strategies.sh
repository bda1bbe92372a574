#!/usr/bin/env bash
# strategies.sh FULL.json SPEC [CUTUNE] - how close each search strategy gets to the true
# best for budgets of 2 %, 5 % and 10 % of the space: the median over 20 seeds of
# (best found / true best), replayed by `cutune simulate` over FULL.json (the results of
# an exhaustive run of SPEC). Prints a markdown table (and the quartiles in brackets).
# Environment: SEEDS (default 20), BUDGETS (default "2% 5% 10%"), STRATEGIES.
set -eu
full=$1
spec=$2
cutune=${3:-$(dirname "$0")/../build/cutune}
seeds=${SEEDS:-20}
budgets=${BUDGETS:-2% 5% 10%}
strategies=${STRATEGIES:-random anneal genetic local guided}
header="| strategy |"
rule="|---|"
for b in $budgets; do header="$header $b |"; rule="$rule---|"; done
echo "Median over $seeds seeds of best found / true best (quartiles in brackets); $(basename "$full"), $(basename "$spec")"
echo
echo "$header"
echo "$rule"
for s in $strategies; do
    row="| $s |"
    for b in $budgets; do
        cell=$("$cutune" simulate "$spec" --results "$full" --strategy "$s" --budget "$b" --repeat "$seeds" \
                   --seed 1 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["ratio"]
print("%.3f (%.3f..%.3f; %d evals)" % (r["median"], r["q1"], r["q3"], d["budget"]))')
        row="$row $cell |"
    done
    echo "$row"
done
