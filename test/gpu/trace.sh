#!/usr/bin/env bash
# trace.sh CUTUNE SOURCE_DIR - CUTUNE_TRACE on a GPU: tunes examples/sweep.tune (--limit
# 24, a fresh cache) with the variable set and checks the timeline: the file reads as a
# JSON array once closed, B and E pair up on every track, the three kinds of process are
# named, the GPU worker's set-up has its steps (driver open, context, its own kernels'
# compiles awaited, the reference compiled, run and kept), each variant it served has
# bench's steps inside it, the tuner's GPU track holds as many variants as the worker
# served and the first is sent after the worker's set-up answered; then prints the
# floor as bench/trace_floor.py reads it. Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe trace
gpu_tmp
CUTUNE_TRACE=$tmp/run.json "$cutune" --color never "$src/examples/sweep.tune" --limit 24 --header "$tmp/tuned.h" --fresh \
    --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/run.json" <<'PY' || exit 1
import collections, json, sys
text = open(sys.argv[1]).read()
assert text.startswith("[\n") and text.endswith(",\n"), "begins with [, each event ends with a comma"
ev = json.loads(text.rstrip().rstrip(",") + "]")
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
stacks = collections.defaultdict(list)
spans = []  # (pid, tid, name, begin, end, depth)
for e in ev:
    key = (e["pid"], e["tid"])
    if e["ph"] == "B":
        stacks[key].append(e)
    elif e["ph"] == "E":
        if not stacks[key] or stacks[key][-1]["name"] != e["name"]:
            fails.append(f"an end without its begin: {e}")
            continue
        b = stacks[key].pop()
        spans.append((e["pid"], e["tid"], b["name"], b["ts"], e["ts"], len(stacks[key])))
check("every span ended", not any(stacks.values()))
names = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
role = lambda pid: names.get(pid, "")
tuner = [p for p, n in names.items() if n == "cutune: the tuner"]
worker = [p for p, n in names.items() if n == "cutune: GPU 0 worker"]
check("the tuner is named", len(tuner) == 1)
check("the GPU worker is named", len(worker) >= 1)
check("compile workers are named", any(n == "cutune: compile worker" for n in names.values()))
w = set(worker)
wnames = {s[2] for s in spans if s[0] in w}
for step in ["GPU 0 worker set-up", "driver open", "context", "wait for own kernels' compiles", "reference",
             "reference compile", "reference run", "reference kept", "args", "load", "checked run"]:
    check(f"the GPU worker's '{step}'", step in wnames)
served = [s for s in spans if s[0] in w and s[2].startswith("variant ")]
check("the GPU worker served variants", len(served) > 0)
inside = lambda s, outer: s[0] == outer[0] and s[1] == outer[1] and outer[3] <= s[3] and s[4] <= outer[4] and s[5] > outer[5]
for v in served:
    steps = {s[2] for s in spans if inside(s, v)}
    check(f"{v[2]} holds args, load, checked run ({sorted(steps)})", {"args", "load", "checked run"} <= steps)
t = set(tuner)
track = [s for s in spans if s[0] in t and s[1] == 1000]
check(f"the tuner's GPU 0 track holds as many variants as the worker served ({len(track)} vs {len(served)})",
      len(track) == len(served))
inst = {e["name"]: e["ts"] for e in ev if e["ph"] == "i" and e["pid"] in t}
for name in ["run start", "GPU 0 worker spawned (pid %d)" % worker[0] if worker else "?", "compile pool started: ",
             "first job to the compile pool", "first binary delivered", "GPU 0 set-up answered", "run end"]:
    check(f"the tuner's '{name}'", any(n.startswith(name) for n in inst))
check("results written", any(s[2] == "results written" for s in spans if s[0] in t))
answered = inst.get("GPU 0 set-up answered")
check("the first variant is sent after the set-up answered", track and answered and track[0][3] >= answered)
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
python3 "$src/bench/trace_floor.py" "$tmp/run.json" || { echo "FAIL: bench/trace_floor.py cannot read it"; exit 1; }
echo "ok"
