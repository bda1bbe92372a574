/* cutune/launcher.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Which shard of a split run this process takes when a parallel launcher started it
 * (mpirun, mpiexec, srun, jsrun, flux run, a Slurm job array): the rank and the number of
 * ranks that the launcher put in the environment (api/cutune_launcher.c). Nothing is
 * linked against MPI: each rank tunes its shard (cutune_tune_set_shard) into a results
 * file of its own and cutune_results_merge joins them (docs/multi-node.md). */
#ifndef CUTUNE_LAUNCHER_H
#define CUTUNE_LAUNCHER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most shards a run may be split into (a shard's settings.shard.count). */
#define CUTUNE_MAX_SHARDS 65536

/* What the launcher said of this process. The strings are static (never freed). */
typedef struct cutune_launcher {
    int index, count; /* this process's shard: index of count (1 <= count <= CUTUNE_MAX_SHARDS) */
    int local;        /* its rank among the launcher's processes on this host (-1: not said) */
    int local_count;  /* the launcher's processes on this host (-1: not said) */
    const char *name; /* who started it, for messages: "Open MPI's mpirun" (NULL: no launcher) */
    const char *rank_variable, *count_variable; /* the variables index and count came from */
} cutune_launcher;

/* cutune_launcher_find: the shard the launcher that started this process gives it, read
 * from `env` (NAME=VALUE strings up to a NULL, as `environ`; NULL: this process's
 * environment, through getenv). The launchers, the most specific first: Open MPI
 * (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK, _LOCAL_SIZE), MVAPICH (MV2_COMM_WORLD_*),
 * HPE Cray PALS (PALS_RANKID with PMI_SIZE, PALS_LOCAL_RANKID, PMI_LOCAL_SIZE), Hydra:
 * MPICH's and Intel MPI's mpiexec, and Cray PMI (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID or
 * PMI_LOCAL_RANK, MPI_LOCALNRANKS or PMI_LOCAL_SIZE), IBM LSF's jsrun
 * (JSM_NAMESPACE_RANK, _SIZE, _LOCAL_RANK, _LOCAL_SIZE), Flux (FLUX_TASK_RANK,
 * FLUX_JOB_SIZE, FLUX_TASK_LOCAL_ID), Slurm's srun (SLURM_PROCID, SLURM_NTASKS or
 * SLURM_NPROCS, SLURM_LOCALID), then a Slurm job array (SLURM_ARRAY_TASK_ID, _MIN, _COUNT
 * and _STEP: task MIN + k * STEP takes shard k of COUNT). The first launcher of more than
 * one rank wins, so a launcher started inside another's job (mpirun in a Slurm
 * allocation) is the one read; a launcher of one rank (an sbatch script's own step)
 * gives way to a job array, and otherwise takes the whole space (shard 0 of 1). A
 * number is decimal digits only, at most 2^31 - 1.
 * Returns CUTUNE_OK with *out filled; when no launcher gives a shard, CUTUNE_EINVAL with
 * *out's count 0 and the error object saying why: out->name NULL when no launcher's rank
 * is in the environment (the message lists the variables looked for), else the first
 * launcher whose variables are set but cannot be a shard (a rank without a count, not a number, a rank not below the
 * count, a count above CUTUNE_MAX_SHARDS, a job array task off its MIN + k * STEP), the
 * variables and values named. */
int cutune_launcher_find(cutune_launcher *out, const char *const *env);

/* cutune_launcher_parse: a shard as `--shard` takes it: "I/N" (0 <= I < N <=
 * CUTUNE_MAX_SHARDS; out->local and local_count -1, name NULL: no launcher) or "auto"
 * (cutune_launcher_find of this process's environment). Returns CUTUNE_OK with *out
 * filled; CUTUNE_EINVAL: for "auto", as cutune_launcher_find; else *out unchanged and
 * the error object saying what a shard takes and quoting the text ("shard takes I/N (0
 * <= I < N <= 65536) or auto, not '2/2'"). */
int cutune_launcher_parse(cutune_launcher *out, const char *text);

#ifdef __cplusplus
}
#endif

#endif
