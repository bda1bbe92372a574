#!/usr/bin/env bash
# fleet_args.sh CUTUNE - the --devices argument the *-fleet GPU tests run with:
# the first two GPUs when the machine has two of one model, else two workers sharing
# GPU 0 (the machinery, checked on one GPU; their times disturb each other).
set -u
models=$("$1" devices 2>/dev/null | awk '{ $1 = ""; sub(/ *driver.*/, ""); print }' | head -2)
if [ "$(printf '%s\n' "$models" | grep -c .)" -eq 2 ] && [ "$(printf '%s\n' "$models" | sort -u | wc -l)" -eq 1 ]; then
    echo "--devices 0,1"
else
    echo "--devices 0,0"
fi
