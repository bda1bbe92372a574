/* cutune_remarks.c - what the commands around results say besides the files they
 * write, for any application (the texts emit/remarks.c makes): a merge's summary and
 * missing shards (cutune/results.h), the GPUs' note and the header's on GPUs of one
 * model (cutune/emit.h), a run of a process per GPU checked and its start line
 * (cutune/tune.h) and the command line of each GPU's process, an import's messages
 * and default path (cutune/import.h), what a run says of each file it wrote after it
 * ended (cutune/emit.h). The caller owns what it passes and frees each
 * text with cutune_free; nothing here prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../emit/remarks.h"
#include "../results/result.h"
#include "internal.h"

/* text_out: *out = text (a remarks_* call's), or CUTUNE_ENOMEM. */
static int text_out(char **out, char *text)
{
    *out = text;
    return text ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_merge_text(char **out, char **missing, const cutune_tune_result *r, int nfiles, const char *output)
{
    if (!out || !missing || !r || !output)
        return err_set(CUTUNE_EINVAL, "cutune_merge_text: no output, result or path");
    int count = cutune_tune_shard_count(r), n = 0;
    int *lack = calloc((size_t)count + 1, sizeof *lack);
    for (int i = 0; lack && i < count; i++)
        if (!cutune_tune_shard_holds(r, i))
            lack[n++] = i;
    *missing = lack ? remarks_missing(lack, n, count) : NULL;
    free(lack);
    *out = *missing ? remarks_merged(r, nfiles, output) : NULL;
    if (!*out) {
        free(*missing);
        *missing = NULL;
    }
    return text_out(out, *out);
}

int cutune_devices_note(char **out, const cutune_device *devs, int n)
{
    if (!out || (!devs && n > 0))
        return err_set(CUTUNE_EINVAL, "cutune_devices_note: no output or devices");
    bool one_model = true;
    for (int i = 1; i < n; i++)
        one_model &= cutune_device_same_model(&devs[i], &devs[0]) != 0;
    return text_out(out, remarks_devices(n, one_model));
}

int cutune_per_device_check(const int *devices, int n, int nblocks, const char *results_path, int sharded,
                            const char *journal_path)
{
    if (nblocks > 1)
        return err_set(CUTUNE_EINVAL, "--per-device tunes one kernel block: name it with --kernel NAME");
    if (sharded)
        return err_set(CUTUNE_EINVAL, "--per-device tunes every configuration on each GPU: leave --shard out");
    if (journal_path)
        return err_set(CUTUNE_EINVAL, "with --per-device each GPU keeps its own journal: leave --journal out");
    if (!results_path)
        return err_set(CUTUNE_EINVAL, "--per-device needs a results file to name each GPU's after (--results FILE)");
    for (int i = 0; devices && i < n; i++)
        for (int j = 0; j < i; j++)
            if (devices[j] == devices[i])
                return err_set(CUTUNE_EINVAL, "--per-device names GPU %d twice", devices[i]);
    return CUTUNE_OK;
}

int cutune_per_device_text(char **out, const int *devices, int n, int jobs)
{
    if (!out || !devices || n < 0)
        return err_set(CUTUNE_EINVAL, "cutune_per_device_text: no output or GPUs");
    return text_out(out, remarks_per_device(devices, n, cutune_per_device_jobs(jobs, n)));
}

int cutune_per_device_args(char ***out, int argc, char *const *argv, int device, int jobs, const char *results_path)
{
    if (!out || argc < 0 || (!argv && argc > 0) || !results_path)
        return err_set(CUTUNE_EINVAL, "cutune_per_device_args: no output, arguments or results path");
    enum { OWN = 6, NUMBER = 16 };
    size_t slots = (size_t)argc + OWN + 1;
    char **args = calloc(1, slots * sizeof *args + 2 * NUMBER); /* the numbers after the pointers */
    if (!args)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    char *dev = (char *)(args + slots), *njobs = dev + NUMBER;
    snprintf(dev, NUMBER, "%d", device);
    snprintf(njobs, NUMBER, "%d", jobs);
    int k = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--devices") == 0)
            i++; /* and its value */
        else if (strncmp(argv[i], "--devices=", 10) != 0 && strcmp(argv[i], "--per-device") != 0)
            args[k++] = argv[i];
    }
    char *own[OWN] = {"--device", dev, "--jobs", njobs, "--results", (char *)results_path};
    memcpy(args + k, own, sizeof own);
    *out = args;
    return CUTUNE_OK;
}

int cutune_header_devices_notes(char **out, const int *same_as, int n)
{
    if (!out || (!same_as && n > 0))
        return err_set(CUTUNE_EINVAL, "cutune_header_devices_notes: no output or list");
    return text_out(out, remarks_same_model(same_as, n));
}

int cutune_import_messages(char **out, const cutune_import *imp, const char *file, int notes)
{
    if (!out || !imp || !file)
        return err_set(CUTUNE_EINVAL, "cutune_import_messages: no output, import or file");
    int nerrors = cutune_import_error_count(imp), nnotes = notes ? cutune_import_note_count(imp) : 0;
    const char **lines = calloc((size_t)nerrors + (size_t)nnotes + 1, sizeof *lines);
    if (!lines)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    for (int k = 0; k < nerrors; k++)
        lines[k] = cutune_import_error(imp, k);
    for (int k = 0; k < nnotes; k++)
        lines[nerrors + k] = cutune_import_note(imp, k);
    char *text = remarks_import(lines, nerrors, lines + nerrors, nnotes, file);
    free((void *)lines);
    return text_out(out, text);
}

int cutune_import_default_path(char **out, const char *file)
{
    if (!out || !file)
        return err_set(CUTUNE_EINVAL, "cutune_import_default_path: no output or file");
    return text_out(out, remarks_import_path(file));
}

int cutune_emitted_text(char **out, const cutune_emitted *file, int brief)
{
    if (!out || !file || !file->kind || !file->path)
        return err_set(CUTUNE_EINVAL, "cutune_emitted_text: no output or file");
    return text_out(out, remarks_emitted(file, cutune_last_error(), brief != 0));
}
