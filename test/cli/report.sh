#!/usr/bin/env bash
# report.sh CUTUNE SOURCE_DIR - `cutune report` end to end without a browser: exit codes
# and messages for unreadable and malformed results; hostile results files (strings made
# to break HTML, NaN objectives, no variants, one param, one variant, no winner) give a
# page whose every element is the report's own (test/report/check_html.py); the page is
# self-contained and the same bytes every time; the real H100 runs (test/data/) give the
# sections docs/report.md promises. The browser test is test/report/browser.sh.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$src/test/data
sum=$data/report-sum_matrix-h100.json
gen=$data/report-sgemm-genetic-h100.json
check_html() { python3 "$src/test/report/check_html.py" "$@" >/dev/null; }

# ---- exit codes and messages ----
"$cutune" report >/dev/null 2>"$tmp/err"; check "no results file: 2" test $? -eq 2
check "no results file: said" grep -q "which results files" "$tmp/err"
"$cutune" report --bogus "$sum" >/dev/null 2>&1; check "an unknown option: 2" test $? -eq 2
"$cutune" report "$tmp/missing.json" -o "$tmp/m.html" 2>"$tmp/err"; check "a missing file: 3" test $? -eq 3
check "a missing file: named, with why" grep -q "cutune report: cannot read '$tmp/missing.json': No such file" "$tmp/err"
check "a missing file: no page" test ! -e "$tmp/m.html"
printf '{"format": "cutune-results", "version": 1, "results": [' >"$tmp/torn.json"
"$cutune" report "$tmp/torn.json" >/dev/null 2>"$tmp/err"; check "torn JSON: 3" test $? -eq 3
check "torn JSON: named as not JSON" grep -q "'$tmp/torn.json' is not JSON" "$tmp/err"
"$cutune" report "$src/test/emit/other_format.json" >/dev/null 2>"$tmp/err"; check "another format: 3" test $? -eq 3
check "another format: said" grep -q 'other_format.json. is not a cutune results file' "$tmp/err"
"$cutune" report "$sum" "$tmp/missing.json" -o "$tmp/m.html" 2>/dev/null
check "one bad file of two: 3, no page" test $? -eq 3 -a ! -e "$tmp/m.html"
mkdir "$tmp/dir"
"$cutune" report "$sum" -o "$tmp/dir" 2>"$tmp/err"; check "a folder as the output: 3" test $? -eq 3
check "a folder as the output: said" grep -q "cannot write '$tmp/dir'" "$tmp/err"

# ---- hostile input ----
python3 "$src/test/report/hostile.py" "$tmp"
for f in hostile zero single nowinner; do
    "$cutune" report "$tmp/$f.json" -o "$tmp/$f.html" 2>"$tmp/err"
    check "$f.json: 0" test $? -eq 0
    check "$f.json: says where the page went" grep -qx "report: $tmp/$f.html" "$tmp/err"
    check "$f.json: only the report's own elements, nothing fetched (check_html.py)" check_html "$tmp/$f.html"
done
check "the checker catches an injected element" bash -c \
    "sed 's|<h1>|<h1><img src=x onerror=alert(1)>|' '$tmp/hostile.html' >'$tmp/bad.html'; ! python3 '$src/test/report/check_html.py' '$tmp/bad.html' >/dev/null"
h=$tmp/hostile.html
check "hostile: no script at all" test "$(grep -c '<script' "$h")" -eq 0
check "hostile: </script> escaped" grep -q '&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;' "$h"
check "hostile: the control character replaced" bash -c "! grep -q \$'\\x01' '$h'"
check "hostile: every cause of failure grouped" bash -c "for s in 'compile error' 'cannot launch' 'load error' \
    'launch error' wrong timeout crashed 'not run'; do grep -q \"<b>\$s</b>: 1 variant \" '$h' || exit 1; done"
check "hostile: a reason shown, escaped" grep -q 'timeout because &lt;/script&gt;' "$h"
# hostile.py: 36 variants, 8 failed (one per cause), 2 of the 28 ok without an objective
check "hostile: 36 variants, 26 with an objective (NaN and untimed left out)" \
    grep -q '36 variants, 26 with an objective' "$h"
