/* test_launcher.c - cutune_launcher_find: the shard a parallel launcher gives this
 * process, from environments written as each launcher sets them (Open MPI, MVAPICH,
 * HPE Cray PALS, MPICH's and Intel MPI's Hydra, Cray PMI, LSF's jsrun, Flux, Slurm's
 * srun, Slurm job arrays), launchers inside other launchers' jobs, and variables that
 * cannot be a shard (refused, named); and `--shard`'s text, I/N or auto
 * (cutune_launcher_parse). The expected shards are read off the variables by hand, not
 * computed by the code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

/* The launcher env gives; fails the test unless it is shard index of count with the
 * local rank and count, from rank_var and count_var, by a launcher whose name holds
 * `who`. */
static void expect(const char *const *env, int index, int count, int local, int local_count, const char *rank_var,
                   const char *count_var, const char *who)
{
    cutune_launcher l;
    int rc = cutune_launcher_find(&l, env);
    if (rc != CUTUNE_OK)
        fail_msg("cutune_launcher_find: %d: %s", rc, cutune_last_error());
    assert_int_equal(l.index, index);
    assert_int_equal(l.count, count);
    assert_int_equal(l.local, local);
    assert_int_equal(l.local_count, local_count);
    assert_string_equal(l.rank_variable, rank_var);
    assert_string_equal(l.count_variable, count_var);
    assert_non_null(l.name);
    if (!strstr(l.name, who))
        fail_msg("launcher '%s', expected one named '%s'", l.name, who);
}

/* Fails unless env gives no shard: CUTUNE_EINVAL, count 0, the launcher `who` named
 * (NULL: none found) and every piece of `says` (up to a NULL) in the message. */
static void refused(const char *const *env, const char *who, const char *const *says)
{
    cutune_launcher l;
    assert_int_equal(cutune_launcher_find(&l, env), CUTUNE_EINVAL);
    assert_int_equal(l.count, 0);
    if (who) {
        assert_non_null(l.name);
        assert_non_null(strstr(l.name, who));
    } else {
        assert_null(l.name);
    }
    for (; *says; says++)
        if (!strstr(cutune_last_error(), *says))
            fail_msg("'%s' not in '%s'", *says, cutune_last_error());
}

