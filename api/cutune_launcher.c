/* cutune_launcher.c - cutune/launcher.h: the shard a parallel launcher gives this
 * process, read from the variables the launcher set. One table names each launcher's
 * variables (a field may go by two names: Hydra's and Cray PMI's local rank); the
 * table is read in order, and a Slurm job array, which is not a launcher of ranks but
 * of jobs, comes after it. The environment is only read: values are untrusted text,
 * shown in messages cut short and with control bytes replaced. Also `--shard`'s text,
 * "I/N" or "auto", read (cutune_launcher_parse). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/num.h"
#include "internal.h"

enum { NAMES = 2 }; /* names a field may go by */

/* A launcher: its name for messages, and the variables of the rank, the number of ranks,
 * the local rank and the number of local ranks (first name first; NULL: none). */
typedef struct launcher_vars {
    const char *name;
    const char *rank[NAMES], *count[NAMES], *local[NAMES], *local_count[NAMES];
} launcher_vars;

/* The most specific first: MPI launchers run inside Slurm and Flux allocations (and
 * Slurm's cray_shasta plugin sets PALS' variables beside its own), so theirs win. */
static const launcher_vars launchers[] = {
    {"Open MPI's mpirun",
     {"OMPI_COMM_WORLD_RANK"},
     {"OMPI_COMM_WORLD_SIZE"},
     {"OMPI_COMM_WORLD_LOCAL_RANK"},
     {"OMPI_COMM_WORLD_LOCAL_SIZE"}},
    {"MVAPICH's mpirun_rsh",
     {"MV2_COMM_WORLD_RANK"},
     {"MV2_COMM_WORLD_SIZE"},
     {"MV2_COMM_WORLD_LOCAL_RANK"},
     {"MV2_COMM_WORLD_LOCAL_SIZE"}},
    {"HPE Cray PALS' mpiexec",
     {"PALS_RANKID"},
     {"PMI_SIZE"},
     {"PALS_LOCAL_RANKID", "PMI_LOCAL_RANK"},
     {"PMI_LOCAL_SIZE", "PALS_LOCAL_SIZE"}},
    {"Hydra's mpiexec (MPICH, Intel MPI) or Cray PMI",
     {"PMI_RANK"},
     {"PMI_SIZE"},
     {"MPI_LOCALRANKID", "PMI_LOCAL_RANK"},
     {"MPI_LOCALNRANKS", "PMI_LOCAL_SIZE"}},
    {"IBM LSF's jsrun",
     {"JSM_NAMESPACE_RANK"},
     {"JSM_NAMESPACE_SIZE"},
     {"JSM_NAMESPACE_LOCAL_RANK"},
     {"JSM_NAMESPACE_LOCAL_SIZE"}},
    {"Flux's flux run", {"FLUX_TASK_RANK"}, {"FLUX_JOB_SIZE"}, {"FLUX_TASK_LOCAL_ID"}, {NULL}},
    {"Slurm's srun", {"SLURM_PROCID"}, {"SLURM_NTASKS", "SLURM_NPROCS"}, {"SLURM_LOCALID"}, {NULL}},
};

static const char JOB_ARRAY[] = "a Slurm job array";

/* The value of variable `name` in env (NAME=VALUE strings up to a NULL; the first
 * wins, as getenv's), or in this process's environment when env is NULL; NULL: unset. */
static const char *lookup(const char *const *env, const char *name)
{
    if (!env)
        return getenv(name);
    size_t len = strlen(name);
    for (; *env; env++)
        if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
            return *env + len + 1;
    return NULL;
}

/* The first of the names set: its value, the name into *which (NULL, NULL: none set). */
static const char *first_set(const char *const *env, const char *const names[NAMES], const char **which)
{
    *which = NULL;
    for (int i = 0; i < NAMES && names[i]; i++) {
        const char *v = lookup(env, names[i]);
        if (v) {
            *which = names[i];
            return v;
        }
    }
    return NULL;
}

/* A launcher's number: decimal digits only, 0 to 2^31 - 1; -1 for anything else
 * (NULL, empty, a sign, spaces, too large). */
static long number(const char *text)
{
    if (!text || !*text)
        return -1;
    long n = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        n = n * 10 + (*c - '0');
        if (n > INT32_MAX)
            return -1;
    }
    return n;
}

/* A value from the environment as a message shows it: at most 20 bytes, control bytes
 * as '?', "unset" for NULL. */
static const char *shown(const char *text, char buf[32])
{
    if (!text)
        return "unset";
    size_t n = 0;
    for (; text[n] && n < 20; n++)
        buf[n] = (unsigned char)text[n] < 0x20 || text[n] == 0x7f ? '?' : text[n];
    snprintf(buf + n, 32 - n, "%s", text[n] ? "..." : "");
    return buf;
}

/* The local rank and count of launcher l in env into out (-1 where unset or not a
 * number; a count of 0 is none). */
static void local_of(const launcher_vars *l, const char *const *env, cutune_launcher *out)
{
    const char *which;
    out->local = (int)number(first_set(env, l->local, &which));
    long n = number(first_set(env, l->local_count, &which));
    out->local_count = n >= 1 ? (int)n : -1;
}

/* Where the search stands: the first launcher of one rank, and why the first launcher
 * whose variables are set could not give a shard. */
typedef struct found {
    cutune_launcher one; /* count 0: none of one rank */
    const char *bad;     /* the launcher of `why` (NULL: none) */
    char why[400];
} found;

