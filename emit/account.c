/* account.c - a tuning run's account as text (account.h): what `cutune SPEC` prints on
 * stderr after a run, for any application. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "account.h"
#include "../base/strbuf.h"
#include "failures.h"
#include "../base/trace.h"

/* Compile errors among a tuning run's outcomes: all of them, and those whose NVRTC run
 * was in this run (not from the cache, not a duplicate) or came from the cache, which
 * the library's compiled and cached counts include (a variant read back from the
 * journal was not compiled by this run: neither). */
typedef struct compile_errors {
    uint64_t all, fresh, cached;
} compile_errors;

static compile_errors account_compile_errors(const cutune_tune_result *r)
{
    compile_errors e = {0, 0, 0};
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        if (rec->out != OUTCOME_COMPILE_ERROR)
            continue;
        e.all++;
        if (!rec->m.duplicate && !rec->m.resumed)
            *(rec->m.cached ? &e.cached : &e.fresh) += 1;
    }
    return e;
}

/* account_devices: a run on several GPUs: how many variants each measured, and each
 * other GPU's times over the first's for the same variants. */
static void account_devices(strbuf *sb, const cutune_tune_result *r)
{
    const cutune_tune_summary *s = &r->summary;
    sb_printf(sb, "%d GPUs, one compile pool, each variant on whichever GPU was free:", s->ndevices);
    for (int k = 0; k < s->ndevices; k++) {
        bool seen = false; /* a GPU named twice (--devices 0,0) is counted once */
        for (int j = 0; j < k; j++)
            seen |= s->devices[j] == s->devices[k];
        if (seen)
            continue;
        uint64_t n = 0;
        for (uint64_t i = 0; i < r->n; i++) {
            const cutune_measurement *m = &r->records[i]->m;
            n += m->device == s->devices[k] && m->same_code_as < 0 && !m->resumed;
        }
        sb_printf(sb, "%s GPU %d ran %llu", k ? "," : "", s->devices[k], (unsigned long long)n);
    }
    sb_printf(sb, "; the first chose the winner (the final race)\n");
    for (int k = 1; k < s->ndevices; k++) {
        const cutune_device_spread *d = &s->spread[k];
        if (d->variants > 0)
            sb_printf(sb,
                      "spread: GPU %d's median time over GPU %d's, the same %d variant%s timed in full: median "
                      "%.4f, from %.4f to %.4f\n",
                      d->device, s->devices[0], d->variants, d->variants == 1 ? "" : "s", d->median, d->lo, d->hi);
        else
            sb_printf(sb, "spread: GPU %d against GPU %d: no variant was timed in full on both\n", d->device,
                      s->devices[0]);
        /* The race takes variants within 5 % of the best, whichever GPU placed them: GPUs
         * that differ by more than run-to-run noise may have kept one out unfairly. */
        if (d->variants > 0 && fabs(d->median - 1.0) > 0.02)
            sb_printf(sb,
                      "warning: GPU %d's times differ from GPU %d's by %.1f %%: these GPUs are not "
                      "interchangeable, and a variant placed on the slower one may have missed the final race; "
                      "tune on each (--per-device)\n",
                      d->device, s->devices[0], 100.0 * fabs(d->median - 1.0));
    }
}

/* The phases' and the GPU work's names in the account (cutune_phase, cutune_work). */
static const char *const phase_label[CUTUNE_PHASE_COUNT] = {
    [CUTUNE_PHASE_START] = "process start", [CUTUNE_PHASE_DEVICE] = "driver and context",
    [CUTUNE_PHASE_INPUTS] = "inputs",       [CUTUNE_PHASE_REFERENCE] = "reference",
    [CUTUNE_PHASE_COMPILE] = "compile",     [CUTUNE_PHASE_GPU] = "GPU work",
    [CUTUNE_PHASE_RACE] = "final race",     [CUTUNE_PHASE_PROFILE] = "hardware counters",
    [CUTUNE_PHASE_WRITE] = "writing",       [CUTUNE_PHASE_OTHER] = "other",
};
static const char *const work_label[CUTUNE_WORK_COUNT] = {
    [CUTUNE_WORK_REFERENCE] = "reference", [CUTUNE_WORK_ARGS] = "arguments",  [CUTUNE_WORK_POISON] = "output poisoning",
    [CUTUNE_WORK_LOAD] = "module loads",   [CUTUNE_WORK_RESET] = "resets",    [CUTUNE_WORK_CHECK] = "checked runs",
    [CUTUNE_WORK_COMPARE] = "comparison",  [CUTUNE_WORK_WARMUP] = "warm-ups", [CUTUNE_WORK_SAMPLES] = "timed samples",
    [CUTUNE_WORK_ENERGY] = "energy",       [CUTUNE_WORK_OTHER] = "other",     [CUTUNE_WORK_FLUSH] = "L2 flushes",
};