static void test_each_launcher(void **state)
{
    (void)state;
    /* Open MPI's mpirun -n 8 --map-by ppr:4:node: rank 6 is the third on the second host */
    const char *ompi[] = {"PATH=/usr/bin",
                          "OMPI_COMM_WORLD_RANK=6",
                          "OMPI_COMM_WORLD_SIZE=8",
                          "OMPI_COMM_WORLD_LOCAL_RANK=2",
                          "OMPI_COMM_WORLD_LOCAL_SIZE=4",
                          "OMPI_COMM_WORLD_NODE_RANK=2",
                          "PMIX_RANK=6",
                          NULL};
    expect(ompi, 6, 8, 2, 4, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI");
    const char *mv2[] = {"MV2_COMM_WORLD_RANK=1", "MV2_COMM_WORLD_SIZE=2", "MV2_COMM_WORLD_LOCAL_RANK=0",
                         "MV2_COMM_WORLD_LOCAL_SIZE=1", NULL};
    expect(mv2, 1, 2, 0, 1, "MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE", "MVAPICH");
    /* PALS (mpiexec -n 6 --ppn 2 on Polaris, Aurora): its own rank and Cray PMI's size */
    const char *pals[] = {"PALS_APID=4711",
                          "PALS_RANKID=5",
                          "PALS_NODEID=2",
                          "PALS_LOCAL_RANKID=1",
                          "PALS_DEPTH=1",
                          "PMI_RANK=5",
                          "PMI_SIZE=6",
                          "PMI_LOCAL_RANK=1",
                          "PMI_LOCAL_SIZE=2",
                          "PMI_UNIVERSE_SIZE=6",
                          NULL};
    expect(pals, 5, 6, 1, 2, "PALS_RANKID", "PMI_SIZE", "PALS");
    /* MPICH's Hydra mpiexec -n 4 -ppn 2 */
    const char *hydra[] = {"PMI_RANK=3", "PMI_SIZE=4", "PMI_FD=7", "MPI_LOCALRANKID=1", "MPI_LOCALNRANKS=2", NULL};
    expect(hydra, 3, 4, 1, 2, "PMI_RANK", "PMI_SIZE", "MPICH");
    /* Intel MPI's mpiexec.hydra -n 16 -ppn 8 */
    const char *impi[] = {"I_MPI_ROOT=/opt/intel/mpi", "I_MPI_HYDRA_TOPOLIB=hwloc", "PMI_RANK=9", "PMI_SIZE=16",
                          "MPI_LOCALRANKID=1",         "MPI_LOCALNRANKS=8",         NULL};
    expect(impi, 9, 16, 1, 8, "PMI_RANK", "PMI_SIZE", "Intel MPI");
    /* Cray PMI without PALS (aprun, Slurm's cray plugin): PMI_LOCAL_* for the local rank */
    const char *cray[] = {"ALPS_APP_PE=2", "PMI_RANK=2", "PMI_SIZE=3", "PMI_LOCAL_RANK=0", "PMI_LOCAL_SIZE=1", NULL};
    expect(cray, 2, 3, 0, 1, "PMI_RANK", "PMI_SIZE", "Cray PMI");
    const char *jsrun[] = {"JSM_NAMESPACE_RANK=11", "JSM_NAMESPACE_SIZE=12", "JSM_NAMESPACE_LOCAL_RANK=5",
                           "JSM_NAMESPACE_LOCAL_SIZE=6", NULL};
    expect(jsrun, 11, 12, 5, 6, "JSM_NAMESPACE_RANK", "JSM_NAMESPACE_SIZE", "jsrun");
    const char *flux[] = {"FLUX_TASK_RANK=3", "FLUX_JOB_SIZE=4", "FLUX_TASK_LOCAL_ID=1", "FLUX_JOB_NNODES=2", NULL};
    expect(flux, 3, 4, 1, -1, "FLUX_TASK_RANK", "FLUX_JOB_SIZE", "Flux");
    /* srun -n 4 --ntasks-per-node=2 */
    const char *srun[] = {"SLURM_JOB_ID=99", "SLURM_PROCID=2", "SLURM_NTASKS=4",
                          "SLURM_LOCALID=0", "SLURM_NODEID=1", NULL};
    expect(srun, 2, 4, 0, -1, "SLURM_PROCID", "SLURM_NTASKS", "srun");
    /* an older Slurm: SLURM_NPROCS only */
    const char *nprocs[] = {"SLURM_PROCID=1", "SLURM_NPROCS=2", NULL};
    expect(nprocs, 1, 2, -1, -1, "SLURM_PROCID", "SLURM_NPROCS", "srun");
}

static void test_job_arrays(void **state)
{
    (void)state;
    /* --array=0-15: task 5 takes shard 5 of 16; no local rank (a job per task) */
    const char *plain[] = {"SLURM_ARRAY_JOB_ID=7",
                           "SLURM_ARRAY_TASK_ID=5",
                           "SLURM_ARRAY_TASK_MIN=0",
                           "SLURM_ARRAY_TASK_MAX=15",
                           "SLURM_ARRAY_TASK_COUNT=16",
                           "SLURM_ARRAY_TASK_STEP=1",
                           NULL};
    expect(plain, 5, 16, -1, -1, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "job array");
    /* --array=10-13: task 11 is the second */
    const char *from10[] = {"SLURM_ARRAY_TASK_ID=11", "SLURM_ARRAY_TASK_MIN=10", "SLURM_ARRAY_TASK_COUNT=4", NULL};
    expect(from10, 1, 4, -1, -1, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "job array");
    /* --array=1-7:2 (1, 3, 5, 7): task 7 is the fourth */
    const char *step[] = {"SLURM_ARRAY_TASK_ID=7",   "SLURM_ARRAY_TASK_MIN=1",   "SLURM_ARRAY_TASK_MAX=7",
                          "SLURM_ARRAY_TASK_STEP=2", "SLURM_ARRAY_TASK_COUNT=4", NULL};
    expect(step, 3, 4, -1, -1, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "job array");
    /* the batch script of an array task runs as one task of its own (SLURM_PROCID 0 of
     * 1): the array, not that one task, says the shard */
    const char *batch[] = {"SLURM_PROCID=0",          "SLURM_NTASKS=1",
                           "SLURM_LOCALID=0",         "SLURM_ARRAY_TASK_ID=2",
                           "SLURM_ARRAY_TASK_MIN=0",  "SLURM_ARRAY_TASK_COUNT=3",
                           "SLURM_ARRAY_TASK_STEP=1", NULL};
    expect(batch, 2, 3, -1, -1, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "job array");
    /* srun -n 4 inside an array task: the ranks split the space */
    const char *ranks[] = {"SLURM_PROCID=3",         "SLURM_NTASKS=4",           "SLURM_ARRAY_TASK_ID=2",
                           "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=3", NULL};
    expect(ranks, 3, 4, -1, -1, "SLURM_PROCID", "SLURM_NTASKS", "srun");
    /* --array=1,4,9 (a list: no MIN + k * STEP for 9 below 3 tasks): refused */
    const char *list[] = {"SLURM_ARRAY_TASK_ID=9", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_STEP=1",
                          "SLURM_ARRAY_TASK_COUNT=3", NULL};
    const char *list_says[] = {"SLURM_ARRAY_TASK_ID=9", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3",
                               "--shard I/N", NULL};
    refused(list, "job array", list_says);
    /* a task below MIN, a missing COUNT, a step of 0 */
    const char *below[] = {"SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=3", NULL};
    const char *nocount[] = {"SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_MIN=0", NULL};
    const char *step0[] = {"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_STEP=0",
                           "SLURM_ARRAY_TASK_COUNT=3", NULL};
    const char *array_says[] = {"job array", NULL};
    refused(below, "job array", array_says);
    const char *nocount_says[] = {"SLURM_ARRAY_TASK_COUNT=unset", NULL};
    refused(nocount, "job array", nocount_says);
    refused(step0, "job array", array_says);
}

static void test_launchers_inside_others(void **state)
{
    (void)state;
    /* mpirun -n 4 in an sbatch script: the batch step's SLURM_PROCID 0 of 1 (or of the
     * allocation's task count) is inherited; Open MPI's ranks are the shards */
    const char *mpirun_in_slurm[] = {"SLURM_PROCID=0",         "SLURM_NTASKS=4",         "SLURM_LOCALID=0",
                                     "OMPI_COMM_WORLD_RANK=2", "OMPI_COMM_WORLD_SIZE=4", NULL};
    expect(mpirun_in_slurm, 2, 4, -1, -1, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI");
    /* srun --mpi=pmi2 sets PMI's variables beside its own; they agree */
    const char *pmi2[] = {"SLURM_PROCID=1", "SLURM_NTASKS=2", "SLURM_LOCALID=1", "PMI_RANK=1", "PMI_SIZE=2", NULL};
    expect(pmi2, 1, 2, -1, -1, "PMI_RANK", "PMI_SIZE", "PMI");
    /* Slurm's cray_shasta plugin: PALS' variables and Slurm's */
    const char *shasta[] = {"SLURM_PROCID=3",      "SLURM_NTASKS=8",
                            "PALS_RANKID=3",       "PALS_NODEID=0",
                            "PMI_RANK=3",          "PMI_SIZE=8",
                            "PALS_LOCAL_RANKID=3", "PMI_LOCAL_RANK=3",
                            "PMI_LOCAL_SIZE=4",    NULL};
    expect(shasta, 3, 8, 3, 4, "PALS_RANKID", "PMI_SIZE", "PALS");
    /* a launcher of one rank (mpirun -n 1): the whole space */
    const char *one[] = {"OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=1", "OMPI_COMM_WORLD_LOCAL_RANK=0", NULL};
    expect(one, 0, 1, 0, -1, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI");
    /* ... but a later launcher of several ranks is the split (mpirun -n 1 inside srun -n 3) */
    const char *one_in_srun[] = {"OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=1", "SLURM_PROCID=2", "SLURM_NTASKS=3",
                                 NULL};
    expect(one_in_srun, 2, 3, -1, -1, "SLURM_PROCID", "SLURM_NTASKS", "srun");
    /* a launcher whose variables cannot be a shard gives way to one whose can */
    const char *stale[] = {"PALS_RANKID=4", "SLURM_PROCID=1", "SLURM_NTASKS=2", NULL};
    expect(stale, 1, 2, -1, -1, "SLURM_PROCID", "SLURM_NTASKS", "srun");
    /* the first NAME= wins, as getenv's */
    const char *twice[] = {"PMI_RANK=1", "PMI_SIZE=3", "PMI_RANK=2", NULL};
    expect(twice, 1, 3, -1, -1, "PMI_RANK", "PMI_SIZE", "PMI");
    /* a prefix of a name is not the name */
    const char *prefix[] = {"PMI_RANKX=1", "PMI_RANK_=1", "XPMI_RANK=1", "PMI_SIZE=3", NULL};
    const char *none_says[] = {"no parallel launcher", NULL};
    refused(prefix, NULL, none_says);
}

static void test_variables_that_are_no_shard(void **state)
{
    (void)state;
    const char *none[] = {"PATH=/usr/bin", "HOME=/root", NULL};
    const char *none_says[] =
        {"OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK", "PALS_RANKID",         "PMI_RANK", "JSM_NAMESPACE_RANK",
         "FLUX_TASK_RANK",       "SLURM_PROCID",        "SLURM_ARRAY_TASK_ID", NULL};
    refused(none, NULL, none_says);
    const char *empty[] = {NULL};
    refused(empty, NULL, none_says);
    /* a rank not below the size; each malformed number */
    const char *above[] = {"OMPI_COMM_WORLD_RANK=4", "OMPI_COMM_WORLD_SIZE=4", NULL};
    const char *above_says[] = {"OMPI_COMM_WORLD_RANK=4", "OMPI_COMM_WORLD_SIZE=4", NULL};
    refused(above, "Open MPI", above_says);
    static const char *const bad_numbers[] = {"",    "-1",         "+1",
                                              " 1",  "1 ",         "1x",
                                              "0x1", "2147483648", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad_numbers / sizeof bad_numbers[0]; i++) {
        char rank[64], size[64];
        snprintf(rank, sizeof rank, "PMI_RANK=%s", bad_numbers[i]);
        snprintf(size, sizeof size, "PMI_SIZE=%s", bad_numbers[i]);
        const char *bad_rank[] = {rank, "PMI_SIZE=4", NULL};
        const char *bad_size[] = {"PMI_RANK=0", size, NULL};
        const char *says[] = {"PMI_RANK=", "PMI_SIZE=", NULL};
        refused(bad_rank, "PMI", says);
        refused(bad_size, "PMI", says);
    }
    /* a size of 0, above CUTUNE_MAX_SHARDS; the largest allowed */
    const char *zero[] = {"SLURM_PROCID=0", "SLURM_NTASKS=0", NULL};
    const char *zero_says[] = {"SLURM_NTASKS=0", NULL};
    refused(zero, "srun", zero_says);
    const char *huge[] = {"SLURM_PROCID=0", "SLURM_NTASKS=65537", NULL};
    const char *huge_says[] = {"SLURM_NTASKS=65537", "65536", NULL};
    refused(huge, "srun", huge_says);
    const char *largest[] = {"SLURM_PROCID=65535", "SLURM_NTASKS=65536", NULL};
    expect(largest, 65535, 65536, -1, -1, "SLURM_PROCID", "SLURM_NTASKS", "srun");
    /* a rank without its size: the size's variable named as unset */
    const char *nosize[] = {"PALS_RANKID=1", NULL};
    const char *nosize_says[] = {"PALS_RANKID=1", "PMI_SIZE=unset", NULL};
    refused(nosize, "PALS", nosize_says);
    /* the first launcher that cannot be a shard is the one named */
    const char *two_bad[] = {"OMPI_COMM_WORLD_RANK=x", "SLURM_PROCID=9", "SLURM_NTASKS=2", NULL};
    const char *two_bad_says[] = {"OMPI_COMM_WORLD_RANK=x", NULL};
    refused(two_bad, "Open MPI", two_bad_says);
    /* values are shown cut short, control bytes replaced */
    const char *hostile[] = {"PMI_RANK=\x1b[31m1", "PMI_SIZE=123456789012345678901234567890", NULL};
    const char *hostile_says[] = {"PMI_RANK=?[31m1", "PMI_SIZE=12345678901234567890...", NULL};
    refused(hostile, "PMI", hostile_says);
    assert_null(strchr(cutune_last_error(), '\x1b'));
    /* a bad local rank or count is none */
    const char *bad_local[] = {"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "OMPI_COMM_WORLD_LOCAL_RANK=-1",
                               "OMPI_COMM_WORLD_LOCAL_SIZE=0", NULL};
    expect(bad_local, 1, 2, -1, -1, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI");
    assert_int_equal(cutune_launcher_find(NULL, none), CUTUNE_EINVAL);
}

/* env NULL: this process's own environment. */
static void test_process_environment(void **state)
{
    (void)state;
    static const char *const all[] = {
        "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK", "PALS_RANKID",  "PMI_RANK",
        "JSM_NAMESPACE_RANK",   "FLUX_TASK_RANK",      "SLURM_PROCID", "SLURM_ARRAY_TASK_ID",
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        unsetenv(all[i]);
    cutune_launcher l;
    assert_int_equal(cutune_launcher_find(&l, NULL), CUTUNE_EINVAL);
    assert_null(l.name);
    setenv("JSM_NAMESPACE_RANK", "2", 1);
    setenv("JSM_NAMESPACE_SIZE", "5", 1);
    setenv("JSM_NAMESPACE_LOCAL_RANK", "0", 1);
    assert_int_equal(cutune_launcher_find(&l, NULL), CUTUNE_OK);
    assert_int_equal(l.index, 2);
    assert_int_equal(l.count, 5);
    assert_int_equal(l.local, 0);
    unsetenv("JSM_NAMESPACE_RANK");
    unsetenv("JSM_NAMESPACE_SIZE");
    unsetenv("JSM_NAMESPACE_LOCAL_RANK");
}

/* "I/N": index below count, count from 1 to 65536, digits only; refused, *out unchanged
 * and the text quoted. "auto": the environment's launcher. */
static void test_parse(void **state)
{
    (void)state;
    cutune_launcher l;
    assert_int_equal(cutune_launcher_parse(&l, "3/4"), CUTUNE_OK);
    assert_int_equal(l.index, 3);
    assert_int_equal(l.count, 4);
    assert_int_equal(l.local, -1);
    assert_int_equal(l.local_count, -1);
    assert_null(l.name);
    assert_int_equal(cutune_launcher_parse(&l, "65535/65536"), CUTUNE_OK);
    assert_int_equal(l.count, 65536);
    static const char *const bad[] = {"4/4", "0/0", "0/65537", "-1/2", "1/", "/2", "1 /2", "1/2x", "12", "", "x/y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[128];
        snprintf(want, sizeof want, "shard takes I/N (0 <= I < N <= 65536) or auto, not '%s'", bad[i]);
        assert_int_equal(cutune_launcher_parse(&l, bad[i]), CUTUNE_EINVAL);
        assert_string_equal(cutune_last_error(), want);
        assert_int_equal(l.count, 65536); /* unchanged */
    }
    unsetenv("OMPI_COMM_WORLD_RANK");
    setenv("SLURM_PROCID", "1", 1);
    setenv("SLURM_NTASKS", "3", 1);
    assert_int_equal(cutune_launcher_parse(&l, "auto"), CUTUNE_OK);
    assert_int_equal(l.index, 1);
    assert_int_equal(l.count, 3);
    assert_non_null(l.name);
    unsetenv("SLURM_PROCID");
    unsetenv("SLURM_NTASKS");
    assert_int_equal(cutune_launcher_parse(&l, NULL), CUTUNE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_launcher),           cmocka_unit_test(test_job_arrays),
        cmocka_unit_test(test_launchers_inside_others), cmocka_unit_test(test_variables_that_are_no_shard),
        cmocka_unit_test(test_process_environment),     cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
