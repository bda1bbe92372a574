#!/usr/bin/env bash
# bootstrap.sh SOURCE_DIR - bootstrap reads its packages from packages.txt and asks dpkg
# what is installed: --packages lists them (by role), --missing names those not
# installed (exit 1) and installs nothing. On a copy of bootstrap beside a made-up list,
# so nothing is installed or removed. Run by ctest (setup/bootstrap); needs no network.
set -u
src=$1
# shellcheck source=test/cli/lib.sh.inc
. "$src/test/cli/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The real list: --packages prints its first column, in order.
"$src/bootstrap" --packages >"$tmp/all"
check "--packages exits 0" test $? -eq 0
check "--packages prints the list's packages" \
    cmp -s "$tmp/all" <(awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$src/packages.txt")
check "--packages includes libxxhash-dev (the package a fresh machine lacked)" grep -qx libxxhash-dev "$tmp/all"
"$src/bootstrap" --packages project >"$tmp/project"
check "--packages project: flex, not gcc" bash -c "grep -qx flex '$tmp/project' && ! grep -qx gcc '$tmp/project'"
"$src/bootstrap" --packages tests >"$tmp/tests"
check "--packages tests: chromium, not flex" bash -c "grep -qx chromium '$tmp/tests' && ! grep -qx chromium '$tmp/project' && ! grep -qx flex '$tmp/tests'"
"$src/bootstrap" --packages base >"$tmp/base"
check "--packages base: gcc, not flex" bash -c "grep -qx gcc '$tmp/base' && ! grep -qx flex '$tmp/base'"
"$src/bootstrap" --packages nonsense >/dev/null 2>"$tmp/err"
check "--packages with an unknown role is a usage error (2)" test $? -eq 2

# A copy beside a made-up list: one package that is surely not installed.
mkdir "$tmp/b"
cp "$src/bootstrap" "$tmp/b/"
cat >"$tmp/b/packages.txt" <<'LIST'
# a made-up list
bash                          base     cmd:bash   always there
cutune-no-such-package-dev    project  pc:nope    never there
cutune-no-such-test-tool      tests    cmd:nope   never there either
LIST
if ! command -v dpkg-query >/dev/null; then
    "$tmp/b/bootstrap" --missing >/dev/null 2>&1
    check "--missing without dpkg says it cannot tell (2)" test $? -eq 2
    finish
    exit
fi
"$tmp/b/bootstrap" --missing >"$tmp/missing" 2>&1
check "--missing exits 1 when a package is missing" test $? -eq 1
check "--missing names it, and only it (a tests package only with --test)" \
    test "$(cat "$tmp/missing")" = cutune-no-such-package-dev
"$tmp/b/bootstrap" --missing --test >"$tmp/missing" 2>&1
check "--missing --test names the tests package too" \
    test "$(sort "$tmp/missing" | paste -sd ' ' -)" = "cutune-no-such-package-dev cutune-no-such-test-tool"
sed -i '/no-such-/d' "$tmp/b/packages.txt"
"$tmp/b/bootstrap" --missing >"$tmp/missing" 2>&1
check "--missing exits 0, silent, when nothing is missing" test $? -eq 0 -a ! -s "$tmp/missing"
rm "$tmp/b/packages.txt"
"$tmp/b/bootstrap" --missing >/dev/null 2>"$tmp/err"
check "no list: bootstrap fails" test $? -eq 1
check "... naming the list" grep -q "cannot read .*packages.txt" "$tmp/err"
finish
