#!/usr/bin/env bash
# sizes.sh CUTUNE SOURCE_DIR - tuning over problem sizes on GPU 0 (test/gpu/sizes.tune,
# three sizes): every size has a winner in the results (version 2) and an entry in the
# header; the header's look-up by size picks each size's own entry (a C program built
# against it); the sizes after the first compile nothing (the cache is shared across
# sizes: the code does not depend on n); a second run resumes every size from its own
# journal; a spec file of two kernel blocks (examples/library.tune) tunes both into one
# header and a results file each. Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe gpu
gpu_tmp
spec=$src/test/gpu/sizes.tune
"$cutune" --color never "$spec" --results "$tmp/r.json" --header "$tmp/stencil_gpu.h" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks of $tmp/r.json (above)"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
check("version 2", d["format"] == "cutune-results" and d["version"] == 2)
check("size variables", d["spec"]["size"] == ["n"])
sizes = d["sizes"]
check("three sizes", [s["size"]["n"] for s in sizes] == [1 << 16, 1 << 18, 1 << 20])
for k, s in enumerate(sizes):
    res = s["results"]
    n = s["size"]["n"]
    check("n=%d: 4 variants" % n, len(res) == 4)
    check("n=%d: every entry says its size" % n, all(r["size"] == {"n": n} for r in res))
    best = s["summary"]["best"]
    check("n=%d: a winner" % n, best is not None and res[best]["status"] == "ok" and res[best]["verified"])
    check("n=%d: every variant ok" % n, all(r["status"] == "ok" for r in res))
    if k > 0:
        check("n=%d: nothing compiled again (cache shared across sizes)" % n,
              all(r["cached"] or r["duplicate"] for r in res))
print("\n".join("FAIL: " + f for f in fails) or "results: every size has a winner")
sys.exit(1 if fails else 0)
PY
grep -q "#define STENCIL1D_ENTRY_COUNT 3" "$tmp/stencil_gpu.h" || { echo "FAIL: the header has not 3 entries"; exit 1; }
cat >"$tmp/pick.c" <<'C'
#include <stdio.h>
#include "stencil_gpu.h"
int main(void)
{
    long long sizes[3] = {1LL << 16, 1LL << 18, 1LL << 20};
    for (int k = 0; k < 3; k++) {
        const STENCIL1D_config *c = STENCIL1D_lookup_size(STENCIL1D_DEVICE_NAME, STENCIL1D_COMPUTE_CAPABILITY, sizes[k]);
        if (c->size.n != sizes[k] || !c->tuned) {
            printf("FAIL: n=%lld picked the entry of n=%lld\n", sizes[k], c->size.n);
            return 1;
        }
    }
    printf("header: each size picks its own entry\n");
    return 0;
}
C
gcc -std=c11 -Wall -Wextra -pedantic -Werror -I"$tmp" "$tmp/pick.c" -o "$tmp/pick" && "$tmp/pick" ||
    { echo "FAIL: the header's look-up by size"; exit 1; }
for n in 65536 262144 1048576; do
    [ -s "$tmp/r.json.n=$n.journal" ] || { echo "FAIL: no journal for n=$n"; exit 1; }
done
# Again: every size resumed from its journal, nothing run again.
"$cutune" --color never "$spec" --results "$tmp/r2.json" --journal "$tmp/r.json.journal" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
cat "$tmp/err2"
[ $rc -eq 0 ] || { echo "FAIL: the second run exited $rc"; exit 1; }
python3 -c "
import json, sys
d = json.load(open('$tmp/r2.json'))
sys.exit(not all(all(r['resumed'] for r in s['results']) for s in d['sizes']))" ||
    { echo "FAIL: the second run did not resume every size"; exit 1; }
# Several kernel blocks (examples/library.tune, a copy: it emits beside itself): both tuned
# in turn, one header holding both kernels, a results file each.
mkdir -p "$tmp/lib/examples" "$tmp/lib/kernels"
cp "$src/examples/library.tune" "$tmp/lib/examples/"
cp "$src/kernels/sum_matrix.cu" "$src/kernels/stencil1d.cu" "$tmp/lib/kernels/"
"$cutune" --color never "$tmp/lib/examples/library.tune" >"$tmp/lib.out" 2>"$tmp/lib.err"
rc=$?
cat "$tmp/lib.err"
[ $rc -eq 0 ] || { echo "FAIL: library.tune exited $rc"; exit 1; }
h=$tmp/lib/examples/library_tuned.h
grep -q "^#define SUM_MATRIX_TUNED 1$" "$h" && grep -q "^#define STENCIL1D_TUNED 1$" "$h" &&
    grep -q "^#define STENCIL1D_ENTRY_COUNT 2$" "$h" ||
    { echo "FAIL: library_tuned.h does not hold both kernels tuned (and the stencil's two sizes)"; exit 1; }
python3 -c "
import json, sys
a = json.load(open('$tmp/lib/examples/library_sum_matrix.json'))
b = json.load(open('$tmp/lib/examples/library_stencil.json'))
ok = a['spec']['kernel'] == 'sum_matrix' and a['summary']['best'] is not None
ok = ok and b['spec']['kernel'] == 'stencil1d' and all(s['summary']['best'] is not None for s in b['sizes'])
sys.exit(0 if ok else 1)" || { echo "FAIL: the two kernels' results files"; exit 1; }
echo "PASS: three sizes tuned, each with a winner in the results and the header; resumed; two kernel blocks tuned into one header"
