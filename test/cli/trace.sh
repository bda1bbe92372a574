#!/usr/bin/env bash
# trace.sh CUTUNE SOURCE_DIR - CUTUNE_TRACE: the timeline an analysis writes (the compile
# pool in the tuner's process, each compile in a compile worker process) reads as a JSON
# array once "]" closes it, its spans pair up on each track, and it holds compile spans
# of more than one process; a device query is traced too, and a tuning run up to where
# it stops without a GPU; a run without the variable prints what a traced one prints,
# and a file that cannot be opened stops nothing. No GPU needed. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
spec=$src/examples/sweep.tune

# Reads trace file $1 as Perfetto would (the closing "]" missing, a comma after the last
# event) and checks it: every event well-formed, B and E paired per (pid, tid) in order,
# then the Python conditions in $2 over `ev` (the events) and `names`.
check_trace() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
assert text.startswith("[\n"), "the file begins with ["
assert text.endswith(",\n"), "each event ends with a comma and a newline"
ev = json.loads(text.rstrip().rstrip(",") + "]")
open_spans = {}
for e in ev:
    assert e["cat"] == "cutune" and e["ph"] in ("B", "E", "i", "M"), e
    assert isinstance(e["ts"], (int, float)) and isinstance(e["pid"], int) and isinstance(e["tid"], int), e
    track = open_spans.setdefault((e["pid"], e["tid"]), [])
    if e["ph"] == "B":
        track.append(e["name"])
    elif e["ph"] == "E":
        assert track and track.pop() == e["name"], ("an end without its begin", e)
assert not any(open_spans.values()), ("spans left open", open_spans)
names = [e["name"] for e in ev]
if not eval("(" + sys.argv[2] + ")"):
    sys.exit("condition failed: " + sys.argv[2] + "\n" + "\n".join(sorted(set(names))))
EOF
}

# An analysis on an empty cache: every binary compiled, in the compile workers.
CUTUNE_TRACE=$tmp/analyze.json "$cutune" analyze "$spec" >"$tmp/a.out" 2>"$tmp/a.err"
check "a traced analysis exits 0" test $? -eq 0
check "the analysis' trace: the pool, its first job and binary, compiles in more than one process" \
    check_trace "$tmp/analyze.json" '
any(n.startswith("compile pool started") and n.endswith("worker processes") for n in names)
and "first job to the compile pool" in names and "first binary delivered" in names
and len({e["pid"] for e in ev if e["name"] == "compile" and e["ph"] == "B"}) > 1
and all("sum_matrix -DTILE_Y=" in e["args"]["detail"] for e in ev if e["name"] == "compile" and e["ph"] == "B")
and len({e["pid"] for e in ev}) > 2
and {e["pid"] for e in ev if e["name"] == "compile"} <= {e["pid"] for e in ev if e["ph"] == "M" and e["args"]["name"] == "cutune: compile worker"}'

# Again, into the same file: every binary from the cache now, the events appended (one
# "[" still), and the first run's kept.
CUTUNE_TRACE=$tmp/analyze.json "$cutune" analyze "$spec" >"$tmp/b.out" 2>"$tmp/b.err"
check "a second traced analysis exits 0" test $? -eq 0
check "the second analysis appends: cache hits after the first run's compiles" check_trace "$tmp/analyze.json" '
sum(n.startswith("compile pool started") for n in names) == 2
and "cache hit" in names and names.index("compile") < names.index("cache hit")'

# Compiles in threads of one process: spans on several threads of that process.
CUTUNE_COMPILE_WORKERS=threads CUTUNE_CACHE_DIR=$tmp/cache2 CUTUNE_TRACE=$tmp/threads.json \
    "$cutune" analyze "$spec" >/dev/null 2>&1
check "compiles in threads are traced on the threads' tracks" check_trace "$tmp/threads.json" '
len({e["pid"] for e in ev if e["name"] == "compile"}) == 1
and len({e["tid"] for e in ev if e["name"] == "compile"}) > 1'

# The device query (a child process, or the memo): traced whether or not a GPU answers.
CUTUNE_TRACE=$tmp/devices.json "$cutune" devices >/dev/null 2>&1
check "the device query is traced" check_trace "$tmp/devices.json" '
"device query" in names or "device memo hit" in names'

# A tuning run: on a machine without a GPU it stops after the device query (exit 4),
# which is traced; with one, the run's start and end are there too.
CUTUNE_TRACE=$tmp/tune.json "$cutune" "$spec" --limit 1 --results "$tmp/r.json" >/dev/null 2>&1
tuned=$?
check "a traced tuning run exits 0 or 4 (no GPU): $tuned" test $tuned -eq 0 -o $tuned -eq 4
if [ $tuned -eq 4 ]; then
    check "the untuned run's trace: the device query, nothing of a GPU worker" check_trace "$tmp/tune.json" '
("device query" in names or "device memo hit" in names) and not any("GPU" in n for n in names)'
else
    check "the tuning run's trace: its start, the GPU worker's set-up, its end" check_trace "$tmp/tune.json" '
"run start" in names and "GPU 0 worker set-up" in names and "run end" in names'
fi

# Without the variable: the same output as a run with it (both from the cache).
"$cutune" analyze "$spec" >"$tmp/c.out" 2>"$tmp/c.err"
check "untraced analysis exits 0" test $? -eq 0
check "a traced run prints what an untraced one does" cmp -s "$tmp/b.out" "$tmp/c.out"

# A file that cannot be opened: the run goes on untraced.
CUTUNE_TRACE=$tmp/no/such/folder/t.json "$cutune" analyze "$spec" >"$tmp/d.out" 2>/dev/null
check "an unopenable trace file does not stop the analysis" test $? -eq 0
check "... nor change its output" cmp -s "$tmp/b.out" "$tmp/d.out"
finish
