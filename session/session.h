/* session.h - the compile session: the stage above runtime/ that turns a spec's
 * configurations into binaries. It plans each configuration as a variant
 * (compiler/plan), compiles the variants on every core through the cache, a bounded
 * window ahead (runtime/pool, compile, cache), compiles variants that would give the
 * same binary once, and adds each variant's resources and theoretical occupancy
 * (runtime/occupancy). No GPU is needed. The caller receives each variant through a
 * callback: in listing (or batch) order from session_run_space and session_run (analyze,
 * list, guided's screening); as soon as it is compiled from session_stream (the tuner,
 * which runs the binaries: one slow compile holds up nothing behind it).
 *
 * The session knows a spec only by its model and its diagnostic list; api/ is the
 * facade over it (argument checks, choosing the architecture, the public error).
 *
 * Ownership: a session owns its source text, cache handle, canonical paths and the
 * table of distinct binaries (with their cubins when kept), all released by
 * session_close. It borrows the model, the diagnostic list, the options and the summary,
 * which must outlive it.
 *
 * A variant's typed values (the configuration it is made from) travel with it, never
 * read back from its text: the source's (the space's listing, a batch, a stream fed by
 * search/) until the session copies them with the variant into the job's arena, which
 * the session frees once the job is delivered (session_each); whoever keeps a variant
 * copies both (result_add: the result's arena, freed with the result). */
#ifndef CUTUNE_SESSION_SESSION_H
#define CUTUNE_SESSION_SESSION_H

#include <stdbool.h>

#include "cutune.h"

#include "../compiler/plan.h"
#include "../lang/diag.h"
#include "../runtime/occupancy.h"

/* A variant's binary, for callers that run it. Borrowed from the session: valid until
 * session_close. */
typedef struct session_binary {
    const unsigned char *cubin;
    size_t cubin_size;
    const char *symbol; /* the kernel's lowered name */
} session_binary;

/* Called for each variant, in the order its source delivers (session_run_space,
 * session_run: listing or batch order; session_stream: as compiled), with its analysis
 * (a->variant: the public view, its values as text) and the configuration it was made
 * from, typed: `vals`, nparams values, vals[i] being what a->variant->values[i] writes.
 * Both are the session's, valid during the call: a caller that keeps the variant copies
 * both (results/result_add). `bin` is NULL unless binaries are kept and the variant
 * compiled. Return non-zero to stop. */
typedef int (*session_each)(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin);

/* session_variant_of: plans configuration `vals` (a value per param) of model `m` as
 * variant `*v` numbered `ordinal` (the view only: whoever keeps the variant keeps `vals`
 * beside it, as the session's jobs and the results' records do; nothing reads values
 * back from the text): its values as text go to `values` (nparams slots),
 * its text and plan into `scratch`; `types` is borrowed. Returns 0, CUTUNE_ENOMEM, or
 * CUTUNE_EEVAL with an error diagnostic (at the failing expression) on `diags`. */
int session_variant_of(const model *m, diag_list *diags, const value *vals, arena *scratch, const char **values,
                       const char *types, uint64_t ordinal, cutune_variant *v);

/* session_occupancy: the occupancy model's answer `r` for `arch` as the public struct
 * (the one conversion: the analysis and cutune_occupancy_* both use it). */
void session_occupancy(const occ_arch *arch, const occ_result *r, cutune_occupancy *out);

typedef struct session session;

/* session_open: a session compiling `m`'s kernel for `arch` (an sm_XX; copied into
 * summary->arch, in diags' arena) with the options `opts` (may be NULL; jobs already checked to be in
 * 0..CUTUNE_MAX_JOBS by the caller). `keep_binaries`: every distinct cubin is kept in
 * memory for the callbacks. Clears *summary and fills its set-up fields (arch, threads,
 * cache folder or the warning why the cache is off); batches add to the rest. The
 * summary's strings (arch, cache_dir, cache_warning) are allocated in diags' arena (the
 * spec's), so they outlive the session. Returns
 * CUTUNE_OK; CUTUNE_EINVAL with a diagnostic when NVRTC cannot compile for `arch`;
 * CUTUNE_EIO with a diagnostic when the kernel file cannot be read; CUTUNE_ENOMEM. */
