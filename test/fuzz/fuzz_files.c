/* fuzz_files.c - libFuzzer target for the paths that read files cutune did not just
 * write: the cache key's walk over #include lines, a results file, a journal. The
 * first byte picks the path; the rest is the file (or files). Build with
 * -DCUTUNE_FUZZ=ON (clang); see docs/fuzzing.md.
 *
 *   0: include walk. The input is split at each "\n@@\n" into main.cu, a.cuh, b.cuh and
 *      c.cuh (in that order) in a scratch folder, and the cache key of main.cu is
 *      computed with that folder as an include folder: includes of each other, of
 *      themselves, of "./a.cuh", "../x/a.cuh", missing files.
 *   1: results. The input is a results file: loaded, then every export run on it.
 *   2: journal. The input is a journal: opened for resuming a run of a fixed identity. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/journal.h"
#include "cutune.h"
#include "runtime/cache.h"
#include "runtime/includes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made once per process (each fuzzing worker has its own). */
static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzz-XXXXXX", base);
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

static void include_walk(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"main.cu", "a.cuh", "b.cuh", "c.cuh"};
    char path[4][256];
    const uint8_t *start = data, *end = data + size;
    for (int i = 0; i < 4; i++) {
        const uint8_t *cut = NULL;
        for (const uint8_t *p = start; i < 3 && p + 4 <= end; p++)
            if (memcmp(p, "\n@@\n", 4) == 0) {
                cut = p;
                break;
            }
        const uint8_t *stop = cut ? cut : end;
        put(names[i], start, (size_t)(stop - start), path[i], sizeof path[i]);
        start = cut ? cut + 4 : end;
    }
    char *source = malloc(1);
    size_t n = 0;
    FILE *f = fopen(path[0], "rb");
    if (!f || !source)
        abort();
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        char *grown = realloc(source, n + got + 1);
        if (!grown)
            abort();
        source = grown;
        memcpy(source + n, buf, got);
        n += got;
    }
    fclose(f);
    source[n] = '\0';
    char opt[600];
    snprintf(opt, sizeof opt, "-I%s", scratch());
    const char *opts[] = {opt};
    incl_set inc;
    if (incl_resolve(&inc, path[0], source, opts, 1) == 0) {
        compile_job job = {path[0],
                           inc.source,
                           "k",
                           opts,
                           1,
                           "sm_90",
                           (const char *const *)inc.names,
                           inc.nheaders,
                           (const char *const *)inc.texts,
                           inc.nheaders};
        cache_key key;
        cache_key_for(&job, &key);
    }
    incl_set_free(&inc);
    free(source);
}

static void results(const uint8_t *data, size_t size)
{
    char path[256];
    put("r.json", data, size, path, sizeof path);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        return;
    char *text = NULL;
    if (cutune_emit_csv(&text, r) == CUTUNE_OK)
        free(text);
    text = NULL;
    if (cutune_emit_t4(&text, r) == CUTUNE_OK)
        free(text);
    text = NULL;
    const cutune_tune_result *one[] = {r};
    if (cutune_emit_header(&text, NULL, one, 1, NULL) == CUTUNE_OK)
        free(text);
    cutune_tune_result_free(r);
}

static void journal_read(const uint8_t *data, size_t size)
{
    char path[256];
    put("j.journal", data, size, path, sizeof path);
    json_t *identity = json_pack("{s:s, s:s}", "spec", "0123456789abcdef", "device", "fuzz");
    journal *j = NULL;
    /* A space of 1,000 configurations: ordinals at or past it are not trusted. */
    if (identity && journal_open(&j, path, identity, 1000, false) == 0) {
        for (uint64_t i = 0; i < journal_count(j); i++) {
            uint64_t ordinal;
            journal_at(j, i, &ordinal);
            journal_find(j, ordinal);
        }
        journal_close(j);
    }
    json_decref(identity);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 3) {
    case 0: include_walk(data + 1, size - 1); break;
    case 1: results(data + 1, size - 1); break;
    default: journal_read(data + 1, size - 1); break;
    }
    return 0;
}
