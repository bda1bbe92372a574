/* fuzz_spec.c - libFuzzer target: any bytes through the parser and the checker, and,
 * for a spec that checks, a bounded count and listing of its space and the rendering
 * of every diagnostic. Build with -DCUTUNE_FUZZ=ON (clang); see docs/fuzzing.md. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compiler/plan.h"
#include "compiler/sema.h"
#include "compiler/space.h"
#include "lang/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    arena *a = arena_new();
    if (!a)
        return 0;
    src_file *src = src_new(a, "fuzz.tune", ".", (const char *)data, size);
    if (!src) {
        arena_free(a);
        return 0;
    }
    diag_list dl;
    diag_init(&dl, a, src);
    ast_spec *ast = NULL;
    model *m = NULL;
    sema_options opts = {NULL, 0, true, NULL, 0, NULL};
    if (lang_parse(&ast, a, src, &dl) == 0 && ast)
        sema_check(&m, a, ast, &opts, &dl);
    strbuf out = STRBUF_INIT;
    diag_render(&dl, &out, false);
    sb_free(&out);
    space *sp = NULL;
    if (m && space_new(&sp, m, NULL, 0) == 0) {
        bool sat;
        uint64_t raw = space_raw(sp, &sat);
        eval_error err;
        uint64_t valid;
        /* Bounded: the fuzzer looks for crashes, not for specs that are slow by nature
         * (listing a nearly empty space of 10^8 combinations visits them all). */
        bool small = !sat && raw <= 100000;
        if (small)
            space_count(sp, &valid, &sat, &err);
        space_iter *it;
        if (small && space_iter_new(&it, sp) == 0) {
            const uint64_t *idx;
            const value *vals;
            arena *scratch = arena_new();
            for (int n = 0; scratch && n < 64 && space_iter_next(it, &idx, &vals, &err) == 1; n++) {
                variant v;
                plan_variant(m, vals, scratch, &v, &err);
                int64_t counts[64];
                value scalars[64];
                if (m->nargs <= 64)
                    plan_args(m, vals, counts, scalars, &err);
                arena_reset(scratch);
            }
            arena_free(scratch);
            space_iter_free(it);
        }
        space_free(sp);
    }
    arena_free(a);
    return 0;
}