mkdir "$tmp/poison"
check "poison: every string a results file carries reaches the page escaped, or is refused (test/report/poison.py)" \
    python3 "$src/test/report/poison.py" "$cutune" "$tmp/poison"
mkdir "$tmp/extremes"
check "objectives of ±1e308: no NaN or infinity in a chart, every point kept, those off the scale marked \
(test/report/extremes.py)" python3 "$src/test/report/extremes.py" "$cutune" "$tmp/extremes"
check "zero: no variants said" grep -q 'No variant has an objective' "$tmp/zero.html"
check "single: one param, no pair" grep -q 'One param: there is no pair to map' "$tmp/single.html"
check "nowinner: no winner said" grep -q 'there is no winner' "$tmp/nowinner.html"
check "nowinner: in short: both failed" grep -q '<li>2 of 2 variants failed (below, by cause).</li>' "$tmp/nowinner.html"

# ---- the real H100 runs ----
"$cutune" report -q "$sum" -o "$tmp/sum.html" 2>"$tmp/err"
check "sum_matrix: 0, quiet" test $? -eq 0 -a ! -s "$tmp/err"
check "sum_matrix: the report's own elements" check_html "$tmp/sum.html"
"$cutune" report -q "$sum" -o "$tmp/sum2.html"
check "the same results give the same bytes" cmp -s "$tmp/sum.html" "$tmp/sum2.html"
"$cutune" report "$sum" >"$tmp/stdout.html" 2>/dev/null
check "without -o: the page on stdout" cmp -s "$tmp/sum.html" "$tmp/stdout.html"
# the winner docs/results/sum_matrix-h100.md reports: 64 x 1, tile_y 8, maxrreg 64, 2,935 GB/s
check "sum_matrix: the winner's objective" grep -q '<th>bandwidth_GBps (higher is better)</th><td>2935</td>' "$tmp/sum.html"
check "sum_matrix: in short: none of the 312 failed" grep -q '<li>0 of 312 variants failed.</li>' "$tmp/sum.html"
check "sum_matrix: the first map is block_x by block_y" grep -q '>block_x × block_y</text>' "$tmp/sum.html"
check "sum_matrix: the other 5 pairs" grep -q 'The other 5 pairs' "$tmp/sum.html"
check "sum_matrix: no search section for an exhaustive run" bash -c "! grep -q 'best so far' '$tmp/sum.html'"
"$cutune" report -q "$sum" "$gen" "$src/test/emit/sizes.json" -o "$tmp/all.html"
check "three files: 0" test $? -eq 0
check "three files: the report's own elements" check_html "$tmp/all.html"
check "three files: the comparison" grep -q '<h2>The runs side by side</h2>' "$tmp/all.html"
check "the genetic run: best so far against evaluations" grep -q 'genetic search: each dot is one evaluation' "$tmp/all.html"
check "sizes: a section per size" test "$(grep -c '<section class="run" id="run[0-9]*"><h2>sizes.json (n=' "$tmp/all.html")" -eq 3
check "five runs in all" test "$(grep -c '<section class="run"' "$tmp/all.html")" -eq 5
# Energy: a section, with its two charts, only for a run that measured it
"$cutune" report "$data/report-sgemm-energy-h100.json" -o "$tmp/energy.html" 2>/dev/null
check "a run with energy: its page" test $? -eq 0
check "a run with energy: the Energy section says 330 variants" grep -q '<h3>Energy</h3>' "$tmp/energy.html"
check "a run with energy: 330 measured" grep -q '330 variants have their energy per launch measured' "$tmp/energy.html"
check "a run with energy: both charts" grep -q 'objective against mean power' "$tmp/energy.html"
check "a run with energy: only the report's own elements" check_html "$tmp/energy.html"
check "a run without energy: no such section" bash -c "! grep -q '<h3>Energy</h3>' '$tmp/all.html'"
# Hardware counters: a section only for a run that read them; a variant chosen
# but not read (crafted here from the real run: entry index 7 loses its counters, gains a
# note) has empty CSV cells and is named with its note
hw=$data/report-hw-tiny-h100.json
"$cutune" report -q "$hw" -o "$tmp/hw.html"
check "a run with counters: its page" test $? -eq 0
check "a run with counters: only the report's own elements" check_html "$tmp/hw.html"
"$cutune" report -q "$hw" -o "$tmp/hw2.html"
check "a run with counters: the same bytes every time" cmp -s "$tmp/hw.html" "$tmp/hw2.html"
check "a run with counters: the section" grep -q '<h3>Hardware counters</h3>' "$tmp/hw.html"
check "a run with counters: a row per profiled variant (8)" test "$(grep -c '<tr class="hwrow">' "$tmp/hw.html")" -eq 8
check "a run without counters: no such section" bash -c "! grep -q 'Hardware counters' '$tmp/all.html'"
python3 - "$hw" "$tmp/hw-note.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["summary"]["profile_note"] = "CUPTI <said> no & more"
for e in d["results"]:
    if e["index"] == 7:
        e["hw"] = {"not_measured": "the profiler <refused> it"}
