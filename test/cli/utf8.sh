#!/usr/bin/env bash
# utf8.sh CUTUNE SOURCE_DIR - text that is not UTF-8 never vanishes from JSON: a compile
# log quoting a kernel's bytes (an #error line with byte 0x80) is kept, its bad byte
# shown as U+FFFD, in `analyze --format json` and in a cache entry served back; a --set
# value that is not UTF-8 is refused.
set -u
cutune=$1
src=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'extern "C" __global__ void k(float *x) {}\n#if BAD\n#error bad byte: \x80 here\n#endif\n' >"$tmp/k.cu"
cat >"$tmp/s.tune" <<'TUNE'
kernel k from "k.cu" {
    param BAD in [0, 1];
    block (32);
    grid (1);
}
TUNE
for round in first cached; do
    "$cutune" analyze "$tmp/s.tune" --format json --cache-dir "$tmp/cache" >"$tmp/$round.json" 2>"$tmp/err"
    check "$round: analyze wrote its JSON" test -s "$tmp/$round.json"
    check "$round: the failed variant's log is in the JSON, bad byte as U+FFFD" python3 - "$tmp/$round.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1], encoding="utf-8"))
bad = [r for r in rows if not r["compiled"]]
assert len(bad) == 1, rows
log = bad[0].get("log")
assert log and "bad byte: \ufffd here" in log, log
PY
done
# --set values reach the results and the journal's identity as JSON: refused, located.
"$cutune" check "$src/examples/sweep.tune" --set nx=$'\xff' >/dev/null 2>"$tmp/err"
check "--set with a non-UTF-8 value: 1" test $? -eq 1
check "--set refusal names the let, located" grep -q -- "sweep.tune:16:9: error: --set nx: the value is not UTF-8 text" "$tmp/err"
finish