/* A launcher of rank `rank` of `count` (checked) into f or *out. 1: it wins (more than
 * one rank). */
static int take(found *f, cutune_launcher *out, const cutune_launcher *got)
{
    if (got->count > 1) {
        *out = *got;
        return 1;
    }
    if (f->one.count == 0)
        f->one = *got;
    return 0;
}

/* The job array's shard: task MIN + k * STEP is shard k of COUNT. 1 when it wins. */
static int job_array(found *f, cutune_launcher *out, const char *const *env)
{
    const char *task_text = lookup(env, "SLURM_ARRAY_TASK_ID");
    if (!task_text)
        return 0;
    const char *min_text = lookup(env, "SLURM_ARRAY_TASK_MIN"), *count_text = lookup(env, "SLURM_ARRAY_TASK_COUNT");
    const char *step_text = lookup(env, "SLURM_ARRAY_TASK_STEP");
    long task = number(task_text), min = number(min_text), count = number(count_text);
    long step = step_text ? number(step_text) : 1;
    if (task >= min && min >= 0 && step >= 1 && count >= 1 && count <= CUTUNE_MAX_SHARDS && (task - min) % step == 0 &&
        (task - min) / step < count) {
        cutune_launcher got = {(int)((task - min) / step), (int)count, -1, -1, JOB_ARRAY, "SLURM_ARRAY_TASK_ID",
                               "SLURM_ARRAY_TASK_COUNT"};
        return take(f, out, &got);
    }
    if (!f->bad) {
        char a[32], b[32], c[32], d[32];
        f->bad = JOB_ARRAY;
        snprintf(f->why, sizeof f->why,
                 "%s: SLURM_ARRAY_TASK_ID=%s is not SLURM_ARRAY_TASK_MIN=%s plus a multiple of "
                 "SLURM_ARRAY_TASK_STEP=%s below SLURM_ARRAY_TASK_COUNT=%s (at most %d) times it "
                 "(an array of listed indices, --array=1,4,9, has no such shard: give --shard I/N)",
                 JOB_ARRAY, shown(task_text, a), shown(min_text, b), step_text ? shown(step_text, c) : "1",
                 shown(count_text, d), CUTUNE_MAX_SHARDS);
    }
    return 0;
}

/* The message that no launcher's rank is set: every rank variable looked for. */
static int none_found(void)
{
    char names[600] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0] && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s, ", launchers[i].rank[0]);
    return err_set(CUTUNE_EINVAL,
                   "no parallel launcher's rank in the environment (looked for %sand a Slurm job array's "
                   "SLURM_ARRAY_TASK_ID)",
                   names);
}

int cutune_launcher_find(cutune_launcher *out, const char *const *env)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_launcher_find: no cutune_launcher to fill");
    *out = (cutune_launcher){0, 0, -1, -1, NULL, NULL, NULL};
    found f = {{0, 0, -1, -1, NULL, NULL, NULL}, NULL, ""};
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        const launcher_vars *l = &launchers[i];
        const char *rank_var, *count_var;
        const char *rank_text = first_set(env, l->rank, &rank_var);
        if (!rank_text)
            continue;
        const char *count_text = first_set(env, l->count, &count_var);
        long rank = number(rank_text), count = number(count_text);
        if (rank >= 0 && count >= 1 && rank < count && count <= CUTUNE_MAX_SHARDS) {
            cutune_launcher got = {(int)rank, (int)count, -1, -1, l->name, rank_var, count_var};
            local_of(l, env, &got);
            if (take(&f, out, &got))
                return CUTUNE_OK;
        } else if (!f.bad) {
            char a[32], b[32];
            f.bad = l->name;
            snprintf(f.why, sizeof f.why, "%s: %s=%s and %s=%s are not a rank below a number of ranks (1 to %d)",
                     l->name, rank_var, shown(rank_text, a), count_var ? count_var : l->count[0], shown(count_text, b),
                     CUTUNE_MAX_SHARDS);
        }
    }
    if (job_array(&f, out, env))
        return CUTUNE_OK;
    if (f.one.count > 0) { /* one rank (an sbatch script's own step, mpirun -n 1): the whole space */
        *out = f.one;
        return CUTUNE_OK;
    }
    if (f.bad) {
        out->name = f.bad;
        return err_set(CUTUNE_EINVAL, "%s", f.why);
    }
    return none_found();
}

int cutune_launcher_parse(cutune_launcher *out, const char *text)
{
    if (!out || !text)
        return err_set(CUTUNE_EINVAL, "cutune_launcher_parse: no cutune_launcher to fill, or no text");
    if (strcmp(text, "auto") == 0)
        return cutune_launcher_find(out, NULL);
    const char *slash = strchr(text, '/');
    char index[24];
    long long i = -1, n = -1;
    if (slash && (size_t)(slash - text) < sizeof index) {
        memcpy(index, text, (size_t)(slash - text));
        index[slash - text] = '\0';
        if (!num_read_int(index, 0, CUTUNE_MAX_SHARDS - 1, &i) || !num_read_int(slash + 1, 1, CUTUNE_MAX_SHARDS, &n))
            n = -1;
    }
    if (n < 1 || i < 0 || i >= n)
        return err_set(CUTUNE_EINVAL, "shard takes I/N (0 <= I < N <= %d) or auto, not '%s'", CUTUNE_MAX_SHARDS, text);
    *out = (cutune_launcher){(int)i, (int)n, -1, -1, NULL, NULL, NULL};
    return CUTUNE_OK;
}
