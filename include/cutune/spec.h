/* cutune/spec.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Loading a spec, its diagnostics, what it says, its kernels, problem sizes and
 * the device attributes it reads (api/cutune_spec.c, api/cutune_spec_device.c). */
#ifndef CUTUNE_SPEC_H
#define CUTUNE_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- loading a spec ---------------------------------------------------------- */

typedef struct cutune_spec cutune_spec;

#define CUTUNE_LOAD_OPTIONS_VERSION 1

typedef struct cutune_load_options {
    unsigned int version; /* CUTUNE_LOAD_OPTIONS_VERSION (cutune/common.h, "Options") */
    /* Overrides of the spec's `let` constants, as "NAME=VALUE" strings (VALUE is read as
     * an int, a float, true/false, or else a string), e.g. {"nx=4096", "ny=4096"}. */
    const char *const *set;
    int nset;
    /* For cutune_spec_load_string: the folder relative paths in the spec are resolved
     * against (NULL: the current directory). Ignored by cutune_spec_load_file, which uses
     * the spec file's own folder. */
    const char *base_dir;
    /* Non-zero: do not require the kernel file and include folders to exist. */
    int skip_file_checks;
    /* The device whose attributes (sm_count, warp_size, ...) the spec's expressions read:
     * `device` when given (e.g. from cutune_device_get), else the assumed values of the
     * architecture `arch` ("sm_90"; NULL: sm_90). Tuning and analysing check the spec
     * again with the GPU's or the analysed architecture's values when they differ. */
    const char *arch;
    const struct cutune_device *device;
} cutune_load_options;

/* Every field's default: no overrides, the current directory, file checks on, sm_90's
 * assumed device attributes. */
#define CUTUNE_LOAD_OPTIONS_INIT \
    { \
        .version = CUTUNE_LOAD_OPTIONS_VERSION \
    }
int cutune_load_options_init(cutune_load_options *opts, unsigned int version);

/* cutune_spec_load_file: reads, parses and checks the spec at `path`. On CUTUNE_OK,
 * CUTUNE_ESPEC and CUTUNE_EIO, *out is a spec object whose diagnostics say what went
 * wrong (free it with cutune_spec_free); only on CUTUNE_ENOMEM or CUTUNE_EINVAL is *out
 * NULL. `opts` may be NULL (every default); CUTUNE_EINVAL for another version. */
int cutune_spec_load_file(cutune_spec **out, const char *path, const cutune_load_options *opts);

/* cutune_spec_load_string: as cutune_spec_load_file, for a spec held in memory; `name`
 * is how diagnostics refer to it (e.g. "<string>"). */
int cutune_spec_load_string(cutune_spec **out, const char *name, const char *text, size_t len,
                            const cutune_load_options *opts);

/* cutune_spec_free: releases the spec and everything obtained from it; NULL is a no-op. */
void cutune_spec_free(cutune_spec *spec);

/* ---- device attributes a spec reads (sm_count, warp_size, ...; docs/language.md) ---- */

/* cutune_device_attr_count / cutune_device_attr_name: the attributes, by index
 * (0 .. count-1), as specs spell them; NULL for an index out of range. */
int cutune_device_attr_count(void);
const char *cutune_device_attr_name(int i);

/* cutune_spec_device_attr_value: the value attribute `i` had when the spec was (last)
 * checked; cutune_spec_device_attr_used: 1 when the spec's expressions read it. */
long long cutune_spec_device_attr_value(const cutune_spec *spec, int i);
int cutune_spec_device_attr_used(const cutune_spec *spec, int i);

/* cutune_spec_device_assumed: 1 when those values come from an architecture's table
 * (no GPU was read), 0 when from a GPU's driver. cutune_spec_device_source: where they
 * come from, e.g. "sm_90 table: H100 SXM5 (others: H100 PCIe: 114, ...)" or
 * "GPU 0: NVIDIA H100 80GB HBM3" (owned by the spec). */
int cutune_spec_device_assumed(const cutune_spec *spec);
const char *cutune_spec_device_source(const cutune_spec *spec);

/* cutune_spec_set_device: the device attributes become `dev`'s (as cutune_device_get
 * gives them); a spec that reads one whose value changes is checked again. CUTUNE_OK;
 * CUTUNE_ESPEC when it has errors with these values (diagnostics on the spec);
 * CUTUNE_EINVAL for NULL arguments or a spec with errors. cutune_tune does this itself
 * with the GPU it tunes on, cutune_analyze with the architecture it compiles for. */
int cutune_spec_set_device(cutune_spec *spec, const struct cutune_device *dev);

/* cutune_spec_use_gpu: cutune_spec_set_device with GPU `device`'s attributes
 * (cutune_device_get), when the spec reads any and the driver sees that GPU; otherwise
 * nothing changes (the values stay those the spec was loaded with, an architecture's
 * table) and CUTUNE_OK. For a caller that shows the spec (its space counted, its
 * values said) before cutune_tune sets them itself. Returns as cutune_spec_set_device. */
int cutune_spec_use_gpu(cutune_spec *spec, int device);

/* cutune_spec_ok: 1 when the spec loaded without errors (warnings allowed), else 0. */
int cutune_spec_ok(const cutune_spec *spec);

/* cutune_spec_error_count / cutune_spec_warning_count: diagnostics recorded so far. */
int cutune_spec_error_count(const cutune_spec *spec);
int cutune_spec_warning_count(const cutune_spec *spec);

/* cutune_spec_diagnostic_count: how many diagnostics (errors, warnings and notes) are
 * recorded; later calls (counting, listing) may add more. */
