/* tune_from_string.c - the C API end to end: load a spec from a string, override a
 * constant (the problem size), tune on a chosen GPU, read the best configuration and
 * every result. Usage: tune_from_string KERNEL_DIR [DEVICE] (KERNEL_DIR holds scale.cu).
 * Exit 0: tuned; 4: no GPU (cutune_tune returned CUTUNE_ENODEV); 1: anything else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutune.h>

static const char spec_text[] =
    "kernel scale from \"scale.cu\" {\n"
    "    param threads in [128, 256, 512] as none;\n"
    "    param ITEMS   in [1, 2, 4];\n"
    "    let n = 1 << 20;\n"
    "    block threads;\n"
    "    grid cdiv(n, threads * ITEMS);\n"
    "    arg n : int = n;\n"
    "    arg x : inout float[n] = random(seed = 1);\n"
    "    verify x against config(threads = 128, ITEMS = 1);\n"
    "}\n";

/* print_config: "threads=256 ITEMS=4" for a variant of `spec`. */
static void print_config(const cutune_spec *spec, const cutune_variant *v)
{
    for (int k = 0; k < v->nparams; k++)
        printf("%s%s=%s", k ? " " : "", cutune_spec_param_name(spec, k), v->values[k]);
}

int main(int argc, char **argv)
{
    const char *kernel_dir = argc > 1 ? argv[1] : ".";
    int device = argc > 2 ? atoi(argv[2]) : 0;

    /* The spec's relative paths ("scale.cu") resolve against kernel_dir; n = 4 Mi
     * replaces the spec's 1 Mi everywhere it is used (buffer sizes, grid). */
    const char *set[] = {"n=4194304"};
    cutune_load_options load = CUTUNE_LOAD_OPTIONS_INIT; /* every default, then ours */
    load.set = set;
    load.nset = 1;
    load.base_dir = kernel_dir;
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_string(&spec, "<scale>", spec_text, strlen(spec_text), &load);
    if (rc != CUTUNE_OK) {
        if (spec) /* NULL only when out of memory */
            fputs(cutune_spec_diagnostics(spec, 0, 0), stderr);
        cutune_spec_free(spec);
        return 1;
    }

    /* The first configuration, before any GPU is involved: its grid follows from n. */
    cutune_configs *it = NULL;
    const cutune_variant *first;
    if (cutune_configs_new(&it, spec) == CUTUNE_OK && cutune_configs_next(&first, it) == 1) {
        printf("first configuration: ");
        print_config(spec, first);
        printf(", block %lld, grid %lld\n", (long long)first->block[0], (long long)first->grid[0]);
    }
    cutune_configs_free(it);

    cutune_tune_options opts = CUTUNE_TUNE_OPTIONS_INIT; /* every default: the spec's own settings */
    opts.device = device;
    cutune_tune_result *r = NULL;
    rc = cutune_tune(&r, spec, &opts);
    if (rc == CUTUNE_ENODEV) {     /* no driver, no GPU, or its worker cannot start */
        printf("no GPU: %s\n", cutune_last_error());
        cutune_tune_result_free(r);
        cutune_spec_free(spec);
        return 4;
    }
    if (rc != CUTUNE_OK) {
        fprintf(stderr, "tuning failed: %s\n%s%s\n", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0),
                cutune_last_error());
        cutune_tune_result_free(r);
        cutune_spec_free(spec);
        return 1;
    }

    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    printf("tuned on GPU %d (%s, %s): %llu variants, %llu timed\n", device, s->device_name, s->arch,
           (unsigned long long)s->variants, (unsigned long long)s->timed);
    const cutune_measurement *best = cutune_tune_best(r); /* NULL when none ran correctly */
    if (best) {
        const cutune_variant *v = cutune_measurement_variant(best);
        printf("best: ");
        print_config(spec, v);
        printf(", block %lld, grid %lld: %.4f ms (%s = %g)\n", (long long)v->block[0], (long long)v->grid[0],
               cutune_measurement_value(best, CUTUNE_VALUE_MEDIAN_MS), s->objective_name,
               cutune_measurement_value(best, CUTUNE_VALUE_OBJECTIVE));
    }
    for (uint64_t i = 0; i < cutune_tune_count(r); i++) {
        const cutune_measurement *m = cutune_tune_at(r, i);
        const char *outcome = cutune_outcome_name(cutune_measurement_outcome(m)); /* "ok", "wrong", ... */
        printf("  #%llu ", (unsigned long long)cutune_measurement_variant(m)->ordinal);
        print_config(spec, cutune_measurement_variant(m));
        if (cutune_measurement_value(m, CUTUNE_VALUE_TIMED) != 0)
            printf(": %s, %.4f ms\n", outcome, cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS));
        else
            printf(": %s (%s)\n", outcome, cutune_measurement_reason(m) ? cutune_measurement_reason(m) : "not timed");
    }
    int found = best != NULL;
    cutune_tune_result_free(r);
    cutune_spec_free(spec);
    return found ? 0 : 1;
}