/* One line of a table: the label, seconds, and their share of `whole`. */
static void account_row(strbuf *sb, const char *label, double seconds, double whole)
{
    sb_printf(sb, "  %-20s %9.3f s %5.1f %%\n", label, seconds, whole > 0 ? 100.0 * seconds / whole : 0.0);
}

/* account_phases: where the run's wall time went, phase by phase (those that took any
 * time, and always "other"), adding up to the wall; then the GPU workers' time by what
 * they did, adding up to it, the L2 flushes (within) apart. Nothing when not measured. */
static void account_phases(strbuf *sb, const cutune_tune_summary *s)
{
    if (s->phases_wall_seconds > 0) {
        sb_printf(sb, "where the time went: %.3f s from the process's start to the run's end\n",
                  s->phases_wall_seconds);
        for (int k = 0; k < CUTUNE_PHASE_COUNT; k++)
            if (s->phase_seconds[k] > 0 || k == CUTUNE_PHASE_OTHER)
                account_row(sb, phase_label[k], s->phase_seconds[k], s->phases_wall_seconds);
    }
    double work = 0;
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
        work += k == CUTUNE_WORK_FLUSH ? 0 : s->work_seconds[k];
    if (!(work > 0))
        return;
    double timing = s->work_seconds[CUTUNE_WORK_WARMUP] + s->work_seconds[CUTUNE_WORK_SAMPLES];
    sb_printf(sb, "GPU workers' time: %.3f s, of which %.3f s timing (warm-ups and samples) and %.3f s besides\n", work,
              timing, work - timing);
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
        if (k != CUTUNE_WORK_FLUSH && (s->work_seconds[k] > 0 || k == CUTUNE_WORK_OTHER))
            account_row(sb, work_label[k], s->work_seconds[k], work);
    if (s->work_seconds[CUTUNE_WORK_FLUSH] > 0)
        sb_printf(sb, "  (%s: %.3f s of the GPU's time within the checked runs and timing)\n",
                  work_label[CUTUNE_WORK_FLUSH], s->work_seconds[CUTUNE_WORK_FLUSH]);
}

/* account_tied: one line when final-race contenders stopped tied (level with the best
 * timed in full before them): a winner among near-equals is the one timed in full, and
 * another run may pick another of them. */
static void account_tied(strbuf *sb, const cutune_tune_result *r)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < r->n; i++)
        n += r->records[i]->m.tied ? 1 : 0;
    if (n)
        sb_printf(sb,
                  "final race: %llu contender%s stopped tied, level with the best timed in full before %s, "
                  "closer than the race can tell apart (the place stays with the one timed in full)\n",
                  (unsigned long long)n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
}