int session_open(session **out, const model *m, diag_list *diags, const char *arch, const cutune_analyze_options *opts,
                 bool keep_binaries, cutune_analyze_summary *summary);

/* session_set_total: the total that progress reports count towards (0: unknown). */
void session_set_total(session *s, uint64_t total);

/* session_run_space: every valid configuration of the model, in listing order
 * (numbered from 0), at most opts->limit of them when it is set; stops early, with what
 * is under way still delivered, when *opts->cancel becomes non-zero
 * (summary->interrupted). Returns CUTUNE_OK, CUTUNE_ESTOPPED when `each` stopped it,
 * CUTUNE_ECOMPILER (NVRTC itself failed: a diagnostic says how), CUTUNE_EEVAL (a
 * diagnostic), or CUTUNE_ENOMEM. Called again, the listing starts over (binaries already
 * compiled are reused). */
int session_run_space(session *s, session_each each, void *user);

/* session_run: compiles the n configurations `values` (n rows of nparams values),
 * numbered ordinals[i], and calls `each` for each in order; may be called again with
 * another batch (binaries are reused across batches). Returns as session_run_space. */
int session_run(session *s, const value *values, const uint64_t *ordinals, int n, session_each each, void *user);

/* A stream's source: sets *vals (nparams values, valid until the next call) and
 * *ordinal of the next configuration and returns 1; returns 0 at the end, SESSION_WAIT
 * when it has nothing until a configuration in flight is delivered (a search waiting
 * for outcomes; with nothing in flight, SESSION_WAIT is taken as the end), or a negative
 * status to stop. */
enum { SESSION_WAIT = 2 };
typedef int (*session_feed)(void *user, const value **vals, uint64_t *ordinal);

/* A stream's known configurations: whether configuration `vals` (numbered `ordinal`)
 * has an outcome already (the tuner's: its journal holds it, trusted by journal_lookup's
 * rules). Such a configuration is planned but not compiled: `each` gets its analysis
 * with compiled = 0, launchable = 0, why = session_not_compiled (pointer-equal: the mark
 * a caller tests) and bin NULL, and the summary counts it in `variants` only (not
 * compiled, cached, duplicate, failed or unlaunchable). A later configuration of the
 * same compile identity is compiled itself, never a duplicate of it. */
typedef bool (*session_known)(void *user, uint64_t ordinal, const value *vals);
extern const char session_not_compiled[];

/* session_set_known: `known` (NULL: none) is asked for every configuration a stream
 * (session_stream) feeds from now on; batches (session_run) and the space's listing
 * compile everything they are given. */
void session_set_known(session *s, session_known known, void *user);

/* session_stream: compiles the configurations `feed` gives, a bounded window ahead,
 * and calls `each` for each as soon as it is compiled (runtime/pool's POOL_ANY_ORDER:
 * the oldest finished first, not the order fed; one whose binary an earlier one makes
 * comes after every configuration fed before it), asking the feed for more whenever the
 * window has room: the compile pool never drains between a search's proposals unless
 * the search must wait for outcomes. Returns as session_run_space. */
int session_stream(session *s, session_feed feed, void *feed_user, session_each each, void *user);

/* session_in_flight: how many configurations the feed gave that are not yet delivered
 * (compiling, or compiled and waiting their turn). A feed asked for more while some are
 * in flight can answer SESSION_WAIT and have them delivered first, rather than wait
 * for something else (an outcome) that their delivery would bring. */
uint64_t session_in_flight(const session *s);

/* session_close: releases the session and everything it owns; NULL is a no-op. */
void session_close(session *s);

#endif
