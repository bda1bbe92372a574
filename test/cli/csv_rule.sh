#!/usr/bin/env bash
# csv_rule.sh CUTUNE SOURCE_DIR - one CSV quoting rule for every CSV cutune writes
# (base/csv: RFC 4180, formula-safe): `list --format csv` quotes a field for a comma,
# quote or line break, never for a space alone, and guards a spreadsheet formula with a
# leading apostrophe, as `emit csv` does. Run by ctest.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo 'extern "C" __global__ void k() {}' >"$tmp/k.cu"
cat >"$tmp/s.tune" <<'TUNE'
kernel k from "k.cu" {
    param bx in [32];
    param tag in ["a,b", "=1+2", "say \"hi\""] as define TAG;
    block bx;
    grid 4;
}
TUNE
"$cutune" list --format csv "$tmp/s.tune" >"$tmp/out" 2>"$tmp/err"
check "list csv exits 0" test $? -eq 0
# docs/language.md: a macro takes the param's name and its value as written
check "a comma quotes the field" grep -qxF '0,32,"a,b",32,1,1,4,1,1,0,k,"-Dbx=32 -DTAG=a,b",' "$tmp/out"
check "a formula gets an apostrophe; spaces alone are not quoted" \
    grep -qxF "1,32,'=1+2,32,1,1,4,1,1,0,k,-Dbx=32 -DTAG==1+2," "$tmp/out"
check "a quote is doubled inside quotes" grep -qxF '2,32,"say ""hi""",32,1,1,4,1,1,0,k,"-Dbx=32 -DTAG=say ""hi""",' "$tmp/out"
finish
