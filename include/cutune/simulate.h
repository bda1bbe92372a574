/* cutune/simulate.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * A search replayed over a recorded exhaustive run instead of a GPU
 * (api/cutune_simulate.c). */
#ifndef CUTUNE_SIMULATE_H
#define CUTUNE_SIMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "tune.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- simulation: a search replayed over a recorded exhaustive run ------------------ */

#define CUTUNE_SIMULATE_OPTIONS_VERSION 1

typedef struct cutune_simulate_options {
    unsigned int version;         /* CUTUNE_SIMULATE_OPTIONS_VERSION (cutune/common.h, "Options") */
    cutune_search_options search; /* strategy, budget, seed... as for tuning (a version of its own) */
    int repeat;                   /* runs, with seeds seed, seed + 1, ... (0: 1) */
    int threads;                  /* compile threads of the simulated host, ahead of its one GPU (0: 16) */
} cutune_simulate_options;

/* Every field's default: the spec's search, 1 run, 16 compile threads. */
#define CUTUNE_SIMULATE_OPTIONS_INIT \
    { \
        .version = CUTUNE_SIMULATE_OPTIONS_VERSION, .search = CUTUNE_SEARCH_OPTIONS_INIT, .repeat = 1, .threads = 16 \
    }
int cutune_simulate_options_init(cutune_simulate_options *opts, unsigned int version);

/* One simulated run. */
typedef struct cutune_sim_run {
    uint64_t seed;
    uint64_t evaluations;    /* configurations evaluated (taken from the recording) */
    uint64_t screened;       /* skipped on static information (guided), or failing by their compile
                                  alone (guided, auto): not evaluations */
    int found;               /* 0: no configuration evaluated ran correctly */
    double best;             /* the best objective found */
    uint64_t best_index;     /* its configuration's index (as `cutune list` numbers it) */
    uint64_t best_at;        /* the evaluation that found it (1-based) */
    double ratio;            /* how close to the true best: best/true (maximise) or true/best
                                  (minimise); 1 is the optimum, 0 when nothing was found */
    double seconds;          /* the simulated wall: the recorded compile seconds on `threads` compile
                                  threads and the GPU seconds on one GPU, pipelined as the tuner runs them */
    const char *stop_reason; /* why it stopped: "budget", "space exhausted", ... (static) */
    double bound_seconds;    /* the least wall that work allows: max(compile seconds / threads, GPU
                                  seconds) of what it evaluated */
} cutune_sim_run;

typedef struct cutune_sim_report {
    const char *strategy; /* the strategy replayed (static) */
    uint64_t seed, budget, patience;
    double time_limit_s;
    uint64_t space;       /* valid configurations */
    uint64_t recorded_ok; /* of which ran correctly in the recording */
    double true_best;
    uint64_t true_best_index;
    int maximize;
    const char *objective_name; /* as the recording names it (owned by the report) */
    int nruns;
    cutune_sim_run *runs;
    double median, q1, q3, min, max; /* of the runs' ratios */
    double median_evaluations;
} cutune_sim_report;

/* cutune_simulate: runs the search `opts` asks for (the spec's otherwise) `repeat` times
 * over the outcomes recorded in `results_path` (a cutune-results file of an exhaustive
 * run of the same spec) instead of a GPU. Configurations are matched by their param
 * values; a recorded failure is a failed evaluation; static information (compile errors,
 * cannot launch, registers, spills, occupancy) comes from the recording too. Returns
 * CUTUNE_OK; CUTUNE_EIO (a diagnostic says why: unreadable, not a results file, of
 * another spec, or not covering every valid configuration); CUTUNE_EINVAL (a bad
 * option, e.g. an unknown strategy, seeds past the largest (cutune_simulate_check), or
 * options of another version); CUTUNE_ENOMEM. `opts` may be NULL (every default). */
int cutune_simulate(cutune_sim_report **out, cutune_spec *spec, const char *results_path,
                    const cutune_simulate_options *opts);

/* cutune_simulate_check: whether the runs `opts` asks for can be told apart: CUTUNE_OK,
 * or CUTUNE_EINVAL saying why not in the words of `cutune simulate`'s options ("--seed S
 * with --repeat R takes seeds past CUTUNE_MAX_COUNT (the largest a results file holds)":
 * the runs' seeds are seed, seed + 1, ...) or for opts NULL. What cutune_simulate checks
 * first, for a caller to refuse a command line before it loads the spec. */
int cutune_simulate_check(const cutune_simulate_options *opts);

/* cutune_sim_report_free: NULL is a no-op. */
void cutune_sim_report_free(cutune_sim_report *r);

/* cutune_sim_report_json: the report as the indented JSON object `cutune simulate
 * --format json` prints (docs/cli.md; no line end), `results_path` and `threads` being
 * the recording and compile threads it was simulated with (NULL: null; threads 0: 16,
 * as the options' default). A figure that is not finite is null. In *out (free with
 * cutune_free). CUTUNE_OK; CUTUNE_EINVAL (no output or report); CUTUNE_ENOMEM. */
int cutune_sim_report_json(char **out, const cutune_sim_report *r, const char *results_path, int threads);

/* cutune_sim_report_text: the report as the text `cutune simulate` prints: the settings
 * (`results_path` replayed with `threads` compile threads, 0: 16), the space, the true
 * best, the budget, a row per run and the ratio's median, quartiles and range; each
 * line ends in a line feed. In *out (free with cutune_free). CUTUNE_OK; CUTUNE_EINVAL
 * (no output, report or results path); CUTUNE_ENOMEM. */
int cutune_sim_report_text(char **out, const cutune_sim_report *r, const char *results_path, int threads);

#ifdef __cplusplus
}
#endif

#endif
