/* fuzz_header.c - libFuzzer target for the best-config header made of results files
 * nobody vouches for (docs/fuzzing.md): names and values from a results file go through
 * the loader (results/load.c) and the header writer (emit/header.c), with and without a
 * spec, one header or several claimed into one file (cutune_header_names). Whether the
 * header compiles is not asked (that needs a compiler per input); what is: no crash, no
 * leak, no undefined behaviour (UBSan fatal), and the text a C lexer would read is never
 * subverted: no comment is closed or opened by data, no string literal runs past its
 * line, no trigraph, no line splice inside a comment (lex_check aborts otherwise). The
 * first byte picks the form of the rest:
 *
 *   even: up to three results files, split at each "\n@@\n", loaded; the ones that load
 *         make one header (an entry each) and are claimed, one header per file, into a
 *         names set; the file's name and sources in the comment are hostile strings.
 *   odd:  fields, one a line, filled into a results file of one winning entry: the
 *         kernel's name, three params' names, their types (i f b s, one a char), their
 *         values (JSON text, else a string), the device's name, the objective's name, a
 *         grid expression, a prefix. The file is loaded; a spec of that kernel and those
 *         params with that grid is loaded too, and the header is made with and without it. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzzh-XXXXXX", base);
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

static void put(const char *name, const void *data, size_t size, char *path, size_t pathsize)
{
    snprintf(path, pathsize, "%s/%s", scratch(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
}

/* The oracle: the header read as a C lexer reads it. Aborts on a comment end outside a
 * comment, a comment start inside one, a string literal that meets a line end or the
 * end, a trigraph, a backslash inside a comment, or a comment left open. */
static void lex_check(const char *t)
{
    enum { CODE, COMMENT, STRING, CHAR } state = CODE;
    if (strstr(t, "??"))
        abort();
    for (const char *p = t; *p; p++) {
        switch (state) {
        case CODE:
            if (p[0] == '/' && p[1] == '*') {
                state = COMMENT;
                p++;
            } else if (p[0] == '*' && p[1] == '/') {
                abort(); /* a comment closed where none is open: data escaped one */
            } else if (p[0] == '/' && p[1] == '/') {
                while (p[1] && p[1] != '\n')
                    p++;
            } else if (*p == '"') {
                state = STRING;
            } else if (*p == '\'') {
                state = CHAR;
            }
            break;
        case COMMENT:
            if (p[0] == '*' && p[1] == '/') {
                state = CODE;
                p++;
            } else if ((p[0] == '/' && p[1] == '*') || *p == '\\') {
                abort(); /* a comment inside a comment, or a line splice */
            }
            break;
        case STRING:
        case CHAR:
            if (*p == '\\' && p[1] && p[1] != '\n')
                p++;
            else if (*p == '\n' || *p == '\\')
                abort();
            else if (*p == (state == STRING ? '"' : '\''))
                state = CODE;
            break;
        }
    }
    if (state != CODE)
        abort();
}

static void emit_and_check(cutune_spec *spec, const cutune_tune_result *const *rs, int n, const char *prefix)
{
    static const char *const sources[] = {"a*/b/*c",
                                          "x\\\ny?"
                                          "?/",
                                          "\"q\"\n#define Z"};
    cutune_header_options opts = {CUTUNE_HEADER_OPTIONS_VERSION, prefix, sources, "*/ int evil; /*"};
    char *text = NULL;
    if (cutune_emit_header(&text, spec, rs, n, &opts) == CUTUNE_OK)
        lex_check(text);
    cutune_free(text);
}

static void raw_files(const uint8_t *data, size_t size)
{
    cutune_tune_result *r[3] = {NULL, NULL, NULL};
    const cutune_tune_result *loaded[3];
    int n = 0;
    const uint8_t *start = data, *end = data + size;
    for (int i = 0; i < 3 && start <= end; i++) {
        const uint8_t *cut = NULL;
        for (const uint8_t *p = start; i < 2 && p + 4 <= end && !cut; p++)
            if (memcmp(p, "\n@@\n", 4) == 0)
                cut = p;
        const uint8_t *stop = cut ? cut : end;
        char name[16], path[256];
        snprintf(name, sizeof name, "r%d.json", i);
        put(name, start, (size_t)(stop - start), path, sizeof path);
        if (cutune_results_load(&r[i], path) == CUTUNE_OK)
            loaded[n++] = r[i];
        if (!cut)
            break;
        start = cut + 4;
    }
    if (n > 0) {
        emit_and_check(NULL, loaded, n, NULL);
        cutune_header_names *names = NULL;
        if (cutune_header_names_new(&names) == CUTUNE_OK) {
            for (int k = 0; k < n; k++)
                cutune_header_names_claim(names, NULL, &loaded[k], 1, NULL);
            cutune_header_names_free(names);
        }
    }
    for (int i = 0; i < 3; i++)
        cutune_tune_result_free(r[i]);
}

