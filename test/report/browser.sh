#!/usr/bin/env bash
# browser.sh CUTUNE SOURCE_DIR - the report in a real browser (ctest report/browser, label
# browser): headless Chromium (Debian package chromium, which ./bootstrap installs from
# packages.txt) opens reports of the real H100 runs in test/data/ (several files side by
# side, a search, sizes) and of hostile results (test/report/hostile.py) from disk, with
# every host name resolving nowhere; for each, the screenshot must not be blank (many
# colours, ink, the heatmap ramp's yellow and the winner's red drawn: png_check.py), the
# page must log nothing to the console (no error, no failed fetch, no uncaught
# exception), and the DOM the browser built must hold the charts.
# Without chromium: skipped, visibly (exit 77).
set -u
cutune=$1
src=$2
. "$src/test/cli/lib.sh.inc"
browser=""
for b in chromium chromium-browser; do
    command -v "$b" >/dev/null && browser=$(command -v "$b") && break
done
if [ -z "$browser" ]; then
    echo "SKIP: no chromium here (Debian package chromium; ./bootstrap installs it from packages.txt)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$src/test/data

# chrome PAGE.html OUT_PREFIX [ARGS...]: headless Chromium on file://PAGE, its log in
# OUT_PREFIX.log; nothing can be fetched (every host resolves nowhere).
chrome() {
    local page=$1 out=$2
    shift 2
    HOME=$tmp timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --user-data-dir="$tmp/profile" --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 \
        "$@" "file://$page" 2>"$out.log"
}

# console_quiet LOG: the page logged nothing to its console (Chromium logs each message,
# errors and failed loads included, as CONSOLE lines) and threw nothing.
console_quiet() {
    if grep -E 'CONSOLE|Uncaught' "$1"; then
        return 1
    fi
}

python3 "$src/test/report/hostile.py" "$tmp"
"$cutune" report -q "$data/report-sum_matrix-h100.json" "$data/report-sgemm-genetic-h100.json" \
    "$src/test/emit/sizes.json" -o "$tmp/real.html"
check "the report of the real runs is written" test -s "$tmp/real.html"
"$cutune" report -q "$tmp/hostile.json" "$tmp/zero.json" "$tmp/single.json" "$tmp/nowinner.json" -o "$tmp/hostile.html"
check "the report of the hostile files is written" test -s "$tmp/hostile.html"

for name in real hostile; do
    page=$tmp/$name.html
    chrome "$page" "$tmp/$name-shot" --window-size=1280,2200 --screenshot="$tmp/$name.png"
    check "$name: chromium took a screenshot (exit 0)" test $? -eq 0 -a -s "$tmp/$name.png"
    check "$name: the page logged nothing to the console" console_quiet "$tmp/$name-shot.log"
    check "$name: the screenshot is not blank: colours, ink, the ramp's yellow, the winner's red" \
        python3 "$src/test/report/png_check.py" "$tmp/$name.png" --min-colours 200 --min-ink 0.05 \
        --want fde725:100 --want d62728:30
    chrome "$page" "$tmp/$name-dom" --dump-dom >"$tmp/$name.dom"
    check "$name: --dump-dom: exit 0" test $? -eq 0
    check "$name: the DOM has the page's heading" grep -q '<h1>cutune report</h1>' "$tmp/$name.dom"
    check "$name: the DOM logged nothing either" console_quiet "$tmp/$name-dom.log"
    check "$name: no script ran or was added" bash -c "! grep -q '<script' '$tmp/$name.dom'"
done
check "real: the DOM holds the charts (at least 40 svg)" test "$(grep -o '<svg' "$tmp/real.dom" | wc -l)" -ge 40
check "real: the DOM holds the best-so-far chart of the genetic run" grep -q 'best so far against evaluations' "$tmp/real.dom"
check "hostile: the DOM shows </script> as text" grep -q '&lt;/script&gt;&lt;script&gt;alert' "$tmp/hostile.dom"

# The checks can fail: a blank page's screenshot is refused, and a page that throws is caught.
printf '<!DOCTYPE html><html><body></body></html>\n' >"$tmp/blank.html"
chrome "$tmp/blank.html" "$tmp/blank" --window-size=400,300 --screenshot="$tmp/blank.png"
check "a blank page's screenshot is refused" bash -c "! python3 '$src/test/report/png_check.py' '$tmp/blank.png' \
    --min-colours 200 --min-ink 0.05 >/dev/null"
printf '<!DOCTYPE html><html><body><p>x</p><script>nosuchfunction()</script></body></html>\n' >"$tmp/throws.html"
chrome "$tmp/throws.html" "$tmp/throws" --dump-dom >/dev/null
check "a page that throws is caught" grep -qE 'CONSOLE|Uncaught' "$tmp/throws.log"
finish