json.dump(d, open(sys.argv[2], "w"))
PY
"$cutune" report -q "$tmp/hw-note.json" -o "$tmp/hw-note.html"
check "a variant without counters: the page" check_html "$tmp/hw-note.html"
check "a variant without counters: 7 rows" test "$(grep -c '<tr class="hwrow">' "$tmp/hw-note.html")" -eq 7
check "a variant without counters: its note, escaped" grep -q '<li>index 7: the profiler &lt;refused&gt; it</li>' \
    "$tmp/hw-note.html"
check "the summary's note, escaped" grep -q '<p class="warn">CUPTI &lt;said&gt; no &amp; more</p>' "$tmp/hw-note.html"
"$cutune" emit csv "$tmp/hw-note.json" -o "$tmp/hw-note.csv" 2>/dev/null
check "the CSV: a variant without counters has empty hw: cells" \
    grep -q $'^7,0,256,4,0,0,ok,.*-DHEAVY=0,,,,,,,,,,\r$' "$tmp/hw-note.csv"
check "the CSV: another variant keeps its counters" grep -q $'^11,1,.*-DHEAVY=0,,79.04444270439424,' "$tmp/hw-note.csv"
check "the CSV: the first hw: column after options" grep -q '^index,.*,options,hw:sm__warps_active' "$tmp/hw-note.csv"

# ---- where the wrong variants lie (emit/failures.h): a sentence in the summary ----
python3 - "$tmp/region.json" <<'PY2'
import json, sys
res = []
for a in range(1, 7):
    for b in (0, 1):
        ok = not (b == 1 and a in (3, 4))
        e = {"index": len(res), "params": {"a": a, "b": b}, "status": "ok" if ok else "wrong",
             "reason": None if ok else "'y': 1 of 1 elements differ", "block": [32, 1, 1], "grid": [1, 1, 1]}
        if ok:
            t = 1.0 + a / 10 + b
            e.update({"objective": t, "time_ms": {"median": t, "min": t, "max": t, "q1": t, "q3": t}})
        res.append(e)
json.dump({"format": "cutune-results", "version": 1,
           "spec": {"kernel": "k", "params": [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}]},
           "objective": {"name": "time", "direction": "minimize"}, "results": res}, open(sys.argv[1], "w"))
PY2
"$cutune" report "$tmp/region.json" -o "$tmp/region.html" 2>"$tmp/err"
check "a region of wrong variants: exit 0 ($(head -c 200 "$tmp/err"))" test $? -eq 0
check "a region of wrong variants: the page is the report's own" check_html "$tmp/region.html"
check "a region of wrong variants: said" grep -qF \
    '<li>The 2 wrong variants all have a 3 or 4, b 1; 2 of the 2 that ran with those values.</li>' \
    "$tmp/region.html"

# ---- memory: valgrind over the hostile files and a run over sizes (not on a sanitizer
# build, which valgrind cannot run) ----
if command -v valgrind >/dev/null && ! ldd "$cutune" 2>/dev/null | grep -q libasan; then
    valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 "$cutune" report -q \
        "$tmp/hostile.json" "$tmp/zero.json" "$tmp/single.json" "$tmp/nowinner.json" "$src/test/emit/sizes.json" \
        "$tmp/hw-note.json" "$tmp/region.json" \
        -o "$tmp/vg.html" 2>"$tmp/vg"
    check "under valgrind: no memory errors, no leaks" test $? -eq 0 || cat "$tmp/vg"
else
    echo "note: valgrind not run (not installed, or a sanitizer build)"
fi
finish
