/* fuzz_t1.c - libFuzzer target for the T1 reader (import/t1*.c, t1_import_text): the
 * input is a T1 tuning problem's JSON, translated in memory (nothing is read beside it:
 * the kernel's and data files' paths are only made relative). Besides no crash, leak or
 * undefined behaviour, the reader's promises are checked: a refused file has no text and
 * at least one error; every error and note is "t1.json: $...: reason" (the file's name
 * and a JSON path); a translated file is a spec that parses without a syntax error
 * (what the importer writes, quotes and names from the file included, must stay inside
 * the spec's tokens) and checks without an error (what the spec's checker would refuse,
 * the importer refuses at the T1 file's path), and its best-config header's names are C
 * names that do not clash (compiler/hnames.h: what the header check and the loader refuse,
 * the importer renames); its diagnostics are rendered. A violation aborts, as a crash
 * would. Build with -DCUTUNE_FUZZ=ON (clang); docs/fuzzing.md. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "compiler/hnames.h"
#include "compiler/sema.h"
#include "import/t1.h"
#include "lang/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* well_named: whether message m names the file and a JSON path, as t1.h promises. */
static bool well_named(const char *m)
{
    return m && strncmp(m, "t1.json: $", 10) == 0;
}

/* check_names: aborts when the header of m could not define its names: a param's name is
 * no C name, or two names clash (as emit/header_check.c and compiler/spec.c decide). */
static void check_names(arena *a, const model *m)
{
    const char **params = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    const char **lets = arena_alloc(a, sizeof(char *) * (size_t)(m->nlets + 1));
    if (!params || !lets)
        return;
    for (int i = 0; i < m->nparams; i++)
        if (!esc_c_name(params[i] = m->params[i].name))
            abort();
    for (int i = 0; i < m->nlets; i++)
        lets[i] = m->lets[i].name;
    hn_block b = {m->emit.header_prefix, m->nparams, params, 0, NULL, m->nlets, lets};
    hn_list *l = NULL;
    if (hn_collect(&l, &b) != 0)
        return;
    hn_clash c;
    if (hn_clash_find((const hn_list *const *)&l, 1, &c))
        abort(); /* a spec the header's check refuses */
    hn_free(l);
}

/* check_spec: parses and checks the translated text; aborts on any error. */
static void check_spec(const char *text)
{
    arena *a = arena_new();
    if (!a)
        return;
    src_file *src = src_new(a, "t1.tune", "/nonexistent-t1-fuzz/spec", text, strlen(text));
    if (src) {
        diag_list dl;
        diag_init(&dl, a, src);
        ast_spec *ast = NULL;
        if (lang_parse(&ast, a, src, &dl) != 0 || !ast)
            abort(); /* the importer wrote something that is not the spec language */
        model *m = NULL;
        sema_options opts = {.skip_file_checks = true};
        int rc = sema_check(&m, a, ast, &opts, &dl);
        strbuf out = STRBUF_INIT;
        diag_render(&dl, &out, false);
        sb_free(&out);
        if (rc != 0 && !dl.out_of_memory)
            abort(); /* a spec the importer wrote that its own checker refuses */
        if (rc == 0)
            check_names(a, m);
    }
    arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    t1_result *r = NULL;
    if (t1_import_text(&r, (const char *)data, size, "t1.json", "/nonexistent-t1-fuzz/base",
                       "/nonexistent-t1-fuzz/spec") != 0) {
        if (r)
            abort(); /* a failure (memory) leaves nothing */
        return 0;
    }
    if (!r || (r->text == NULL) != (r->nerrors > 0))
        abort(); /* a text exactly when nothing was refused */
    for (int k = 0; k < r->nerrors; k++)
        if (!well_named(r->errors[k]))
            abort();
    for (int k = 0; k < r->nnotes; k++)
        if (!well_named(r->notes[k]))
            abort();
    if (r->text)
        check_spec(r->text);
    t1_result_free(r);
    return 0;
}
