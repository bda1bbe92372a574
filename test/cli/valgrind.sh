#!/usr/bin/env bash
# valgrind.sh CUTUNE SOURCE_DIR - no memory errors and no leaks for check, list and
# analyze on the example specs. check and list cover each whole space; analyze covers
# the first $VG_ANALYZE_LIMIT configurations of each (default 16: the compile pool, the
# cache and the occupancy model run on every example, while analysing all 1,778 variants
# of examples/sgemm.tune would take 10+ minutes on 2 cores) and the test checks it
# analysed exactly those. Each valgrind run costs about 3 s of start-up (libnvrtc), so
# the specs run as parallel jobs, one per core. Skipped (77) where valgrind is not
# installed.
set -u
cutune=$1
src=$2
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed"; exit 77; }
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
limit=${VG_ANALYZE_LIMIT:-16}
jobs=$(nproc 2>/dev/null || echo 2)
# vg DIR COMMAND...: COMMAND under valgrind, stdout to DIR/stdout, valgrind's report
# (and the command's stderr) to DIR/vg, printed when it fails.
vg() {
    local dir=$1
    shift
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 "$@" \
        >"$dir/stdout" 2>"$dir/vg"
    local rc=$?
    [ $rc -eq 0 ] || cat "$dir/vg" # the report, only when it failed
    return $rc
}
# analysed_first DIR: the analysis in DIR/stdout is of the first $limit configurations of
# the listing in DIR/list.json (all when fewer), each with its compile outcome.
analysed_first() {
    python3 - "$limit" "$1/list.json" "$1/stdout" <<'PY'
import json, sys
limit, listed, got = int(sys.argv[1]), json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
want = [c["index"] for c in listed][:limit]
ok = [a["index"] for a in got] == want and all("compiled" in a and (not a["compiled"] or "occupancy" in a) for a in got)
if not ok:
    print("analyzed %s, expected the first %d of the listing: %s" % ([a["index"] for a in got], limit, want))
sys.exit(0 if ok else 1)
PY
}
# one SPEC [KERNEL]: its checks in a subshell (of one kernel block of a file of several:
# the JSON listings take one); the output in $tmp/NAME/log, the failures counted in
# $tmp/NAME/fails (NAME: the spec's file name, with -KERNEL for a block).
one() {
    local spec=$1 kernel=${2:-} name
    name=$(basename "$spec")${kernel:+-$kernel}
    local d=$tmp/$name kargs=()
    [ -n "$kernel" ] && kargs=(--kernel "$kernel")
    mkdir -p "$d"
    (
        fails=0
        vg "$d" "$cutune" check "${kargs[@]}" "$spec"; check "check $name under valgrind" test $? -eq 0
        vg "$d" "$cutune" list --format json "${kargs[@]}" "$spec"; check "list $name under valgrind" test $? -eq 0
        cp "$d/stdout" "$d/list.json"
        # analyze: compiled once outside valgrind (NVRTC is slow there), then from the cache
        "$cutune" analyze --limit "$limit" "${kargs[@]}" "$spec" >/dev/null 2>&1
        vg "$d" "$cutune" analyze --limit "$limit" --format json "${kargs[@]}" "$spec" && analysed_first "$d"
        check "analyze $name (the first $limit configurations) under valgrind" test $? -eq 0
        echo "$fails" >"$d/fails"
    ) >"$d/log" 2>&1
}
# Each example, or each kernel block of an example that has several ("SPEC|KERNEL").
specs=()
for spec in "$src"/examples/*.tune; do
    kernels=$("$cutune" check --format json "$spec" 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(' '.join(k['kernel'] for k in d) if isinstance(d, list) else '')")
    if [ -z "$kernels" ]; then
        specs+=("$spec|")
    else
        for k in $kernels; do specs+=("$spec|$k"); done
    fi
done
check "the examples are there" test ${#specs[@]} -gt 3
running=0
for job in "${specs[@]}"; do
    one "${job%%|*}" "${job#*|}" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for job in "${specs[@]}"; do
    spec=${job%%|*}
    kernel=${job#*|}
    name=$(basename "$spec")${kernel:+-$kernel}
    d=$tmp/$name
    cat "$d/log"
    n=$(cat "$d/fails" 2>/dev/null || echo "no count")
    check "$name: every check ran and passed (failures: $n)" test "$n" = 0
done
mkdir -p "$tmp/invalid"
vg "$tmp/invalid" "$cutune" check "$src/test/golden/several_semantic_errors.tune" >/dev/null
check "an invalid spec under valgrind" test $? -eq 1
finish
