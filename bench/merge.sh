#!/usr/bin/env bash
# merge.sh - benchmark: `cutune merge` of the N shards of a large space. The shards are
# generated from a spec's own configurations by bench/merge/shards.py (no GPU: made-up
# outcomes, every field a real H100 entry has; 103,680 configurations for the default
# spec, bench/merge/gemm_1e5.tune, about 1.3 KB an entry), once per N into WORK. Each
# command is timed whole, ROUNDS times per N (and per binary with -b, the two taking
# turns), with its wall, user and system CPU seconds and peak memory; the best and median
# wall and CPU are printed per N. The merged file is checked once per N: every
# configuration once, in ordinal order, and the same entries whatever N (-x skips it).
# The machine's load average is printed first: on a shared machine compare CPU seconds.
#
#   bench/merge.sh [-c CUTUNE] [-b BASELINE] [-r ROUNDS] [-n "4 8 16"] [-x] WORK [SPEC]
#
#   bench/merge.sh /tmp/merge                      # build/cutune, N = 4, 8, 16, 3 rounds
#   bench/merge.sh -b /tmp/cutune-old -n 8 /tmp/merge
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cutune=$here/../build/cutune
baseline=""
rounds=3
shards="4 8 16"
verify=1
while getopts "c:b:r:n:xh" opt; do
    case $opt in
    c) cutune=$OPTARG ;;
    b) baseline=$OPTARG ;;
    r) rounds=$OPTARG ;;
    n) shards=$OPTARG ;;
    x) verify=0 ;;
    *) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "merge.sh: WORK folder needed (try -h)" >&2; exit 2; }
work=$1
spec=${2:-$here/merge/gemm_1e5.tune}
[ -x /usr/bin/time ] || { echo "merge.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
mkdir -p "$work"
cutune=$(cd "$(dirname "$cutune")" && pwd)/$(basename "$cutune")

echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(hostname)  cores: $(nproc)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cutune: $cutune${baseline:+  baseline: $baseline}  spec: $spec"
"$cutune" check "$spec" | grep '^space'

# One timed merge: "wall user sys peak_kb" on stdout; the merged file at $2.
merge_once() { # BIN OUT SHARD...
    local bin=$1 out=$2
    shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" merge -q "$@" -o "$out"
    tail -n 1 "$work/time"
}

stats() { # LABEL then lines "wall user sys kb" on stdin: best and median wall and CPU, peak
    python3 -c '
import sys
rows = [[float(x) for x in l.split()] for l in sys.stdin if l.strip()]
wall = sorted(r[0] for r in rows)
cpu = sorted(r[1] + r[2] for r in rows)
mid = (len(rows) - 1) // 2
print("%-34s %8.2f %8.2f %8.2f %8.2f %8.0f" % (sys.argv[1], wall[0], wall[mid], cpu[0], cpu[mid],
                                              max(r[3] for r in rows) / 1024))' "$1"
}

printf '%-34s %8s %8s %8s %8s %8s\n' "merge (N shards)" best_s med_s cpu_best cpu_med peak_MB
for n in $shards; do
    dir=$work/$(basename "$spec" .tune)-$n
    if [ ! -s "$dir/r.shard-$((n - 1))-of-$n.json" ]; then
        python3 "$here/merge/shards.py" "$cutune" "$spec" "$n" "$dir" >/dev/null
    fi
    files=("$dir"/r.shard-*-of-"$n".json)
    mb=$(du -cm "${files[@]}" | tail -n 1 | cut -f1)
    : >"$work/new.times"
    : >"$work/old.times"
    for _ in $(seq "$rounds"); do
        merge_once "$cutune" "$work/merged-$n.json" "${files[@]}" >>"$work/new.times"
        if [ -n "$baseline" ]; then
            merge_once "$baseline" "$work/baseline-$n.json" "${files[@]}" >>"$work/old.times"
        fi
    done
    stats "N=$n ($mb MB)" <"$work/new.times"
    [ -z "$baseline" ] || stats "N=$n baseline" <"$work/old.times"
    if [ "$verify" = 1 ]; then
        python3 - "$work/merged-$n.json" "$work/merged-first.json" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
idx = [e["index"] for e in d["results"]]
assert idx == list(range(len(idx))), "not every configuration once, in ordinal order"
assert "shard" not in d["settings"], "a complete merge holds settings.shard"
first = sys.argv[2]
if os.path.exists(first):  # the same entries whatever the split
    assert json.load(open(first))["results"] == d["results"], "entries differ from the first N's"
else:
    json.dump(d, open(first, "w"))
print("  checked: %d configurations once, in ordinal order, best #%s" % (len(idx), d["summary"]["best"]))
EOF
    fi
    if [ -n "$baseline" ] && ! cmp -s "$work/merged-$n.json" "$work/baseline-$n.json"; then
        echo "  the baseline's merged file differs" >&2
    fi
done
rm -f "$work/merged-first.json"