int cutune_spec_diagnostic_count(const cutune_spec *spec);

/* cutune_spec_diagnostics: the diagnostics from index `from` on, rendered as text
 * ("path:line:col: error: ...", the source line, a caret line), with ANSI colours when
 * `color` is non-zero. The string is owned by the spec and valid until the next call of
 * this function or cutune_spec_free. Returns "" when there are none; NULL only when out
 * of memory. */
const char *cutune_spec_diagnostics(cutune_spec *spec, int from, int color);

/* ---- what the spec says ------------------------------------------------------- */
/* These are valid only for a spec that loaded without errors (cutune_spec_ok). */

const char *cutune_spec_path(const cutune_spec *spec);
const char *cutune_spec_kernel(const cutune_spec *spec); /* the kernel's name */
/* The kernel block's name: BLOCK of `kernel NAME as BLOCK`, else the kernel's name
 * (what --kernel selects; docs/language.md, "Several kernels in one file"). */
const char *cutune_spec_block_name(const cutune_spec *spec);
const char *cutune_spec_kernel_file(const cutune_spec *spec); /* resolved path */
const char *cutune_spec_strategy(const cutune_spec *spec);    /* "exhaustive", "random", ... */
int cutune_spec_constraint_count(const cutune_spec *spec);

int cutune_spec_param_count(const cutune_spec *spec);
const char *cutune_spec_param_name(const cutune_spec *spec, int i);
/* How param i reaches the variant: "define", "template", "option", "maxrregcount",
 * "smem" or "none". */
const char *cutune_spec_param_route(const cutune_spec *spec, int i);
/* The type of param i's values: "int", "float", "bool" or "string". */
const char *cutune_spec_param_type(const cutune_spec *spec, int i);
uint64_t cutune_spec_param_value_count(const cutune_spec *spec, int i);
/* cutune_spec_param_value: value k of param i as text (as the spec would write it,
 * strings unquoted), written to buf (NUL-terminated, truncated to size). Returns the
 * full length, or CUTUNE_EINVAL for an index out of range. */
int cutune_spec_param_value(char *buf, size_t size, const cutune_spec *spec, int i, uint64_t k);

/* ---- several kernels in one spec file (docs/language.md, "Several kernels") ----------- */
/* A spec file may hold several kernel blocks; the spec holds one at a time (the first,
 * until another is selected), and everything that reads the spec sees that one.
 * cutune_spec_kernel_count: the blocks (1 for most files); cutune_spec_kernel_selected:
 * the one held; cutune_spec_select_kernel: hold block i from now on (at the size it
 * held: its first at first). CUTUNE_OK or CUTUNE_EINVAL. Iterators and analyses made
 * before must not be used after it. */
int cutune_spec_kernel_count(const cutune_spec *spec);
int cutune_spec_kernel_selected(const cutune_spec *spec);
int cutune_spec_select_kernel(cutune_spec *spec, int i);
/* cutune_spec_select_block: holds the block named `name` (`kernel NAME as BLOCK`'s BLOCK,
 * a block's kernel name otherwise), else the first block of the kernel `name`.
 * CUTUNE_OK; CUTUNE_EINVAL (no such block: cutune_last_error names the spec's blocks,
 * the one held stays held; a spec with errors). */
int cutune_spec_select_block(cutune_spec *spec, const char *name);

/* cutune_spec_check_constants: compares the `__constant__` variables the held kernel
 * block's source declares (the kernel file and the files its #include lines reach in
 * the user's folders, their text scanned: macros are not expanded) with its constant
 * arguments (`arg NAME : constant T[N] = ...`), and adds a warning on the spec for each
 * declared variable no argument fills (on a GPU it would stay zero) and each constant
 * argument no declaration was found for. No GPU needed (`cutune check`). Returns how
 * many warnings it added; CUTUNE_EINVAL for a spec with errors; CUTUNE_ENOMEM. */
int cutune_spec_check_constants(cutune_spec *spec);

/* ---- problem sizes (the spec's `size` statement; docs/language.md) ------------------- */
/* A spec may be tuned over several problem sizes: `size n in [1 << 20, 1 << 24];` or
 * `size (nx, ny) in [(1024, 1024), (4096, 8192)];`. Each size variable is a let; the
 * spec holds one size at a time (the first, until another is selected), and everything
 * that reads the spec (count, list, analyze, the default header) sees that size. */

/* cutune_spec_size_count: how many sizes (1 without a size statement); after --set
 * picked some, those. */
int cutune_spec_size_count(const cutune_spec *spec);
/* cutune_spec_size_var_count / cutune_spec_size_var: the size variables (0 / NULL
 * without a size statement or for j out of range). */
int cutune_spec_size_var_count(const cutune_spec *spec);
const char *cutune_spec_size_var(const cutune_spec *spec, int j);
/* cutune_spec_size_value: size k's value of variable j (a positive int); 0 out of range. */
int64_t cutune_spec_size_value(const cutune_spec *spec, int k, int j);
/* cutune_spec_size_selected: the size the spec holds now (0 without a size statement). */
int cutune_spec_size_selected(const cutune_spec *spec);
/* cutune_spec_select_size: the spec holds size k from now on (the spec is checked again
 * with its values, once per size). CUTUNE_OK; CUTUNE_EINVAL (k out of range);
 * CUTUNE_ESPEC when the spec has an error at that size only (a diagnostic, with a note
 * naming the size); CUTUNE_ENOMEM. Iterators and analyses of the spec made before must
 * not be used after it. */
int cutune_spec_select_size(cutune_spec *spec, int k);

#ifdef __cplusplus
}
#endif

#endif