char *account_text(const cutune_tune_result *r)
{
    strbuf buf = STRBUF_INIT, *sb = &buf;
    const cutune_tune_summary *s = &r->summary;
    double bound = s->threads > 0 ? s->compile_seconds / s->threads : s->compile_seconds;
    double per_gpu = s->gpu_seconds / (s->ndevices > 1 ? s->ndevices : 1); /* the GPUs work at once */
    if (per_gpu > bound)
        bound = per_gpu;
    compile_errors ce = account_compile_errors(r);
    sb_printf(sb,
              "%s (%s): %llu variants: %llu timed (%llu stopped early), %llu wrong, %llu cannot "
              "launch, %llu failed",
              s->device_name, s->arch, (unsigned long long)s->variants, (unsigned long long)s->timed,
              (unsigned long long)s->pruned, (unsigned long long)s->wrong, (unsigned long long)s->unlaunchable,
              (unsigned long long)s->failed);
    if (ce.all)
        sb_printf(sb, " (%llu of them did not compile)", (unsigned long long)ce.all);
    sb_printf(sb, "\n");
    failures_where(sb, r);
    account_tied(sb, r);
    if (s->twins)
        sb_printf(sb,
                  "%llu variants not run: the same machine code, launch and arguments as one that "
                  "ran, whose figures they share (same_code_as; --run-twins runs them)\n",
                  (unsigned long long)s->twins);
    /* compiled and cached: binaries made by NVRTC now, or read from the cache */
    /* profiling comes after the tuning, which the rate and the bound are about */
    double wall = s->wall_seconds - s->profile_seconds;
    if (s->profiled > 0)
        sb_printf(sb, "profiling: %llu variants' hardware counters in %.2f s, after the tuning below\n",
                  (unsigned long long)s->profiled, s->profile_seconds);
    char counts[96] = "binaries not recorded"; /* a results file written before they were */
    if (s->compiled != UINT64_MAX && s->cached != UINT64_MAX)
        snprintf(counts, sizeof counts, "%llu compiled, %llu cached",
                 (unsigned long long)(s->compiled > ce.fresh ? s->compiled - ce.fresh : 0),
                 (unsigned long long)(s->cached > ce.cached ? s->cached - ce.cached : 0));
    sb_printf(sb,
              "wall %.2f s: compile %.2f s of NVRTC time on %d threads (%s), GPU "
              "%.2f s (%.2f s timing); %.1f variants/s; %.2fx the bound max(compile/threads, GPU)\n",
              wall, s->compile_seconds, s->threads, counts, s->gpu_seconds, s->timing_seconds,
              wall > 0 ? (double)s->variants / wall : 0.0, bound > 0 ? wall / bound : 0.0);
    account_phases(sb, s);
    if (s->ndevices > 1)
        account_devices(sb, r);
    if (s->reference)
        sb_printf(sb, "outputs checked against the %s\n", s->reference);
    if (s->results_path)
        sb_printf(sb, "results: %s\n", s->results_path);
    if (strcmp(s->strategy, "exhaustive") != 0 || s->stop_reason)
        sb_printf(sb, "search: %s (seed %llu): %llu configurations measured%s%s%s\n", s->strategy,
                  (unsigned long long)s->seed, (unsigned long long)s->evaluations,
                  s->screened ? ", others skipped on static information" : "", s->stop_reason ? "; stopped by " : "",
                  s->stop_reason ? s->stop_reason : "");
    if (s->journal_path)
        sb_printf(sb, "journal: %s (%llu variants resumed from an earlier run, not run again)\n", s->journal_path,
                  (unsigned long long)s->resumed);
    if (s->cache_warning)
        sb_printf(sb, "warning: %s\n", s->cache_warning);
    if (s->compile_warning)
        sb_printf(sb, "warning: %s\n", s->compile_warning);
    return sb_steal(sb);
}

/* account_inputs_changed: one warning when variants found an `in` argument changed since
 * it was restored (their inputs_note): how many, and the first's note, which names it. */
static void account_inputs_changed(strbuf *sb, const cutune_tune_result *r)
{
    const record *first = NULL;
    uint64_t n = 0;
    for (uint64_t i = 0; i < r->n; i++)
        if (r->records[i]->m.inputs_note) {
            first = first ? first : r->records[i];
            n++;
        }
    if (!first)
        return;
    sb_printf(sb, "warning: %llu variant%s found an `in` argument changed since it was restored; %s#%llu: %s\n",
              (unsigned long long)n, n == 1 ? "" : "s", n == 1 ? "" : "the first, ",
              (unsigned long long)first->v.ordinal, first->m.inputs_note);
}

/* account_unraced: a run that ended its final race (not interrupted) with variants
 * still provisional: contenders past the race's limit (tuner/run.c, FINAL_RACE_MAX),
 * placed by a few samples and never timed in full. How many, so that a flat landscape's
 * near-ties are not taken for measured ones. */
static void account_unraced(strbuf *sb, const cutune_tune_result *r)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < r->n; i++)
        n += r->records[i]->m.provisional && r->records[i]->m.same_code_as < 0;
    if (n && !r->summary.interrupted)
        sb_printf(sb,
                  "note: %llu more variant%s within 5 %% of the best %s not timed in full: the final race "
                  "times the likeliest few; %s provisional figures are in the results (never the winner's)\n",
                  (unsigned long long)n, n == 1 ? "" : "s", n == 1 ? "was" : "were", n == 1 ? "its" : "their");
}

char *account_warnings(const cutune_tune_result *r)
{
    strbuf buf = STRBUF_INIT, *sb = &buf;
    const cutune_tune_summary *s = &r->summary;
    account_inputs_changed(sb, r);
    account_unraced(sb, r);
    if (*trace_open_error()) /* CUTUNE_TRACE named a file this process could not open */
        sb_printf(sb, "%s: the run was not traced\n", trace_open_error());
    if (s->journal_ignored)
        sb_printf(sb, "journal: %llu line%s not trusted, and left in the file (%s): those variants ran again\n",
                  (unsigned long long)s->journal_ignored, s->journal_ignored == 1 ? " was" : "s were",
                  s->journal_ignored_why ? s->journal_ignored_why : "damaged records");
    if (s->interrupted && result_best(r)) /* no best: the verdict says why */
        sb_printf(sb, "interrupted: %llu variants were done; the best is the best of those\n",
                  (unsigned long long)s->variants);
    else if (s->interrupted)
        sb_printf(sb, "interrupted: %llu variants were done\n", (unsigned long long)s->variants);
    return sb_steal(sb);
}
