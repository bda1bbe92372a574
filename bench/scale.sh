#!/usr/bin/env bash
# scale.sh - the several-GPU benchmark: an exhaustive run on one GPU against the same
# run on several GPUs of the host at once (one process, --devices), the compile cache warm
# so that the GPUs are the bottleneck. Needs a GPU. Not a test: it prints figures; the
# goal (two GPUs in at most 0.53x the one-GPU wall, four in at most 0.28x) is
# printed as met or not.
#
#   bench/scale.sh [-n ROUNDS] [-c build/cutune] [-b OLD_CUTUNE] [-d DEVICES] [OUT] [-- cutune options]
#
# -b: a second build (e.g. bench-bins/NAME/cutune) run the same way in each round, after
# the first, so that both are measured side by side on the same machine; its runs are
# named old1, oldall1, ...
# DEVICES: what --devices gets (default: all). Defaults: 2 rounds, examples/sgemm.tune at
# n = 4096 (cutune options after --, e.g. -- examples/sgemm.tune --set n=2048). Each round
# runs one GPU (--device FIRST) then all of them, each timed whole (the process). Per
# run: the whole command's wall, the tuning wall and GPU seconds from the results, the
# time before the first variant, the winner, and the spread the run printed; then each
# round's ratio, and whether every run holds every configuration once with the same
# statuses and the same winner as the first one-GPU run. With several GPUs, per GPU: the
# variants it measured, its busy seconds (their gpu_seconds), and its idle seconds
# between its first variant's start and the last variant's end (the GPU waiting for the
# tuner or the compiler; a race contender counts its run and its race run), when its
# first variant started and its own last one ended (seconds from the run's start), and
# the tuning wall after the last end. OUT keeps the results and logs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=2
cutune=$here/../build/cutune
devices=all
old=
while getopts n:c:b:d: o; do
    case $o in
    n) rounds=$OPTARG ;;
    c) cutune=$OPTARG ;;
    b) old=$OPTARG ;;
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

echo "cutune: $cutune${old:+; old: $old}"
"$cutune" devices
echo "spec and options: ${args[*]}; --devices $devices; $rounds rounds; raw: $out"
date -u
"$cutune" "${args[@]}" --device "$first" --results "$out/warm.json" --fresh -q >/dev/null 2>&1 # the cache, warm

[ -z "$old" ] || "$old" "${args[@]}" --device "$first" --results "$out/warm-old.json" --fresh -q >/dev/null 2>&1

# run NAME cutune-options...: the whole command's wall into $out/NAME.wall ($bin: which build)
run() {
    local name=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    "$bin" --color never "${args[@]}" "$@" --results "$out/$name.json" --fresh >"$out/$name.out" 2>"$out/$name.err" ||
        echo "($name exited $?)"
    t1=$(date +%s.%N)
    python3 -c "print($t1 - $t0)" >"$out/$name.wall"
}
for r in $(seq "$rounds"); do
    bin=$cutune
    run "one$r" --device "$first"
    run "all$r" --devices "$devices"
    if [ -n "$old" ]; then
        bin=$old
        run "old$r" --device "$first"
        run "oldall$r" --devices "$devices"
    fi
done
date -u
python3 - "$out" "$rounds" "${old:+old}" <<'PY'
import json, os, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
sides = [("one", "all", "")] + ([("old", "oldall", "old build: ")] if len(sys.argv) > 3 and sys.argv[3] else [])
def load(name):
    d = json.load(open(os.path.join(out, name + ".json")))
    wall = float(open(os.path.join(out, name + ".wall")).read())
    spread = [l.strip() for l in open(os.path.join(out, name + ".err")) if l.startswith("spread:")]
    return d, wall, spread
ref, _, _ = load("one1")
want = {r["index"]: r["status"] for r in ref["results"]}
best = ref["results"][ref["summary"]["best"]]["index"]
def per_gpu(d, gpus):
    """Per GPU: variants, busy s, idle s (its first start to the last end), its first start and its own last end; the time after the last end."""
    s, res = d["summary"], d["results"]
    ran = [e for e in res if e.get("gpu") is not None and e.get("started_s") is not None]
    if not ran:
        return "", 0.0
    last = max(e["started_s"] + (e.get("gpu_seconds") or 0) for e in ran)
    parts = []
    for g in gpus:
        mine = [e for e in ran if e["gpu"] == g]
        busy = sum(e.get("gpu_seconds") or 0 for e in mine)
        start = min((e["started_s"] for e in mine), default=0)
        end = max((e["started_s"] + (e.get("gpu_seconds") or 0) for e in mine), default=0)
        parts.append("GPU %d: %d variants, busy %.2f s, idle %.2f s, from %.2f to %.2f s"
                     % (g, len(mine), busy, max(0.0, last - start - busy), start, end))
    return "; ".join(parts), max(0.0, s["wall_seconds"] - last)
ratios, same = {}, True
for r in range(1, rounds + 1):
    for one, alln, label in sides:
        walls = {}
        for kind in (one, alln):
            d, wall, spread = load("%s%d" % (kind, r))
            s = d["summary"]
            got = {}
            for e in d["results"]:
                got.setdefault(e["index"], []).append(e["status"])
            once = sorted(got) == sorted(want) and all(len(v) == 1 for v in got.values())
            statuses = all(got[i][0] == want[i] for i in want if i in got)
            b = d["results"][s["best"]] if s["best"] is not None else None
            gpus = d["settings"].get("devices", [])
            print("%s%s%d: whole %.2f s, tuning %.2f s, GPU %.2f s, first variant at %.2f s, %d configurations%s%s, "
                  "winner #%s (%.4f ms)" % (
                      label, kind, r, wall, s["wall_seconds"], s["gpu_seconds"], s["first_variant_seconds"] or 0,
                      len(got), "" if once else " (NOT each once)", "" if statuses else " (statuses differ)",
                      b["index"] if b else "-", b["time_ms"]["median"] if b else 0))
            if gpus:
                line, race = per_gpu(d, gpus)
                print("    per GPU: %s; tuning after the last variant's end: %.2f s" % (line, race))
            for line in spread:
                print("    " + line)
            same &= once and statuses and b is not None and b["index"] == best
            walls[kind] = wall
        ratios.setdefault(label, []).append(walls[alln] / walls[one])
        print("%sround %d: all GPUs / one GPU, whole command: %.3f" % (label, r, ratios[label][-1]))
ngpus = len(load("all1")[0]["settings"].get("devices", [])) or 1
goal = {2: 0.53, 4: 0.28}.get(ngpus)
for label, rs in ratios.items():
    m = statistics.median(rs)
    print("%sratio on %d GPUs (median of %d rounds): %.3f%s" % (
        label, ngpus, rounds, m, "" if goal is None else "; goal <= %.2f: %s" % (goal, "met" if m <= goal else "NOT met")))
print("same configurations, statuses and winner in every run: %s" % ("yes" if same else "NO"))
PY
