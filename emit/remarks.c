/* remarks.c - what the commands around results say besides their files (remarks.h). */
#include "remarks.h"

#include <inttypes.h>
#include <string.h>

#include "../base/strbuf.h"

char *remarks_merged(const cutune_tune_result *r, int nfiles, const char *output)
{
    strbuf sb = STRBUF_INIT;
    const cutune_tune_summary *s = &r->summary;
    const cutune_measurement *best = result_best(r);
    sb_printf(&sb, "merged %d file%s: %" PRIu64 " variants, %" PRIu64 " timed", nfiles, nfiles == 1 ? "" : "s",
              s->variants, s->timed);
    if (best)
        sb_printf(&sb, ", best #%" PRIu64 " (%s %.6g)", best->variant->ordinal, s->objective_name, best->objective);
    if (strcmp(output, "-") == 0)
        sb_add(&sb, "\nresults: standard output\n");
    else
        sb_printf(&sb, "\nresults: %s\n", output);
    return sb_steal(&sb);
}

char *remarks_missing(const int *missing, int n, int count)
{
    strbuf sb = STRBUF_INIT;
    if (n > 0) {
        sb_printf(&sb, "cutune merge: partial: shard%s", n == 1 ? "" : "s");
        for (int k = 0; k < n; k++)
            sb_printf(&sb, "%s %d", k ? "," : "", missing[k]);
        sb_printf(&sb, " of %d missing; the file records the shards it holds (settings.shard.merged)\n", count);
    }
    return sb_steal(&sb);
}

char *remarks_devices(int count, bool one_model)
{
    strbuf sb = STRBUF_INIT;
    if (count > 1)
        sb_printf(&sb,
                  one_model ? "%d GPUs of one model: cutune SPEC --devices all measures on all of them at "
                              "once, into one result\n"
                            : "%d GPUs of more than one model: cutune SPEC --devices all tunes every "
                              "configuration on each (as --per-device), a header entry per GPU\n",
                  count);
    return sb_steal(&sb);
}

char *remarks_per_device(const int *devs, int n, int jobs)
{
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%d GPUs (", n);
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%s%d", i ? ", " : "", devs[i]);
    sb_printf(&sb, "): a cutune process per GPU, each tuning every configuration with %d compile threads\n", jobs);
    return sb_steal(&sb);
}

char *remarks_same_model(const int *same_as, int n)
{
    strbuf sb = STRBUF_INIT;
    for (int k = 0; k < n; k++)
        if (same_as[k] >= 0)
            sb_printf(&sb,
                      "note: results %d are of the same GPU model as results %d: the header holds the "
                      "first one's winner for that model\n",
                      k + 1, same_as[k] + 1);
    return sb_steal(&sb);
}

char *remarks_import(const char *const *errors, int nerrors, const char *const *notes, int nnotes, const char *file)
{
    strbuf sb = STRBUF_INIT;
    for (int k = 0; k < nerrors; k++)
        sb_printf(&sb, "%s\n", errors[k]);
    for (int k = 0; k < nnotes; k++)
        sb_printf(&sb, "note: %s\n", notes[k]);
    if (nerrors > 0)
        sb_printf(&sb, "cutune import: %s not imported: %d construct%s refused\n", file, nerrors,
                  nerrors == 1 ? "" : "s");
    return sb_steal(&sb);
}

char *remarks_import_path(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - file) : strlen(file);
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%.*s.tune", (int)stem, file);
    return sb_steal(&sb);
}

char *remarks_emitted(const cutune_emitted *file, const char *why, bool brief)
{
    strbuf sb = STRBUF_INIT;
    bool report = strcmp(file->kind, "report") == 0 && file->status == CUTUNE_EIO;
    if (file->written && !brief)
        sb_printf(&sb, "%s: %s\n", file->kind, file->path);
    else if (!file->written && file->status == CUTUNE_OK)
        sb_printf(&sb, "cutune: no %s written to %s: there is no winner\n", file->kind, file->path);
    else if (!file->written && file->status != CUTUNE_ESPEC && file->status != CUTUNE_EEVAL)
        sb_printf(&sb, "cutune%s: %s\n", report ? " report" : "", why);
    return sb_steal(&sb);
}
