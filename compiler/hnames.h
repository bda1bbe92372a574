/* hnames.h - every name the best-config header (emit/header.c, docs/header.md) defines
 * for a kernel block, in one list, and the rule for which of them may not meet.
 *
 * A header is C: a macro rewrites every later use of its name (fields and arguments
 * included), functions and types share one file scope, and the headers of several
 * kernel blocks are written one after the other into one file. So two blocks with the
 * prefixes K and K_A both define K_A_X when K has a param a_x and K_A a param x, and a
 * param named `tuned` would define P_TUNED, a macro the header defines for itself. The
 * checker (compiler/spec.c, for `cutune check` and every load) and the header writer
 * (emit/header.c, and cutune_header_names_claim across the blocks of one file) build the
 * lists here and refuse what hn_clash_find finds, so the two never disagree.
 *
 * Ownership: a list owns its names (an arena of its own); hn_block's strings are borrowed
 * only while hn_collect runs. */
#ifndef CUTUNE_COMPILER_HNAMES_H
#define CUTUNE_COMPILER_HNAMES_H

#include <stdbool.h>

#include "../base/arena.h"
#include "../base/strbuf.h"

/* Where a name is visible in the header, which decides what it may meet. */
typedef enum hn_scope {
    HN_MACRO,  /* #define: rewrites the name everywhere after it (any block, any scope) */
    HN_GLOBAL, /* a function, a type or a struct tag at file scope */
    HN_FIELD,  /* a member of one of the header's structs (group: which) */
    HN_LOCAL,  /* an argument or local variable of one of its functions (group: which) */
} hn_scope;

/* What makes the header define a name. */
typedef enum hn_origin {
    HN_FIXED, /* the header itself (P_TUNED, P_lookup, ...) */
    HN_PARAM, /* a param (P_<PARAM> and its field) */
    HN_SIZE,  /* a size variable (P_SIZE_<VAR>, its field and argument) */
    HN_LET,   /* a let (an argument of the functions of the problem size) */
    HN_LIBC,  /* a name of <math.h> or <string.h> the header includes or calls */
} hn_origin;

typedef struct hn_name {
    const char *name; /* as the header writes it */
    hn_scope scope;
    const char *group; /* HN_FIELD, HN_LOCAL: the struct or function it is in; else NULL */
    hn_origin origin;
    int index;          /* the param, size variable or let (as hn_block lists them); -1 */
    const char *source; /* the param's, size variable's or let's name; NULL for the header's own */
} hn_name;

/* What a kernel block's header is made of. */
typedef struct hn_block {
    const char *prefix; /* the names' prefix (a C identifier) */
    int nparams;
    const char *const *params; /* the params' names, in order */
    int nsize_vars;            /* 0: not a header over problem sizes */
    const char *const *size_vars;
    int nlets;               /* the lets that may become arguments of the functions of */
    const char *const *lets; /* the problem size (0, NULL: no spec, no such functions) */
} hn_block;

typedef struct hn_list {
    arena *arena;
    hn_name *v;
    int n, cap;
} hn_list;

/* hn_collect: every name the header of block b defines or uses as its own, into *out (a
 * new list; hn_free it). CUTUNE_OK or CUTUNE_ENOMEM (*out NULL). */
int hn_collect(hn_list **out, const hn_block *b);

/* hn_free: NULL is a no-op. */
void hn_free(hn_list *l);

/* Two names that cannot both be in one header file: a of lists[la], b of lists[lb]
 * (la <= lb; b is never the header's own when a is not). */
typedef struct hn_clash {
    int la, lb;
    const hn_name *a, *b;
} hn_clash;

/* hn_clash_find: the first clash among the names of lists[0 .. n) (the blocks of one
 * file, in order), or false when there is none. Equal names clash when either is a
 * macro; when both are file-scope names; when both are fields of one struct, or
 * arguments and locals of one function, of one block; when an argument or local meets a
 * file-scope name of its block (its function may call it); and any name clashes with an
 * object-like macro of <math.h> (NAN, INFINITY, ...), a local with a function the
 * header calls (floor, pow, strcmp, ...). Sorts a copy: O(N log N) in the names. */
bool hn_clash_find(const hn_list *const *lists, int n, hn_clash *out);

/* hn_clash_text: the clash as a sentence (no location, no trailing period), each side
 * followed by its label ("" or e.g. " of kernel block 2 ('k_a')"):
 * "param 'x' of kernel block 2 ('k_a') would make the header define K_A_X (a macro), as
 * param 'a_x' of kernel block 1 ('k') does (a macro): rename one, or give ...". */
void hn_clash_text(strbuf *out, const hn_clash *c, const char *label_a, const char *label_b);

#endif
