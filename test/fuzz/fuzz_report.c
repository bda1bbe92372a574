/* fuzz_report.c - libFuzzer target for what cutune writes from a results file it did not
 * just write: the report page (emit/report_*.c) and the T4 file written as the file is
 * read (results/scan.c, emit/t4.c). The input is a results file. It is loaded and, when
 * it loads, made into a report page (titled, named by a hostile file name); then, loaded
 * or not, scanned and written as T4 to a scratch file, and when both paths accept it the
 * two T4 forms must be the same bytes. Build with -DCUTUNE_FUZZ=ON (clang); see
 * docs/fuzzing.md. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sys.h"
#include "cutune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made once per process (each fuzzing worker has its own). */
static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzz-report-XXXXXX", base);
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256], out[256];
    snprintf(path, sizeof path, "%s/r.json", scratch());
    snprintf(out, sizeof out, "%s/t4.json", scratch());
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    cutune_tune_result *r = NULL;
    char *whole = NULL;
    if (cutune_results_load(&r, path) == CUTUNE_OK) {
        const char *names[] = {"<x-file>\"'&.json"};
        cutune_report_options opts = {CUTUNE_REPORT_OPTIONS_VERSION, names, "<x-title>\"'&"};
        char *page = NULL;
        const cutune_tune_result *one[] = {r};
        if (cutune_emit_report(&page, one, 1, &opts) == CUTUNE_OK) {
            if (strstr(page, "<x-") || strstr(page, "<script"))
                abort(); /* a string reached the page unescaped */
            cutune_free(page);
        }
        if (cutune_emit_t4(&whole, r) != CUTUNE_OK)
            whole = NULL;
        cutune_tune_result_free(r);
    }
    if (cutune_emit_t4_to(path, out) == CUTUNE_OK && whole) {
        size_t len = 0;
        char *streamed = sys_read_file(out, (size_t)1 << 30, &len);
        if (!streamed || strcmp(streamed, whole) != 0)
            abort(); /* the two T4 forms of one file differ */
        free(streamed);
    }
    cutune_free(whole);
    return 0;
}
