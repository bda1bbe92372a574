#!/usr/bin/env bash
# run.sh CUTUNE NAME - one golden diagnostics test (run by ctest).
# Runs `cutune check NAME.tune` from this folder and compares its stderr with
# NAME.expected byte for byte; the exit code must be 1 when an error is expected, else 0.
set -u
cutune=$1
name=$2
cd "$(dirname "$0")" || exit 2
actual=$("$cutune" check --color never "$name.tune" 2>&1 >/dev/null)
code=$?
expected=$(cat "$name.expected")
status=0
if [ "$actual" != "$expected" ]; then
    echo "diagnostics differ for $name.tune (- expected, + actual):"
    diff -u <(printf '%s\n' "$expected") <(printf '%s\n' "$actual")
    status=1
fi
want=0
grep -q ': error: ' "$name.expected" && want=1
if [ "$code" -ne "$want" ]; then
    echo "exit code $code, expected $want"
    status=1
fi
exit $status
