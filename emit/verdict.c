/* verdict.c - what a tuning command says about a run at its end (verdict.h). */
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../base/num.h"
#include "../results/rank.h"

/* ranking_table: the best `top` of r (a result without sizes) as a table: a header
 * line naming r's params, then a row per variant ranked. Nothing when the ranking
 * cannot be made (out of memory: the caller's strbuf fails on its own). */
static void ranking_table(strbuf *sb, const cutune_tune_result *r, const char *objective, int top)
{
    uint64_t count = 0;
    if (rank_of(NULL, 0, &count, r) < 0)
        return;
    uint64_t max = count < (uint64_t)top ? count : (uint64_t)top;
    const cutune_measurement **list = calloc((size_t)max + 1, sizeof *list);
    if (!list || rank_of(list, max, &count, r) < 0) {
        free(list);
        return;
    }
    sb_printf(sb, "\n%4s %6s", "rank", "#");
    for (int p = 0; p < r->nparams; p++)
        sb_printf(sb, "  %s", r->param_names[p]);
    sb_printf(sb, "  %11s %7s %14s %5s %5s %5s\n", "median ms", "spread", objective, "regs", "occ", "reps");
    for (uint64_t i = 0; i < max; i++) {
        const cutune_measurement *m = list[i];
        sb_printf(sb, "%4llu %6llu", (unsigned long long)i + 1, (unsigned long long)m->variant->ordinal);
        for (int p = 0; p < r->nparams; p++)
            sb_printf(sb, "  %*s", (int)strlen(r->param_names[p]), m->variant->values[p]);
        sb_printf(sb, "  %11.4f %6.1f%% %14.4g %5d %4.0f%% %5d\n", m->median_ms, m->spread * 100, m->objective,
                  m->registers, m->occupancy * 100, m->reps);
    }
    free(list);
}

/* size_label: one's size variables, each " NAME=VALUE" after `first` before the first
 * (" at " or " "), joined by spaces. */
static void size_label(strbuf *sb, const cutune_tune_result *one, const char *first)
{
    for (int j = 0; j < one->nsize_vars; j++)
        sb_printf(sb, "%s%s=%lld", j ? " " : first, one->size_vars[j],
                  (long long)(one->size_values ? one->size_values[j] : 0));
}

char *verdict_ranking(const cutune_tune_result *r, int top)
{
    strbuf sb = STRBUF_INIT;
    if (top > 0 && r->nsizes == 0)
        ranking_table(&sb, r, r->summary.objective_name, top);
    for (int k = 0; top > 0 && k < r->nsizes; k++) { /* a run over sizes: each size's ranking */
        sb_printf(&sb, "\nsize");
        size_label(&sb, r->sizes[k], " ");
        sb_printf(&sb, ":");
        ranking_table(&sb, r->sizes[k], r->summary.objective_name, top);
    }
    return sb_steal(&sb);
}

/* variant_values: " NAME=VALUE" for each of v's params, named by r. */
static void variant_values(strbuf *sb, const cutune_tune_result *r, const cutune_variant *v)
{
    for (int p = 0; p < v->nparams && p < r->nparams; p++)
        sb_printf(sb, " %s=%s", r->param_names[p], v->values[p]);
}

char *verdict_best(const cutune_tune_result *r, int k, char **note)
{
    strbuf sb = STRBUF_INIT;
    const cutune_tune_result *one = r->nsizes == 0 ? r : k >= 0 && k < r->nsizes ? r->sizes[k] : NULL;
    const cutune_measurement *b = one ? result_best(one) : NULL;
    const char *why = NULL;
    if (b) {
        sb_printf(&sb, "best");
        size_label(&sb, one, " at ");
        sb_printf(&sb, ": #%llu", (unsigned long long)b->variant->ordinal);
        variant_values(&sb, one, b->variant);
        sb_printf(&sb, "  median %.4f ms, %s %.6g\n", b->median_ms, r->summary.objective_name, b->objective);
        if (b->energy)
            sb_printf(&sb, "      energy %.4g mJ per launch at %.1f W (the board's, over %d launches in %.2f s)\n",
                      b->energy_j * 1e3, b->power_w, b->energy_launches, b->energy_seconds);
        else
            why = b->energy_note;
    }
    strbuf line = STRBUF_INIT;
    if (why)
        sb_printf(&line, "%s\n", why);
    char *text = sb_steal(&sb), *noted = sb_steal(&line);
    if (!text || !noted || !note) {
        free(noted);
        noted = NULL;
    }
    if (note)
        *note = noted;
    if (note && !noted) {
        free(text);
        text = NULL;
    }
    return text;
}

