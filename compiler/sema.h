/* sema.h - the checker: from a syntax tree to a model (compiler/model.h).
 *
 * Resolves every name, checks every type, folds constants, evaluates param domains,
 * resolves file paths against the spec's folder, and fills in defaults. Reports every
 * problem it finds (not just the first) to the diag_list; prints nothing. */
#ifndef CUTUNE_COMPILER_SEMA_H
#define CUTUNE_COMPILER_SEMA_H

#include "devattrs.h"
#include "model.h"

/* A value for a `let` given from outside the spec (CLI --set NAME=VALUE, or the C API),
 * replacing the expression written in the spec. `text` is parsed as an int, a float,
 * true/false, or else taken as a string. */
typedef struct sema_override {
    const char *name;
    const char *text;
} sema_override;

typedef struct sema_options {
    const sema_override *overrides;
    int noverrides;
    bool skip_file_checks;       /* do not require the kernel file and include folders to exist */
    const dev_values *device;    /* the values of the device attributes (sm_count, ...); NULL: a
                                 spec that reads one is an error */
    int size_index;              /* the size of the `size` statement the lets hold (0: the first) */
    const struct m_sizes *sizes; /* the sizes a check of the same block and options has
                                    read (spec_select_size): shared, not read again, so
                                    checking every size is linear in their number; NULL:
                                    read them */
} sema_options;

/* sema_check: builds *out in arena `a` from `spec`. Returns 0 when the spec is valid
 * (warnings allowed), -1 when it has errors (then *out is NULL) or memory ran out. */
int sema_check(model **out, arena *a, const ast_spec *spec, const sema_options *opts, diag_list *dl);

#endif
