/* header_internal.h - what the header's files share, private to them: emit/header.c (the
 * entry points, the entries), header_text.c (the shared writers, the text but for the
 * table), header_table.c (the config struct, its table, the look-ups), header_sizes.c
 * (problem sizes and compiled variants) and header_check.c (names, the spec).
 * Ownership: an entry's pointers are borrowed from the results or the header's arena. */
#ifndef CUTUNE_EMIT_HEADER_INTERNAL_H
#define CUTUNE_EMIT_HEADER_INTERNAL_H

#include <stdbool.h>

#include "../base/strbuf.h"
#include "../compiler/hnames.h"
#include "../compiler/spec.h"
#include "../results/result.h"

/* One entry of the header: a device's winner, or the default configuration. */
typedef struct entry {
    const cutune_tune_result *r; /* NULL for the default configuration */
    const cutune_measurement *best, *runner_up;
    const cutune_variant *v; /* the configuration and its variant */
    int ncommon;             /* options common to every variant */
    const value *vals;       /* each param's value, typed: the winner's record's (record.vals)
                                or the default configuration's */
    const char *source;      /* what to call the results file, or NULL */
    const int64_t *size;     /* the problem size it was tuned at (h->nsize_vars values), or NULL */
    int variant;             /* its compiled variant (header_sizes.c) */
} entry;

typedef struct hdr {
    strbuf out;
    const char *P; /* the prefix */
    const char *kernel;
    const char *block; /* the kernel block's name (`as NAME`, else the kernel's); NULL: the
                          results record none (written before blocks had names) */
    int nparams;
    const char *const *names; /* param names */
    char *types;              /* 'i', 'f', 'b', 's' per param */
    cutune_spec *spec;        /* NULL: no functions of the problem size */
    const model *m;
    entry *e;
    int n;
    bool tuned;
    bool needs_math, needs_string;
    unsigned helpers; /* the arithmetic helpers the functions call (CEXPR_*) */
    strbuf funcs;     /* functions of entry 0's params (before the includes are known) */
    strbuf cfuncs;    /* functions of a configuration */
    /* problem sizes (header_sizes.c): 0 variables when the results are not of a run over sizes */
    int nsize_vars;
    const char *const *size_vars;
    const char *const *routes; /* each param's route ("define", ...; NULL: not known) */
    int nvariants;             /* distinct compiled variants among the entries */
} hdr;

/* header_text.c's writers, appending to out. hdr_literal: a param's value as a C
 * literal (ints and floats as cexpr writes them, bools as 1/0, strings as C strings);
 * hdr_upper: s upper-cased; hdr_comment: text safe in a comment (base/escape.h);
 * hdr_joined: items[from..to) joined by blanks, as one C string; hdr_number: a double as
 * a C literal (0.0 when not finite). hdr_maxrregcount: the register cap among v's
 * options (the last one wins, as for NVRTC), 0 when none. */
void hdr_literal(strbuf *out, value v);
void hdr_upper(strbuf *out, const char *s);
void hdr_comment(strbuf *out, const char *s);
void hdr_joined(strbuf *out, const char *const *items, int from, int to);
void hdr_number(strbuf *out, double d);
long hdr_maxrregcount(const cutune_variant *v);

/* hdr_functions: the inline functions of the problem size (block, grid, shared memory)
 * that read a `let`, in h->funcs (entry 0's params) and h->cfuncs (a configuration's);
 * the includes and helpers they need noted in h. h->m and h->spec must be set.
 * CUTUNE_OK, CUTUNE_ENOMEM, or the spec's evaluation error (spec_eval_failed). */
int hdr_functions(hdr *h);

/* hdr_assemble: the whole header in h->out, in order: provenance, guard, includes,
 * macros, helpers, functions, the table and its look-ups (hdr_table). */
void hdr_assemble(hdr *h, const cutune_header_options *opts);

/* hdr_table (header_table.c): the config struct and the look-ups that hold the table of
 * every entry, P_lookup and (over sizes) P_lookup_size, to h->out. */
void hdr_table(hdr *h);

/* hdr_flatten: the results as the header's entries: one per result, or one per size of
 * a run over sizes (its sizes in order); makes h->e (h->n entries) and the size
 * variables, and gives each entry's result and source name in *flat and *srcs (in a).
 * CUTUNE_OK, CUTUNE_EINVAL (the error object set) or CUTUNE_ENOMEM. */
int hdr_flatten(hdr *h, arena *a, const cutune_tune_result *const *results, int n, const cutune_header_options *opts,
                const cutune_tune_result ***flat, const char ***srcs);

/* hdr_default_entry: the spec's default configuration (h->m's) as entry e, checked
 * against every constraint (header.c). */
int hdr_default_entry(hdr *h, arena *a, entry *e);

/* hdr_sizes_defaults: a default header of a spec over sizes: one default entry per size
 * (the spec checked at each), so that code using the look-up by size builds before
 * anything is tuned. Leaves the spec at the size it held. */
int hdr_sizes_defaults(hdr *h, arena *a);

/* hdr_sizes_prepare: the compiled variants of the entries (e->variant, h->nvariants). */
int hdr_sizes_prepare(hdr *h);

/* hdr_sizes_describe: " at n=4096" for an entry's size in the provenance ("" without). */
void hdr_sizes_describe(strbuf *out, const hdr *h, const entry *e);

/* hdr_sizes_macros: P_SIZE_<VAR> (entry 0's size), the size struct and the compiled
 * variants (P_VARIANT_COUNT, P_FOR_EACH_VARIANT). */
void hdr_sizes_macros(hdr *h);

/* hdr_sizes_fields: the config struct's fields for the size and the variant. */
void hdr_sizes_fields(hdr *h);

/* hdr_sizes_init: an entry's initialisers of those fields (", {4096}, 0"). */
void hdr_sizes_init(hdr *h, const entry *e);

/* header_check.c: hdr_fail sets the error object from a printf format and returns
 * CUTUNE_EINVAL; hdr_names_of lists the names the header of h defines (CUTUNE_OK or
 * CUTUNE_ENOMEM; the caller frees with hn_free); hdr_check_names: every name a C
 * identifier, none clashing; hdr_check_spec: the spec has the results' kernel and params. */
int hdr_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int hdr_names_of(const hdr *h, hn_list **out);
int hdr_check_names(const hdr *h);
int hdr_check_spec(const hdr *h);

#endif
