/* fuzz_kt.c - libFuzzer target for the import of Kernel Tuner's recordings
 * (import/kt*.c, cutune_import_results): the input is a cache file or a T4 results file,
 * gzipped or not, imported as the results of a fixed spec of four params (an int, a
 * float, a bool and a string; 48 configurations, of which a require leaves 40). The
 * first byte's bit 0 asks for a complete recording. Besides no crash, leak or undefined
 * behaviour, its promise is checked: an import that succeeds writes a results file that
 * the one loader reads back with as many entries and the same source; one that fails
 * sets a message naming the file. Build with -DCUTUNE_FUZZ=ON (clang); docs/fuzzing.md. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char spec_text[] = "kernel k from \"k.cu\" {\n"
                                "    param bx in [16, 32, 48, 64];\n"
                                "    param f in [0.5, 1.5, 2.0];\n"
                                "    param on in [false, true];\n"
                                "    param s in [\"a\", \"b,c\"];\n"
                                "    require bx * f <= 64 || on;\n"
                                "    block bx; grid 1;\n"
                                "}\n";

static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzz-kt-XXXXXX", base);
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cutune_spec *spec;
    if (!spec) {
        cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
        lo.skip_file_checks = 1;
        if (cutune_spec_load_string(&spec, "k.tune", spec_text, strlen(spec_text), &lo) != CUTUNE_OK)
            abort();
    }
    if (size < 1)
        return 0;
    char in[256], out[256];
    snprintf(in, sizeof in, "%s/kt.json", scratch());
    snprintf(out, sizeof out, "%s/out.json", scratch());
    FILE *f = fopen(in, "wb");
    if (!f || (size > 1 && fwrite(data + 1, 1, size - 1, f) != size - 1) || fclose(f) != 0)
        abort();
    cutune_import_options o = CUTUNE_IMPORT_OPTIONS_INIT;
    o.complete = data[0] & 1;
    cutune_tune_result *r = NULL;
    int rc = cutune_import_results(&r, spec, in, &o);
    if (rc != CUTUNE_OK) {
        if (r || !strstr(cutune_last_error(), "kt.json"))
            abort(); /* a refusal leaves nothing and names the file */
        return 0;
    }
    if (cutune_tune_write_results(r, out) != CUTUNE_OK)
        abort();
    cutune_tune_result *back = NULL;
    if (cutune_results_load(&back, out) != CUTUNE_OK || cutune_tune_count(back) != cutune_tune_count(r) ||
        !cutune_tune_source(back) || strcmp(cutune_tune_source(back), cutune_tune_source(r)) != 0)
        abort(); /* what the import accepts, the loader must accept as it was written */
    cutune_tune_result_free(back);
    cutune_tune_result_free(r);
    return 0;
}
