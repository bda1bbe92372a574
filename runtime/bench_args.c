/* bench_args.c - a configuration's arguments on the device (bench_internal.h): buffers
 * allocated, initial contents made and restored, outputs poisoned, scalars set; the `in`
 * buffers a verification lets keep their device copies (runtime/pristine.h), and their
 * comparison with their pristine copies when a variant's outputs disagree. */
#include "bench_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "infile.h"

/* Whether `in` buffer i may keep its device copy when a verification follows (lazy):
 * nothing but a variant may write it between restores, so not a buffer that a reset
 * sets (a reset kernel may set any). */
static bool may_keep(const bench *b, int i, bool lazy)
{
    return lazy && !hook_resets(b->hooks, i);
}

int bench_prepare_args(bench *b, const bench_config *c, double *made, double *poison, bool lazy)
{
    double mark = 0, unused = 0, compiled = meas_compile_seconds(b->g);
    if (!made)
        made = &unused;
    if (!poison)
        poison = &unused;
    int param = 0; /* the kernel's parameters: every argument but the constant ones */
    for (int i = 0; i < b->nargs; i++) {
        slot *s = &b->slots[i];
        const bench_arg *a = &b->args[i];
        void **arg_value = a->is_constant ? &s->argv_unused : &b->argv[param++];
        if (!a->is_buffer) {
            const bench_scalar *v = &c->scalars[i];
            data_set(s->scalar, a->type, 0, v->d);
            if (v->is_int && !data_is_float(a->type)) {
                /* exact for 64-bit integers too */
                memcpy(s->scalar, &v->i, data_size(a->type) <= 8 ? data_size(a->type) : 8);
            }
            *arg_value = s->scalar;
            continue;
        }
        int64_t lanes = a->lanes > 1 ? a->lanes : 1;
        size_t bytes;
        if (c->counts[i] < 0 || __builtin_mul_overflow(c->counts[i], lanes, &s->count) ||
            !data_bytes(a->type, (size_t)s->count, &bytes)) {
            s->count = c->counts[i];
            err_set(-1,
                    "buffer %d has %lld elements of %zu bytes: more bytes than a buffer may "
                    "have",
                    i, (long long)s->count, data_size(a->type) * (size_t)lanes);
            return -1;
        }
        if (bytes > s->capacity) {
            meas_free(b->g, s->dev);
            meas_free(b->g, s->pristine);
            s->dev = s->pristine = 0;
            s->capacity = 0;
            s->pristine_count = 0;
            pristine_forget(&s->in);
            if (meas_alloc(b->g, bytes, &s->dev) < 0 || (a->has_init && meas_alloc(b->g, bytes, &s->pristine) < 0))
                return -1;
            s->capacity = bytes;
        }
        if (a->has_init && s->pristine_count != s->count)
            (void)bench_lap(&mark); /* initial contents made: timed */
        if (a->has_init && a->fill.kind == FILL_FILE && s->pristine_count != s->count) {
            if (infile_load(b->g, s->pristine, a->type, (size_t)s->count, a->file, a->file_npy) < 0)
                return -1;
            s->pristine_count = s->count;
            *made += bench_lap(&mark);
        }
        if (a->has_init && s->pristine_count != s->count) {
            /* Made on the device, bit for bit what data_fill makes on the host (fill.h):
             * nothing of the size of the inputs is ever held on the host. The fill
             * kernel is compiled once per element type per bench. */
            if (!b->fill_ready[a->type]) {
                if (fill_prepare(b->g, a->type, b->arch, b->cache_dir, &b->fills[a->type]) < 0)
                    return -1;
                b->fill_ready[a->type] = true;
            }
            if (fill_run(b->g, &b->fills[a->type], s->pristine, (size_t)s->count, &a->fill) < 0)
                return -1;
            s->pristine_count = s->count;
            *made += bench_lap(&mark) - (meas_compile_seconds(b->g) - compiled); /* the fill kernel's compile apart */
            compiled = meas_compile_seconds(b->g);
        }
        /* Inputs as they started (queued: every buffer's at once, below); an `in` buffer
         * restored before keeps its copy when it may (marked restored once waited for) */
        bool keep = a->has_init && a->in_only && pristine_skip(&s->in, may_keep(b, i, lazy), s->count);
        if (a->has_init && !keep && meas_copy_queued(b->g, s->dev, s->pristine, bytes) < 0) {
            pristine_forget(&s->in);
            return -1;
        }
        s->bytes = bytes;
        *arg_value = &s->dev;
        if (b->hook_bufs) /* what the resets see */
            b->hook_bufs[i] = (hook_buffer){a->type, s->dev, a->has_init ? s->pristine : 0, bytes};
    }
    /* The inputs' copies waited for together; then outputs poisoned (0xFF bytes: NaN for
     * floats, -1 for ints), so an element the kernel never writes is caught, all queued
     * and waited for at once. */
    bool copied = meas_wait_queued(b->g) == 0;
    for (int i = 0; i < b->nargs; i++) /* restored, unless the copies failed */
        if (b->args[i].is_buffer && b->args[i].in_only && b->args[i].has_init && !b->slots[i].in.skipped) {
            if (copied)
                pristine_restored(&b->slots[i].in, b->slots[i].count);
            else
                pristine_forget(&b->slots[i].in);
        }
    if (!copied)
        return -1;
    (void)bench_lap(&mark);
    for (int i = 0; i < b->nargs; i++)
        if (b->args[i].is_buffer && !b->args[i].has_init &&
            meas_fill_queued(b->g, b->slots[i].dev, 0xFF, b->slots[i].bytes) < 0)
            return -1;
    if (meas_wait_queued(b->g) < 0)
        return -1;
    *poison += bench_lap(&mark);
    return 0;
}

cmp_kernel *bench_cmp_for(bench *b, data_type type)
{
    if (!b->cmp_ready[type]) {
        if (cmp_prepare(b->g, type, b->arch, b->cache_dir, &b->cmps[type]) < 0)
            return NULL;
        b->cmp_ready[type] = true;
    }
    return &b->cmps[type];
}

int bench_inputs_changed(bench *b, bench_result *out)
{
    const char **names = calloc((size_t)b->nargs + 1, sizeof *names);
    if (!names)
        return err_set(-1, "out of memory");
    int changed = 0;
    for (int i = 0; i < b->nargs; i++) {
        slot *s = &b->slots[i];
        if (!b->args[i].in_only || !s->in.skipped)
            continue;
        size_t n;
        cmp_kernel *words = bench_cmp_for(b, pristine_words(s->bytes, &n));
        data_mismatch mm;
        if (!words || cmp_run(b->g, words, s->dev, s->pristine, n, 0, 0, &mm) < 0) {
            free(names);
            (void)err_wrap(-1, "comparing '%s' with its initial contents", b->args[i].name);
            return -1;
        }
        if (mm.count) {
            pristine_changed(&s->in);
            names[changed++] = b->args[i].name;
        }
    }
    if (changed)
        pristine_note(out->inputs_note, sizeof out->inputs_note, names, changed);
    free(names);
    return changed;
}
