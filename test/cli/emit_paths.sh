#!/usr/bin/env bash
# emit_paths.sh CUTUNE SOURCE_DIR - a spec's emit paths that leave its folder
# ("../../etc/x.h", an absolute path) are written only into a folder the command line
# names (--emit-dir DIR), or not at all: tuning refuses to start, naming each path at
# its file:line:col. Before, a spec from elsewhere wrote wherever it said. No GPU: the
# refusal comes before anything runs.
set -u
cutune=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # the test changes folder
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
mkdir -p "$tmp/specs/s" "$tmp/out" "$tmp/elsewhere"
echo 'extern "C" __global__ void k(float *x) { x[threadIdx.x] = 1; }' >"$tmp/specs/s/k.cu"
cat >"$tmp/specs/s/e.tune" <<TUNE
kernel k from "k.cu" {
    param bx in [64, 128] as none;
    block bx;
    grid 1;
    arg x : out float[128];
    emit header "../../out/x.h";
    emit csv "$tmp/out/x.csv";
    emit results "r.json";
}
TUNE
cd "$tmp/specs/s" || exit 2
"$cutune" e.tune --limit 1 >"$tmp/o" 2>"$tmp/e"
check "leaving paths without --emit-dir: refused (exit 2)" test $? -eq 2
check "... the header's path named at its place" grep -q "^cutune: e.tune:6:17: emit header \"./../../out/x.h\" leaves the spec's folder, and no --emit-dir was given: not written" "$tmp/e"
check "... the CSV's too" grep -q "^cutune: e.tune:7:14: emit csv \"$tmp/out/x.csv\" leaves the spec's folder" "$tmp/e"
check "... the results' path (inside) is not" bash -c "! grep -q 'emit results' '$tmp/e'"
check "... nothing was compiled" bash -c "! grep -q 'compiled' '$tmp/e' '$tmp/o'"
"$cutune" e.tune --limit 1 --emit-dir "$tmp/elsewhere" >"$tmp/o" 2>"$tmp/e"
check "--emit-dir naming another folder: still refused" test $? -eq 2
check "... saying so" grep -q "the --emit-dir folder given does not hold it" "$tmp/e"
"$cutune" e.tune --limit 1 --emit-dir "$tmp/out" >"$tmp/o" 2>"$tmp/e"
rc=$?
check "--emit-dir naming their folder: tuning goes on (exit $rc: 0 tuned, 4 no GPU)" test $rc -eq 0 -o $rc -eq 4
check "... nothing refused" bash -c "! grep -q 'not written' '$tmp/e'"
"$cutune" e.tune --limit 1 --header "$tmp/h.h" --csv "$tmp/c.csv" >"$tmp/o" 2>"$tmp/e"
rc=$?
check "--header and --csv replacing them: tuning goes on (exit $rc)" test $rc -eq 0 -o $rc -eq 4
"$cutune" e.tune --limit 1 --emit-dir "$tmp/nope" >"$tmp/o" 2>"$tmp/e"
check "--emit-dir that is not a folder: a usage error" test $? -eq 2
"$cutune" check e.tune >"$tmp/o" 2>"$tmp/e"
check "check: exit 0 (a warning)" test $? -eq 0
check "check warns at each leaving path" test "$(grep -c "warning: emit .* leaves the spec's folder" "$tmp/e")" -eq 2
finish
