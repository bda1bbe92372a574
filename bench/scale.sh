#!/usr/bin/env bash
# scale.sh - benchmark for issue 19: an exhaustive run on one GPU against the same run on
# several GPUs of the host at once (one process, --devices), the compile cache warm so
# that the GPUs are the bottleneck. Needs a GPU. Not a test: it prints figures; the goal
# (two GPUs in at most 0.55x the one-GPU wall) is printed as met or not.
#
#   bench/scale.sh [-n ROUNDS] [-c build/cutune] [-d DEVICES] [OUT] [-- cutune options]
#
# DEVICES: what --devices gets (default: all). Defaults: 2 rounds, examples/sgemm.tune at
# n = 4096 (cutune options after --, e.g. -- examples/sgemm.tune --set n=2048). Each round
# runs one GPU (--device FIRST) then all of them, each timed whole (the process). Per
# run: the whole command's wall, the tuning wall and GPU seconds from the results, the
# time before the first variant, the winner, and the spread the run printed; then each
# round's ratio, and whether every run holds every configuration once with the same
# statuses and the same winner as the first one-GPU run. OUT keeps the results and logs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=2
cutune=$here/../build/cutune
devices=all
while getopts n:c:d: o; do
    case $o in
    n) rounds=$OPTARG ;;
    c) cutune=$OPTARG ;;
    d) devices=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
out=$(mktemp -d)
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    out=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=("$here/../examples/sgemm.tune" --set n=4096)
mkdir -p "$out"
first=${devices%%,*}
[ "$first" = all ] && first=0

echo "cutune: $cutune"
"$cutune" devices
echo "spec and options: ${args[*]}; --devices $devices; $rounds rounds; raw: $out"
date -u
"$cutune" "${args[@]}" --device "$first" --results "$out/warm.json" --fresh -q >/dev/null 2>&1 # the cache, warm

# run NAME cutune-options...: the whole command's wall into $out/NAME.wall
run() {
    local name=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    "$cutune" --color never "${args[@]}" "$@" --results "$out/$name.json" --fresh >"$out/$name.out" 2>"$out/$name.err" ||
        echo "($name exited $?)"
    t1=$(date +%s.%N)
    python3 -c "print($t1 - $t0)" >"$out/$name.wall"
}
for r in $(seq "$rounds"); do
    run "one$r" --device "$first"
    run "all$r" --devices "$devices"
done
date -u
python3 - "$out" "$rounds" <<'PY'
import json, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    d = json.load(open(os.path.join(out, name + ".json")))
    wall = float(open(os.path.join(out, name + ".wall")).read())
    spread = [l.strip() for l in open(os.path.join(out, name + ".err")) if l.startswith("spread:")]
    return d, wall, spread
ref, _, _ = load("one1")
want = {r["index"]: r["status"] for r in ref["results"]}
best = ref["results"][ref["summary"]["best"]]["index"]
ratios, same = [], True
for r in range(1, rounds + 1):
    walls = {}
    for kind in ("one", "all"):
        d, wall, spread = load("%s%d" % (kind, r))
        s = d["summary"]
        got = {}
        for e in d["results"]:
            got.setdefault(e["index"], []).append(e["status"])
        once = sorted(got) == sorted(want) and all(len(v) == 1 for v in got.values())
        statuses = all(got[i][0] == want[i] for i in want if i in got)
        b = d["results"][s["best"]] if s["best"] is not None else None
        gpus = d["settings"].get("devices", [])
        per = {g: sum(1 for e in d["results"] if e.get("gpu") == g) for g in gpus}
        print("%s%d: whole %.2f s, tuning %.2f s, GPU %.2f s, first variant at %.2f s, %d configurations%s%s, "
              "winner #%s (%.4f ms)%s" % (
                  kind, r, wall, s["wall_seconds"], s["gpu_seconds"], s["first_variant_seconds"] or 0, len(got),
                  "" if once else " (NOT each once)", "" if statuses else " (statuses differ)",
                  b["index"] if b else "-", b["time_ms"]["median"] if b else 0,
                  ("; per GPU " + ", ".join("%d: %d" % kv for kv in per.items())) if per else ""))
        for line in spread:
            print("    " + line)
        same &= once and statuses and b is not None and b["index"] == best
        walls[kind] = wall
    ratios.append(walls["all"] / walls["one"])
    print("round %d: all GPUs / one GPU, whole command: %.3f" % (r, ratios[-1]))
m = statistics.median(ratios)
print("ratio (median of %d rounds): %.3f; goal <= 0.55 with two GPUs: %s; same configurations, statuses and "
      "winner in every run: %s" % (rounds, m, "met" if m <= 0.55 else "NOT met", "yes" if same else "NO"))
PY
