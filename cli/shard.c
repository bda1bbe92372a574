/* shard.c - which shard of the space this process takes (`--shard i/N`, or
 * `--shard auto` from the launcher that started it), and where a shard's results go.
 *
 * The work is split by the launcher, not by cutune: under mpirun (Open MPI, MPICH),
 * srun (Slurm) or a Slurm job array, each process reads its rank and the number of
 * ranks from the environment the launcher sets, takes that shard, and the GPU its
 * local rank names. Nothing is linked against MPI: the shards write their own results
 * files (on a shared file system), and `cutune merge` joins them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* An environment variable as an integer from 0 to 2^31 - 1, or -1 (unset, or anything
 * else: not a launcher's number). */
static long env_int(const char *name)
{
    long long n;
    return cli_read_int(getenv(name), 0, INT32_MAX, &n) ? (long)n : -1;
}

/* The launchers' variables, most specific first: {rank, size, local rank}. */
static const char *const launchers[][4] = {
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "Open MPI's mpirun"},
    {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPICH's mpiexec"},
    {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "Slurm's srun"},
};

int cli_shard_auto(cli_shard *out)
{
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        long rank = env_int(launchers[i][0]), size = env_int(launchers[i][1]);
        if (rank >= 0 && size >= 1 && rank < size && size <= CLI_MAX_SHARDS) {
            long local = env_int(launchers[i][2]);
            *out = (cli_shard){(int)rank, (int)size, local >= 0 ? (int)local : -1, launchers[i][3]};
            return 0;
        }
    }
    /* A Slurm job array: one task per shard (each a job of its own, no local rank). */
    long task = env_int("SLURM_ARRAY_TASK_ID"), count = env_int("SLURM_ARRAY_TASK_COUNT");
    long min = env_int("SLURM_ARRAY_TASK_MIN");
    if (task >= 0 && count >= 1 && min >= 0 && task - min < count && count <= CLI_MAX_SHARDS) {
        *out = (cli_shard){(int)(task - min), (int)count, -1, "a Slurm job array"};
        return 0;
    }
    return -1;
}

int cli_parse_shard(const char *sub, const char *text, cli_shard *out)
{
    if (strcmp(text, "auto") == 0) {
        if (cli_shard_auto(out) == 0)
            return 0;
        cli_usage_error(sub, "--shard auto: no launcher's rank and size in the environment (mpirun sets "
                             "OMPI_COMM_WORLD_RANK/SIZE, srun SLURM_PROCID/SLURM_NTASKS, a job array "
                             "SLURM_ARRAY_TASK_ID/COUNT/MIN); give --shard I/N");
        return -1;
    }
    const char *slash = strchr(text, '/');
    char index[24];
    long long i = -1, n = -1;
    if (slash && (size_t)(slash - text) < sizeof index) {
        memcpy(index, text, (size_t)(slash - text));
        index[slash - text] = '\0';
        if (!cli_read_int(index, 0, CLI_MAX_SHARDS - 1, &i) || !cli_read_int(slash + 1, 1, CLI_MAX_SHARDS, &n))
            n = -1;
    }
    if (n < 1 || i < 0 || i >= n) {
        cli_usage_error(sub, "--shard takes I/N (0 <= I < N <= %d) or auto, not '%s'", CLI_MAX_SHARDS, text);
        return -1;
    }
    *out = (cli_shard){(int)i, (int)n, -1, NULL};
    return 0;
}