/* The results file of one winning entry the structured form fills in. */
static const char template_json[] =
    "{\"format\": \"cutune-results\", \"version\": 1, \"date\": \"2026-11-23T10:00:00Z\","
    " \"spec\": {\"path\": \"\", \"kernel\": \"k\", \"kernel_file\": \"k.cu\", \"params\": []},"
    " \"device\": {\"name\": \"GPU\", \"arch\": \"sm_90\", \"compute_capability\": 90, \"sm_count\": 132},"
    " \"settings\": {\"strategy\": \"exhaustive\"},"
    " \"objective\": {\"name\": \"time_ms\", \"direction\": \"minimize\"},"
    " \"summary\": {\"variants\": 1, \"timed\": 1, \"best\": 0},"
    " \"results\": [{\"index\": 0, \"params\": {}, \"status\": \"ok\", \"reason\": null, \"kernel\": \"k\","
    " \"block\": [64, 1, 1], \"grid\": [64, 256, 1], \"smem_bytes\": 0, \"defines\": [\"-DX=1\"],"
    " \"options\": [\"-O3\"], \"time_ms\": {\"median\": 0.5, \"min\": 0.49, \"max\": 0.53, \"q1\": 0.495,"
    " \"q3\": 0.505}, \"spread\": 0.02, \"reps\": 10, \"batch\": 1, \"objective\": 0.5, \"verified\": true}]}";

/* Line i of the fields (empty past the last). */
static const char *field(char **lines, int n, int i)
{
    return i < n ? lines[i] : "";
}

static void structured(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *lines[16];
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    int n = 0;
    for (char *p = text; n < 16;) {
        lines[n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    json_t *doc = json_loads(template_json, 0, NULL);
    if (!doc)
        abort();
    json_t *spec = json_object_get(doc, "spec"), *entry = json_array_get(json_object_get(doc, "results"), 0);
    json_t *params = json_object_get(spec, "params"), *values = json_object_get(entry, "params");
    json_object_set_new(spec, "kernel", json_string(field(lines, n, 0)));
    static const char *const type_names[] = {"int", "float", "bool", "string"};
    const char *types = field(lines, n, 4);
    char spec_text[4096];
    size_t at = (size_t)snprintf(spec_text, sizeof spec_text, "kernel %s from \"k.cu\" {\n", field(lines, n, 0));
    for (int i = 0; i < 3; i++) {
        const char *name = field(lines, n, 1 + i);
        const char *known = strlen(types) > (size_t)i ? strchr("ifbs", types[i]) : NULL;
        int t = strlen(types) <= (size_t)i ? 0 : known ? (int)(known - "ifbs") : (unsigned char)types[i] % 4;
        json_array_append_new(params, json_pack("{s:s, s:s}", "name", name, "type", type_names[t]));
        json_t *v = json_loads(field(lines, n, 5 + i), JSON_DECODE_ANY, NULL);
        json_object_set_new(values, name, v ? v : json_string(field(lines, n, 5 + i)));
        static const char *const domains[] = {"[1, 2]", "[0.5, 2.0]", "[true, false]", "[\"a\", \"b\"]"};
        if (at < sizeof spec_text)
            at += (size_t)snprintf(spec_text + at, sizeof spec_text - at, "    param %s in %s;\n", name, domains[t]);
    }
    json_object_set_new(json_object_get(doc, "device"), "name", json_string(field(lines, n, 8)));
    json_object_set_new(json_object_get(doc, "objective"), "name", json_string(field(lines, n, 9)));
    if (at < sizeof spec_text)
        snprintf(spec_text + at, sizeof spec_text - at, "    let x = 7, y = -3;\n    block 64;\n    grid %s;\n}\n",
                 field(lines, n, 10));
    char *dumped = json_dumps(doc, 0);
    json_decref(doc);
    cutune_tune_result *r = NULL;
    if (dumped) { /* json_string refuses text that is not UTF-8: then the file is not made */
        char path[256];
        put("s.json", dumped, strlen(dumped), path, sizeof path);
        free(dumped);
        if (cutune_results_load(&r, path) == CUTUNE_OK) {
            const cutune_tune_result *rs[1] = {r};
            const char *prefix = field(lines, n, 11)[0] ? field(lines, n, 11) : NULL;
            emit_and_check(NULL, rs, 1, prefix);
            cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
            opts.skip_file_checks = 1;
            cutune_spec *s = NULL;
            if (cutune_spec_load_string(&s, "f.tune", spec_text, strlen(spec_text), &opts) == CUTUNE_OK)
                emit_and_check(s, rs, 1, prefix);
            cutune_spec_free(s);
        }
    }
    cutune_tune_result_free(r);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] % 2 == 0)
        raw_files(data + 1, size - 1);
    else
        structured(data + 1, size - 1);
    return 0;
}
