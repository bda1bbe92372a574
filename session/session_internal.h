/* session_internal.h - the compile session's state, private to its two files:
 * session.c (the session's life and its sources: configurations planned as variants,
 * made into the pool's jobs, identical binaries found) and session_deliver.c (each job's
 * compile delivered: its analysis, the summary's counts, the caller's callback). Nothing
 * outside session/ includes it: callers see session.h.
 *
 * Ownership: the session owns its table of distinct binaries (each `unique`, with its
 * identity, log and kept cubin), freed by session_close; a job in flight owns its
 * job_state and arena, freed by session_job_release once the pool is done with it. */
#ifndef CUTUNE_SESSION_SESSION_INTERNAL_H
#define CUTUNE_SESSION_SESSION_INTERNAL_H

#include <xxhash.h>

#include "../compiler/space.h"
#include "../runtime/pool.h"
#include "session.h"

/* uthash: never exit on a failed allocation (library code), flag the element instead;
 * keys are hashed with XXH3 as everywhere else in cutune. */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) ((elt)->oom = true)
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = (unsigned)XXH3_64bits((keyptr), (keylen)))
#include <uthash.h>

/* What a unique binary's compile produced, kept for its duplicates. */
typedef struct unique {
    char *identity; /* name expression and options, NUL-separated: the key */
    size_t identity_len;
    bool ok, cached, has_resources, nvrtc_failed;
    bool oom; /* set by uthash when adding it failed */
    kernel_resources res;
    double seconds;
    char *log;            /* excerpt */
    unsigned char *cubin; /* kept when the caller wants binaries (tuning) */
    size_t cubin_size;
    char *lowered_name;
    UT_hash_handle hh;
} unique;

/* A job in flight: a deep copy of its variant and of the configuration it was made
 * from (the source reuses its storage), both in `arena`, which the job owns. */
typedef struct job_state {
    arena *arena;
    cutune_variant variant;
    value *vals;            /* the configuration, typed: variant.nparams values */
    const char *unrunnable; /* why its arguments fail (a buffer too large), or NULL */
    const unique *dup_of;   /* NULL: compiled (or looked up) itself */
    bool known;             /* its outcome is known (session_known): not compiled */
    unique *self;           /* to fill when it is not a duplicate */
} job_state;

struct session {
    const model *m;
    diag_list *diags;
    const cutune_analyze_options *opts;
    cache *cache;
    int threads;
    const occ_arch *occ; /* NULL: no occupancy model for this architecture */
    const char *arch;    /* summary->arch */
    char *source;
    arena *paths; /* the canonical paths and include options */
    char *kernel_dir, *kernel_dir_opt;
    const char *kernel_path;                 /* the kernel file, canonical: NVRTC's program name */
    const char **inc_opt_from, **inc_opt_to; /* "-I" of each spec include folder, as spelled / canonical */
    int ninc_opts;
    unique *table; /* distinct binaries (uthash head) */
    uint64_t produced, limit, total;
    uint64_t delivered; /* jobs handed to session_job_done: produced - delivered are in flight */
    session_each each;
    void *user;
    bool keep_binaries;
    cutune_analyze_summary *summary;
    cutune_progress progress;
    int status; /* why a hook stopped the run */
    char *compiler_error;
    /* The source of configurations: the whole space (listing order), or a batch. */
    space *space;
    space_iter *iter;
    const value *batch_vals;
    const uint64_t *batch_ordinals;
    int batch_n, batch_i;
    session_feed feed; /* a stream (session_stream), or NULL */
    void *feed_user;
    session_known known; /* a stream's configurations not to compile, or NULL */
    void *known_user;
    uint64_t next_ordinal; /* the space's next configuration */
    arena *scratch;        /* the current variant's strings */
    const char **values;
    char *types;
    cutune_variant v;
    const value *vals; /* the current variant's configuration (the source's storage) */
    int64_t *counts;   /* plan_args' scratch: the current variant's arguments */
    value *scalars;
    const char *unrunnable; /* why the current variant's arguments fail (in scratch), or NULL */
};

/* session_job_done: the pool's delivery hook (pool_hooks.done; `ud` the session): job
 * `pj`'s compile output `out` (taken over and freed) or NVRTC's `error` (NULL when it
 * ran) recorded in its distinct binary, turned into the variant's analysis, counted in
 * the summary and handed to the session's callback; a known job (session_known) is
 * delivered uncompiled. Releases the job. 0 to go on, -1 to stop (s->status says why:
 * CUTUNE_ESTOPPED, CUTUNE_ECOMPILER). */
int session_job_done(void *ud, pool_job *pj, compile_output *out, const char *error);

/* session_job_release: the pool's release hook (pool_hooks.release; `ud` unused): frees
 * job `pj`'s state and arena, for a job produced but never delivered, and for each one
 * delivered (session_job_done calls it). */
void session_job_release(void *ud, pool_job *pj);

#endif
