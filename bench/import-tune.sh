#!/usr/bin/env bash
# bench/import-tune.sh - every T1 sample the project carries (test/data/t1), imported with
# `cutune import` and then, on a GPU, tuned by auto within a budget: what a Kernel Tuner
# user gets from their T1 files as they are.
#
#   bench/import-tune.sh OUT [BUDGET [TIME]]
#
# For each sample: OUT/NAME.tune (the import, its notes on stderr in OUT/NAME.import.txt),
# `cutune check` (OUT/NAME.check.txt), and `cutune NAME.tune --budget BUDGET (default 60)
# --time-budget TIME (default 30s)` into OUT/NAME.json (its account in OUT/NAME.tune.txt).
# A sample that does not import or check is reported and the next one goes on. Prints one
# line per sample: import, check and tune exit codes, the valid space, the best time found,
# and the outcomes with each kind's first reason.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bench/import-tune.sh OUT [BUDGET [TIME]]}
budget=${2:-60}
limit=${3:-30s}
cutune=${CUTUNE:-build/cutune}
mkdir -p "$out"
out=$(cd "$out" && pwd)
for t1 in test/data/t1/*.json test/data/t1/bat/*/*.json; do
    name=$(basename "$t1" .json)
    spec="$out/$name.tune"
    "$cutune" import "$t1" -o "$spec" --force 2>"$out/$name.import.txt"
    ri=$?
    rc=- rt=- valid=- best=-
    if [ $ri -eq 0 ]; then
        "$cutune" check "$spec" >"$out/$name.check.txt" 2>&1
        rc=$?
        valid=$(awk '/^space/ {print $4}' "$out/$name.check.txt")
        if [ $rc -eq 0 ]; then
            "$cutune" "$spec" --budget "$budget" --time-budget "$limit" --results "$out/$name.json" >"$out/$name.tune.txt" 2>&1
            rt=$?
            best=$(python3 - "$out/$name.json" <<'PY' 2>/dev/null || echo -
import collections, json, sys
d = json.load(open(sys.argv[1]))
rs = d["results"]
ok = sorted((r for r in rs if r["status"] == "ok"), key=lambda r: r["objective"])
counts = collections.Counter(r["status"] for r in rs)
first = {}
for r in rs:
    first.setdefault(r["status"], (r.get("reason") or "").splitlines()[0][:90] if r.get("reason") else "")
print("%s ms; %s" % ("%.4g" % ok[0]["objective"] if ok else "none",
      "; ".join("%s %d%s" % (k, v, " (%s)" % first[k] if first[k] else "") for k, v in counts.most_common())))
PY
)
        fi
    fi
    printf '%-20s import=%s check=%s tune=%s valid=%s best=%s\n' "$name" "$ri" "$rc" "$rt" "$valid" "$best"
done