char *verdict_device_run(const cutune_device_run *runs, int i, char **spread)
{
    strbuf sb = STRBUF_INIT, sp = STRBUF_INIT;
    const cutune_tune_result *r = runs[i].result;
    const cutune_measurement *b = r ? result_best(r) : NULL;
    if (r)
        sb_printf(&sb, "GPU %d (%s): ", runs[i].device, r->device.name);
    if (b) {
        sb_printf(&sb, "best #%llu", (unsigned long long)b->variant->ordinal);
        variant_values(&sb, r, b->variant);
        sb_printf(&sb, "  median %.4f ms; results: %s\n", b->median_ms, runs[i].results_path);
    } else if (r) {
        sb_printf(&sb, "no winner; results: %s\n", runs[i].results_path);
    }
    int first = 0; /* the first run read back: the others' times are compared with its */
    while (first < i && !runs[first].result)
        first++;
    cutune_device_spread d;
    if (!r)
        sb_printf(&sp, "cutune: GPU %d: no results: %s\n", runs[i].device,
                  runs[i].load_error ? runs[i].load_error : "not read");
    else if (first < i && rank_spread(&d, runs[first].result, r) == 0 && d.variants > 0)
        sb_printf(&sp,
                  "spread: GPU %d's median time over GPU %d's, same variants (%d): median %.4f, 90 %% within "
                  "%.4f..%.4f\n",
                  runs[i].device, runs[first].device, d.variants, d.median, d.lo, d.hi);
    char *text = sb_steal(&sb);
    *spread = sb_steal(&sp);
    if (!text || !*spread) {
        free(text);
        free(*spread);
        *spread = NULL;
        return NULL;
    }
    return text;
}

char *verdict_of_run(const cutune_tune_verdict *v)
{
    strbuf sb = STRBUF_INIT;
    if (v->sizes && v->winners < v->sizes)
        sb_printf(&sb, "cutune: %d of %d sizes have no variant that ran correctly\n", v->sizes - v->winners, v->sizes);
    if (v->winners == 0 && v->nothing_compiled)
        sb_add(&sb, "cutune: NOTHING COMPILED: no variant compiled, so none was chosen\n");
    else if (v->winners == 0 && v->ran_ok) /* a winner is timed in full: the final race, or its own samples */
        sb_add(&sb, v->interrupted ? "cutune: variants ran correctly, but the run was interrupted before any was "
                                     "timed in full (the final race), so none was chosen; run it again to resume\n"
                                   : "cutune: variants ran correctly, but none was timed in full, so none was "
                                     "chosen\n");
    else if (v->winners == 0)
        sb_add(&sb, "cutune: no variant ran correctly, so none was chosen\n");
    return sb_steal(&sb);
}

char *verdict_untuned(const cutune_untuned *u)
{
    strbuf sb = STRBUF_INIT;
    const char *why = u->why && u->why[0] ? u->why : "the driver sees no device";
    if (u->runnable == 0) {
        sb_printf(&sb,
                  "Nothing was tuned, and a GPU would not change that: the kernel or the spec must.\n"
                  "(This machine has no usable GPU either: %s)\n",
                  why);
        return sb_steal(&sb);
    }
    sb_printf(&sb, "cutune: NOT TUNED. Timing needs a GPU, and this machine has none usable: %s\n", why);
    if (u->brief)
        return sb_steal(&sb);
    if (u->failed == 0 && u->unlaunchable == 0 && !u->limited) {
        sb_printf(&sb, "Everything that needs no GPU was done: the spec is valid, its space is counted and every "
                       "variant compiled.\n");
    } else {
        char n[32];
        sb_printf(&sb,
                  "Everything that needs no GPU was done: the spec is valid and its space is counted. Of %s "
                  "variants%s, %llu compiled and can launch, %llu failed to compile and %llu cannot launch;\n"
                  "on a GPU, only those %llu would run.\n",
                  num_format_count(u->variants, n, sizeof n), u->limited ? " (the first, --limit)" : "",
                  (unsigned long long)u->runnable, (unsigned long long)u->failed, (unsigned long long)u->unlaunchable,
                  (unsigned long long)u->runnable);
    }
    if (u->emits)
        sb_printf(&sb, "No header or CSV was written: they come from measurements.\n");
    return sb_steal(&sb);
}

char *verdict_nothing_runs(const cutune_analyze_summary *sum)
{
    strbuf sb = STRBUF_INIT;
    unsigned long long variants = sum->variants, failed = sum->failed, unlaunchable = sum->unlaunchable;
    const char *arch = sum->arch ? sum->arch : "";
    if (variants == 0)
        sb_add(&sb, "no variant was analysed\n");
    else if (failed == variants)
        sb_printf(&sb, "NOTHING COMPILED: none of the %llu variants compiled for %s\n", variants, arch);
    else if (failed + unlaunchable == variants)
        sb_printf(&sb,
                  "NOTHING CAN RUN: none of the %llu variants both compiled for %s and can launch "
                  "(%llu failed to compile, %llu cannot launch)\n",
                  variants, arch, failed, unlaunchable);
    return sb_steal(&sb);
}
