/* spec.h - a loaded spec: what the front end (lang/, compiler/) makes of a .tune file,
 * and what every stage above reads. The public API hands it out, opaque, as
 * `cutune_spec` (include/cutune.h); api/cutune_spec.c makes and frees it.
 *
 * Ownership: one arena holds the source, the syntax tree, the model and the
 * diagnostics' messages; `rendered` is heap. Stages above the compiler borrow a spec
 * and may add diagnostics to it; they never free it. */
#ifndef CUTUNE_COMPILER_SPEC_H
#define CUTUNE_COMPILER_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "cutune.h"

#include "../base/arena.h"
#include "../base/strbuf.h"
#include "../lang/ast.h"
#include "../lang/diag.h"
#include "../lang/src.h"
#include "eval.h"
#include "model.h"
#include "sema.h"

struct cutune_spec {
    arena *arena;
    const src_file *src;
    ast_spec *ast;
    model *model;
    diag_list diags;
    strbuf rendered;
    const char *path;
    bool loaded_ok;     /* parsed and checked without error; later diagnostics (an empty
                           space, a failed expression) do not change it */
    uint64_t text_hash; /* XXH3 of the spec's text and its --set overrides (journal identity) */
    /* The device attributes' values every model of this spec is checked with: a GPU's,
     * or an architecture's table (sema_opts.device points here; api/cutune_spec_device.c
     * changes them and checks the spec again). */
    dev_values device;
    /* Problem sizes (spec_select_size): the options it was checked with (their strings in
     * the arena; the device is `device` above), and the model of each size checked so far (NULL: not yet). `model` is
     * always size_models[model->sizes.selected] once a size was selected. */
    sema_options sema_opts;
    model **size_models;
    /* Several kernel blocks in one file (ast->next ...): each checked into a model of its
     * own (kernel_models, at its first size); `unit` is the block `model` is of (NULL: the
     * first), and each block keeps its own sizes' models (kernel_size_models). */
    int nkernels;
    int kernel;
    model **kernel_models;
    model ***kernel_size_models;
    const ast_spec *unit;
    /* The folder the caller allows emit paths that leave the spec's folder to write
     * into (cutune_spec_set_emit_dir: canonical, in the arena; NULL: none), and the
     * last refusal's text (cutune_spec_emit_refused). */
    const char *emit_dir;
    const char *emit_refusal;
    /* The configurations each kernel block's space is restricted to (spec_restrict; in
     * the arena; NULL: none), applied again to every model of the block checked later
     * (another size, the device's attribute values). */
    const char ***pins;
    int *npins;
};

/* spec_eval_failed: records an evaluation error as a diagnostic on the spec, at the
 * failing operation; returns CUTUNE_EEVAL. */
int spec_eval_failed(cutune_spec *spec, const eval_error *err);

/* spec_count (spec_count.c): counts the space of the spec's model into *out (raw and
 * valid combinations; an estimate when the exact count costs too much, `progress`
 * called as it goes: may be NULL). An empty space (counted exactly) is explained: an
 * error diagnostic at the constraint that empties it (alone, with one other named in a
 * note, or with those before it). CUTUNE_OK; CUTUNE_ESPEC (empty); CUTUNE_EEVAL (an
 * expression failed: a diagnostic says where); CUTUNE_ENOMEM. */
int spec_count(cutune_space_size *out, cutune_spec *spec, cutune_progress_fn progress, void *user);

/* spec_render: the spec's diagnostics from the `from`-th on, rendered (with ANSI
 * colours when `color`) into spec->rendered; NULL when out of memory. Valid until the
 * next render. */
const char *spec_render(cutune_spec *spec, int from, bool color);

/* spec_size_count: the sizes the spec is tuned over: 1 without a size statement. */
int spec_size_count(const cutune_spec *spec);

/* spec_select_size: spec->model becomes the model of size k (0 .. spec_size_count - 1):
 * the spec checked again with the size variables set to size k's values (once per
 * size; kept in the arena). Every stage above then sees that size. CUTUNE_OK;
 * CUTUNE_EINVAL for k out of range; CUTUNE_ESPEC when the spec has an error at that
 * size only (copied to the spec's diagnostics, with a note naming the size);
 * CUTUNE_ENOMEM. */
int spec_select_size(cutune_spec *spec, int k);

/* spec_kernel_count: the kernel blocks of the spec's file (1 for most). */
int spec_kernel_count(const cutune_spec *spec);

/* spec_check_kernels: the file's kernel blocks after the first checked, each into a
 * model of its own (every size too), and the rules across them: no two with the same
 * header prefix, results path or CSV path (a header path may be shared: the header then
 * holds both); and, for one block or several, that no two names the header of the file
 * would define clash (compiler/hnames.h: P_TUNED from a param `tuned`, K_A_X from the
 * blocks K and K_A). Diagnostics on the spec. CUTUNE_OK, CUTUNE_ESPEC or CUTUNE_ENOMEM. */
int spec_check_kernels(cutune_spec *spec);

/* spec_select_kernel: spec->model becomes kernel block i's (at the size it held, its
 * first at first). CUTUNE_OK or CUTUNE_EINVAL (i out of range). */
int spec_select_kernel(cutune_spec *spec, int i);

/* spec_restrict: restricts the held kernel block's space to configs[0 .. n)
 * (compiler/pin.h), now and for every model of the block checked later. CUTUNE_OK;
 * CUTUNE_EINVAL with the error object naming the configuration (not a param, not one
 * of its values, excluded by the constraints; the spec is unchanged), or when the
 * block is restricted already; CUTUNE_ENOMEM. */
int spec_restrict(cutune_spec *spec, const char *const *configs, int n);

/* spec_pin_model: applies the held block's restriction (spec_restrict) to spec->model
 * when it has none yet: every place that makes spec->model another model calls it.
 * CUTUNE_OK; CUTUNE_ESPEC (a diagnostic: the configuration does not fit this model,
 * e.g. a value outside this size's domain); CUTUNE_ENOMEM. */
int spec_pin_model(cutune_spec *spec);

/* spec_size_label: size k as "n=4096" or "nx=1024,ny=8192" (in the spec's arena); ""
 * without a size statement; NULL out of memory. */
const char *spec_size_label(const cutune_spec *spec, int k);

#endif
