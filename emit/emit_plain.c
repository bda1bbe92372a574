/* emit_plain.c - what `cutune occupancy`, `devices` and `simulate` print as text (see
 * emit_text.h), made here so that an application gets the same lines through the public
 * API (cutune_occupancy_text, cutune_devices_text, cutune_sim_report_text) as the CLI
 * prints. */
#include "emit_text.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#include "../base/strbuf.h"

/* done: sb's text into *out (NULL and CUTUNE_ENOMEM when an append failed). */
static int done(char **out, strbuf *sb)
{
    *out = sb_steal(sb);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

/* A limit on blocks per SM: its count, or "no limit". */
static const char *limit_text(int v, char *buf, size_t size)
{
    if (v == INT32_MAX)
        snprintf(buf, size, "no limit");
    else
        snprintf(buf, size, "%d", v);
    return buf;
}

int emit_occupancy_text(char **out, const cutune_occupancy *occ, int regs, int threads, int64_t smem)
{
    strbuf sb = STRBUF_INIT;
    char a[24], b[24], c[24], d[24];
    sb_printf(&sb, "%s: %d threads x %d registers, %lld bytes of shared memory per block\n", occ->arch, threads, regs,
              (long long)smem);
    sb_printf(&sb, "blocks per SM   %d  (allowed by warps %s, blocks %s, registers %s, shared memory %s)\n",
              occ->blocks_per_sm, limit_text(occ->by_warps, a, sizeof a), limit_text(occ->by_blocks, b, sizeof b),
              limit_text(occ->by_registers, c, sizeof c), limit_text(occ->by_shared_memory, d, sizeof d));
    sb_printf(&sb, "active warps    %d of %d\n", occ->active_warps, occ->max_warps);
    sb_printf(&sb, "occupancy       %.1f%%\n", occ->occupancy * 100);
    sb_printf(&sb, "limiter         %s\n", occ->unlaunchable ? "none: cannot launch" : occ->limiter);
    if (occ->unlaunchable)
        sb_printf(&sb, "cannot launch   %s\n", occ->unlaunchable);
    sb_printf(&sb, "allocated       %d registers and %lld bytes of shared memory per block\n", occ->regs_per_block,
              (long long)occ->smem_per_block);
    return done(out, &sb);
}

int emit_devices_text(char **out, const cutune_device *devs, int n)
{
    strbuf sb = STRBUF_INIT;
    for (int i = 0; i < n; i++) {
        const cutune_device *d = &devs[i];
        sb_printf(&sb, "%d  %s  %s  %d SMs  L2 %d MiB  driver %d.%d\n", d->ordinal, d->name, d->arch, d->sm_count,
                  d->l2_bytes >> 20, d->driver_version / 1000, d->driver_version % 1000 / 10);
    }
    return done(out, &sb);
}

int emit_sim_text(char **out, const cutune_sim_report *r, const char *results_path, int threads)
{
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "simulate     %s over %s, %d compile threads and one GPU\n", r->strategy, results_path, threads);
    sb_printf(&sb, "space        %llu valid configurations, %llu ran correctly in the recording\n",
              (unsigned long long)r->space, (unsigned long long)r->recorded_ok);
    sb_printf(&sb, "true best    %s %.6g (#%llu)\n", r->objective_name, r->true_best,
              (unsigned long long)r->true_best_index);
    sb_add(&sb, "budget       ");
    if (r->budget)
        sb_printf(&sb, "%llu evaluations (%.1f%% of the space)", (unsigned long long)r->budget,
                  100.0 * (double)r->budget / (double)r->space);
    else
        sb_add(&sb, "no evaluation limit");
    if (r->time_limit_s > 0)
        sb_printf(&sb, ", %.6g s (simulated)", r->time_limit_s);
    if (r->patience)
        sb_printf(&sb, ", patience %llu", (unsigned long long)r->patience);
    sb_printf(&sb, "; seeds %llu..%llu\n\n", (unsigned long long)r->seed,
              (unsigned long long)(r->seed + (uint64_t)r->nruns - 1));
    sb_printf(&sb, "%4s %8s %7s %8s %14s %8s %8s %10s %10s  %s\n", "run", "seed", "evals", "screened", "best", "/ true",
              "found at", "seconds", "bound", "stopped by");
    for (int i = 0; i < r->nruns; i++) {
        const cutune_sim_run *u = &r->runs[i];
        sb_printf(&sb, "%4d %8llu %7llu %8llu %14.6g %8.4f %8llu %10.4g %10.4g  %s\n", i + 1,
                  (unsigned long long)u->seed, (unsigned long long)u->evaluations, (unsigned long long)u->screened,
                  u->found ? u->best : NAN, u->ratio, (unsigned long long)u->best_at, u->seconds, u->bound_seconds,
                  u->stop_reason);
    }
    sb_printf(&sb,
              "\nbest found / true best: median %.4f, quartiles %.4f .. %.4f, range %.4f .. %.4f (%d runs; median "
              "%.0f evaluations)\n",
              r->median, r->q1, r->q3, r->min, r->max, r->nruns, r->median_evaluations);
    return done(out, &sb);
}
