#!/usr/bin/env bash
# long_paths.sh CUTUNE SOURCE_DIR - tunes test/gpu/tiny.tune on GPU 0 with its results in
# a folder whose path is over 1,100 bytes: the tune summary reports the results path and
# the journal path (the results path + ".journal", then given with --journal) in full,
# not cut at 1,024 bytes, and the files are where it says. Exits 77 (skipped) without a GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe
gpu_tmp
deep=$tmp
name=$(printf 'a%.0s' $(seq 100))
while [ ${#deep} -le 1100 ]; do
    deep=$deep/$name
done
mkdir -p "$deep" || { echo "FAIL: cannot make $deep"; exit 1; }
results=$deep/r.json
fail=0
check() { # what, command...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$results" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/out" "$tmp/err"; echo "FAIL: cutune exited $rc"; exit 1; }
check "the results path (${#results} bytes) is reported in full" grep -qxF "results: $results" "$tmp/err"
check "the journal path is reported in full" grep -qF "journal: $results.journal (" "$tmp/err"
check "the results file is there" test -s "$results"
check "the journal is there" test -s "$results.journal"
# Resumed, with the journal named explicitly: every variant comes back from it.
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$results" --journal "$results.journal" \
    >"$tmp/out2" 2>"$tmp/err2"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/out2" "$tmp/err2"; echo "FAIL: the second run exited $rc"; exit 1; }
check "--journal's path is reported in full" grep -qF "journal: $results.journal (" "$tmp/err2"
check "the variants were resumed from it" grep -qE "^journal: .* \([1-9][0-9]* variants resumed" "$tmp/err2"
[ $fail -eq 0 ] || { grep -E '^(results|journal):' "$tmp/err" "$tmp/err2" | cut -c1-200; exit 1; }
echo "long paths reported in full"
