/* fuzz_merge.c - libFuzzer target for `cutune merge` (results/merge.c): shards are
 * results files from anyone, and every count and index in them must be bounded before
 * merge uses it. The first byte picks whether the merge is --partial (bit 0) and
 * whether the files are given in reverse order (bit 1); the rest is split at the first
 * "\n@@\n" into two shard files. A merge that succeeds is written and read back (the
 * merged file must load, as any results file cutune writes). Build with
 * -DCUTUNE_FUZZ=ON (clang); see docs/fuzzing.md. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made once per process (each fuzzing worker has its own). */
static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzz-merge-XXXXXX", base);
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

static void put(const char *name, const uint8_t *data, size_t size, char *path, size_t pathsize)
{
    snprintf(path, pathsize, "%s/%s", scratch(), name);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int flags = data[0];
    const uint8_t *start = data + 1, *end = data + size, *cut = NULL;
    for (const uint8_t *p = start; p + 4 <= end; p++)
        if (memcmp(p, "\n@@\n", 4) == 0) {
            cut = p;
            break;
        }
    char a[256], b[256], out[256];
    put("s0.json", start, (size_t)((cut ? cut : end) - start), a, sizeof a);
    put("s1.json", cut ? cut + 4 : end, cut ? (size_t)(end - cut - 4) : 0, b, sizeof b);
    const char *paths[2] = {flags & 2 ? b : a, flags & 2 ? a : b};
    cutune_tune_result *r = NULL;
    if (cutune_results_merge(&r, paths, cut ? 2 : 1, flags & 1) == CUTUNE_OK) {
        snprintf(out, sizeof out, "%s/merged.json", scratch());
        if (cutune_tune_write_results(r, out) != CUTUNE_OK)
            abort(); /* a merged result cutune cannot write */
        cutune_tune_result *back = NULL;
        if (cutune_results_load(&back, out) != CUTUNE_OK)
            abort(); /* a merged file cutune cannot read back */
        cutune_tune_result_free(back);
    }
    cutune_tune_result_free(r);
    return 0;
}
