#!/usr/bin/env bash
# shard.sh CUTUNE SOURCE_DIR - sharding without a GPU: --shard I/N splits the space by
# listing ordinal (ordinal % N == I, the whole space's ordinals), so the shards of any N
# are disjoint and together the whole space; --shard auto reads the launcher's rank and
# size (Open MPI, MPICH, Slurm's srun, a Slurm job array); bad values are usage errors;
# tuning a shard without a GPU analyses that shard only. Under `mpirun -n 2` (when Open
# MPI is installed; CI installs it) two ranks take the two halves. Every launcher's
# variables (cutune_launcher_find: Open MPI, MVAPICH, PALS, Hydra's MPICH and Intel MPI,
# Cray PMI, jsrun, Flux, srun, job arrays) are faked and the shard taken checked.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
spec=$src/examples/sweep.tune
ordinals() { awk -F, 'FNR > 1 {print $1}' "$@" | sort -n; }

"$cutune" analyze "$spec" --format csv -q >"$tmp/all.csv"
ordinals "$tmp/all.csv" >"$tmp/all"
check "the whole space has 312 configurations" test "$(wc -l <"$tmp/all")" -eq 312
# Every launcher's variables cleared, so that a test run under a launcher is not misled.
launcher_vars="OMPI_COMM_WORLD_RANK MV2_COMM_WORLD_RANK PALS_RANKID PMI_RANK JSM_NAMESPACE_RANK FLUX_TASK_RANK
SLURM_PROCID SLURM_ARRAY_TASK_ID"
for v in $launcher_vars; do unset "$v"; done
# 104 runs of 3 (maxrreg's values): 3, 5, 7 and 13 shards leave uneven loads.
for n in 2 3 5 7 13; do
    : >"$tmp/union"
    ok=1
    for ((i = 0; i < n; i++)); do
        "$cutune" analyze "$spec" --shard "$i/$n" --format csv -q >"$tmp/s.csv" || ok=0
        ordinals "$tmp/s.csv" >"$tmp/s"
        awk -v n="$n" -v i="$i" 'int($1 / 3) % n != i {bad = 1} END {exit bad}' "$tmp/s" || ok=0
        cat "$tmp/s" >>"$tmp/union"
    done
    check "N=$n: every shard holds only ordinals / 3 % $n == its index" test $ok -eq 1
    sort -n "$tmp/union" >"$tmp/u"
    check "N=$n: the shards together are the whole space, each configuration once" cmp -s "$tmp/u" "$tmp/all"
done
# The same rows as the whole space's listing (a shard's variants are the same variants).
"$cutune" analyze "$spec" --shard 1/3 --format csv -q | awk -F, 'NR > 1 {print $1 "," $2 "," $3 "," $4 "," $5}' >"$tmp/s13"
awk -F, 'NR > 1 && int($1 / 3) % 3 == 1 {print $1 "," $2 "," $3 "," $4 "," $5}' "$tmp/all.csv" >"$tmp/w13"
check "a shard's rows are the whole listing's rows of its ordinals" cmp -s "$tmp/s13" "$tmp/w13"

# --shard auto: the launcher's environment.
OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=3 "$cutune" analyze "$spec" --shard auto --format csv -q >"$tmp/a.csv"
check "auto under Open MPI's variables: shard 2/3" bash -c '[ "$(awk -F, "NR > 1 && int(\$1 / 3) % 3 != 2" "$1" | wc -l)" -eq 0 ] && [ "$(wc -l <"$1")" -eq 103 ]' _ "$tmp/a.csv"
SLURM_PROCID=1 SLURM_NTASKS=2 "$cutune" analyze "$spec" --shard auto --format csv -q >"$tmp/b.csv"
check "auto under srun's variables: shard 1/2" bash -c '[ "$(awk -F, "NR > 1 && int(\$1 / 3) % 2 != 1" "$1" | wc -l)" -eq 0 ] && [ "$(wc -l <"$1")" -eq 157 ]' _ "$tmp/b.csv"
SLURM_ARRAY_TASK_ID=11 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=4 "$cutune" analyze "$spec" --shard auto --format csv -q >"$tmp/c.csv"
check "auto in a Slurm job array 10-13, task 11: shard 1/4" bash -c '[ "$(awk -F, "NR > 1 && int(\$1 / 3) % 4 != 1" "$1" | wc -l)" -eq 0 ] && [ "$(wc -l <"$1")" -eq 79 ]' _ "$tmp/c.csv"
"$cutune" analyze "$spec" --shard auto >/dev/null 2>"$tmp/err"
check "auto without a launcher: exit 2" test $? -eq 2
check "... naming the variables it looked for" grep -q "OMPI_COMM_WORLD_RANK.*SLURM_PROCID.*SLURM_ARRAY_TASK_ID" "$tmp/err"
check "... and --shard I/N" grep -q "give --shard I/N" "$tmp/err"

# Each launcher as it sets the environment: `cutune SPEC --shard auto` without a GPU says
# which shard it took and from whom, and analyses that shard's variants (312 / 104 runs
# of 3: a shard of N holds ceil or floor of 104 / N runs).
# took WHAT I N FROM RUNS VAR=VALUE...: the shard line and the shard's variant count.
took() {
    local what=$1 i=$2 n=$3 from=$4 runs=$5
    shift 5
    env "$@" CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --shard auto --results "$tmp/l.json" >/dev/null 2>"$tmp/err"
    check "$what: exit 4 (no GPU)" test $? -eq 4
    check "$what: shard $i of $n, from $from" grep -q "^shard $i of $n, from $from" "$tmp/err"
    check "$what: its $((runs * 3)) variants analysed" grep -q "^$((runs * 3)) variants for sm_90" "$tmp/err"
}
took "Open MPI" 3 8 "Open MPI's mpirun" 13 OMPI_COMM_WORLD_RANK=3 OMPI_COMM_WORLD_SIZE=8 OMPI_COMM_WORLD_LOCAL_RANK=1
took "MVAPICH" 1 2 "MVAPICH's mpirun_rsh" 52 MV2_COMM_WORLD_RANK=1 MV2_COMM_WORLD_SIZE=2
took "HPE Cray PALS" 4 6 "HPE Cray PALS' mpiexec" 17 PALS_RANKID=4 PALS_LOCAL_RANKID=0 PMI_RANK=4 PMI_SIZE=6 \
    PMI_LOCAL_RANK=0 PMI_LOCAL_SIZE=1
took "MPICH's Hydra" 2 3 "Hydra's mpiexec (MPICH, Intel MPI) or Cray PMI" 34 PMI_RANK=2 PMI_SIZE=3 MPI_LOCALRANKID=0 \
    MPI_LOCALNRANKS=1
took "Intel MPI" 0 5 "Hydra's mpiexec" 21 I_MPI_ROOT=/opt/intel PMI_RANK=0 PMI_SIZE=5 MPI_LOCALRANKID=0 MPI_LOCALNRANKS=1
took "Cray PMI (aprun)" 6 7 "Hydra's mpiexec (MPICH, Intel MPI) or Cray PMI" 14 ALPS_APP_PE=6 PMI_RANK=6 PMI_SIZE=7 \
    PMI_LOCAL_RANK=0
took "LSF's jsrun" 10 12 "IBM LSF's jsrun" 8 JSM_NAMESPACE_RANK=10 JSM_NAMESPACE_SIZE=12 JSM_NAMESPACE_LOCAL_RANK=0
took "Flux" 1 4 "Flux's flux run" 26 FLUX_TASK_RANK=1 FLUX_JOB_SIZE=4 FLUX_TASK_LOCAL_ID=1
took "srun" 3 4 "Slurm's srun" 26 SLURM_PROCID=3 SLURM_NTASKS=4 SLURM_LOCALID=1
took "a job array --array=1-7:2, task 5" 2 4 "a Slurm job array" 26 SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=1 \
    SLURM_ARRAY_TASK_STEP=2 SLURM_ARRAY_TASK_COUNT=4
took "an array task's batch script (its own step, one task)" 1 3 "a Slurm job array" 35 SLURM_PROCID=0 \
    SLURM_NTASKS=1 SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=3
took "mpirun in a Slurm allocation" 1 2 "Open MPI's mpirun" 52 SLURM_PROCID=0 SLURM_NTASKS=2 \
    OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2
# A launcher's variables that cannot be a shard: exit 2, the variables and values named.
PMI_RANK=4 PMI_SIZE=4 "$cutune" analyze "$spec" --shard auto >/dev/null 2>"$tmp/err"
check "a rank not below the size: exit 2" test $? -eq 2
check "... named with its values" grep -q "PMI_RANK=4 and PMI_SIZE=4 are not a rank below" "$tmp/err"
SLURM_ARRAY_TASK_ID=9 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 "$cutune" analyze "$spec" --shard auto \
    >/dev/null 2>"$tmp/err"
check "a job array of listed indices (--array=1,4,9): exit 2" test $? -eq 2
check "... said" grep -q "SLURM_ARRAY_TASK_ID=9 is not SLURM_ARRAY_TASK_MIN=1" "$tmp/err"
# Every shard of each launcher's split together: the whole space, each configuration once.
for n in 3 8; do
    : >"$tmp/union"
    for ((i = 0; i < n; i++)); do
        PMI_RANK=$i PMI_SIZE=$n "$cutune" analyze "$spec" --shard auto --format csv -q >"$tmp/s.csv"
        ordinals "$tmp/s.csv" >>"$tmp/union"
    done
    sort -n "$tmp/union" >"$tmp/u"
    check "PMI_RANK 0..$((n - 1)) of $n: the whole space, each configuration once" cmp -s "$tmp/u" "$tmp/all"
done
# A rank per host driving all its GPUs: more than one rank on the host is warned of.
CUDA_VISIBLE_DEVICES=-1 OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_LOCAL_RANK=1 \
    OMPI_COMM_WORLD_LOCAL_SIZE=2 "$cutune" "$spec" --shard auto --devices 0,1 --results "$tmp/l.json" >/dev/null 2>"$tmp/err"
check "two ranks on a host, each on --devices 0,1: warned" grep -q "warning: 2 ranks on this host each use 2 GPUs" "$tmp/err"
CUDA_VISIBLE_DEVICES=-1 OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_LOCAL_RANK=0 \
    OMPI_COMM_WORLD_LOCAL_SIZE=1 "$cutune" "$spec" --shard auto --devices 0,1 --results "$tmp/l.json" >/dev/null 2>"$tmp/err"
check "one rank on its host: no warning" bash -c '! grep -q warning "$1"' _ "$tmp/err"
for bad in 3/3 -1/2 1/0 x 1/ /2 1/2x; do
    "$cutune" analyze "$spec" --shard "$bad" >/dev/null 2>&1
    check "--shard $bad: exit 2" test $? -eq 2
done

# Tuning a shard: a results file is needed; --journal gets the shard in its name; without a
# GPU only the shard is analysed.
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$src/test/gpu/metrics_div.tune" --shard 0/2 >/dev/null 2>"$tmp/err"
check "tune --shard without a results file (none given, the spec emits none): exit 2" test $? -eq 2
check "... saying cutune merge joins the shards' files" grep -q "cutune merge joins" "$tmp/err"
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --shard 0/2 >/dev/null 2>"$tmp/err"
check "the spec's own emit results path, with the shard in its name" grep -q "sum_matrix_results.shard-0-of-2.json" "$tmp/err"
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --shard 0/2 --results "$tmp/r.json" --journal "$tmp/j" >/dev/null 2>"$tmp/err"
check "tune --shard with --journal: the shard's own journal, named as its results" \
    grep -q "journal $tmp/j.shard-0-of-2" "$tmp/err"
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --shard 1/2 --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
check "tune --shard 1/2 without a GPU: exit 4" test $? -eq 4
check "... says where the shard's results would go" grep -q "shard 1 of 2.*r.shard-1-of-2.json" "$tmp/err"
check "... and analysed the shard's 156 variants" grep -q "^156 variants for sm_90" "$tmp/err"

# --devices: a shard per GPU; without one, said plainly; a bad list is a usage error.
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --devices all --results "$tmp/r.json" -q >/dev/null 2>"$tmp/err"
check "--devices all without a GPU: exit 4" test $? -eq 4
"$cutune" "$spec" --devices 0,x --results "$tmp/r.json" -q >/dev/null 2>&1
check "--devices 0,x: exit 2" test $? -eq 2
"$cutune" "$spec" --devices 0, --results "$tmp/r.json" -q >/dev/null 2>&1
check "--devices 0,: exit 2" test $? -eq 2

"$cutune" "$spec" --per-device --results "$tmp/r.json" -q >/dev/null 2>&1
check "--per-device without --devices: exit 2" test $? -eq 2
"$cutune" "$spec" --device 0 --devices 0,1 --results "$tmp/r.json" -q >/dev/null 2>"$tmp/err"
check "--device with --devices: exit 2" test $? -eq 2
check "--device with --devices: says so" grep -q "give one of them" "$tmp/err"
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --devices all --per-device --results "$tmp/r.json" -q >/dev/null 2>&1
check "--devices all --per-device without a GPU: exit 4" test $? -eq 4

if command -v mpirun >/dev/null 2>&1; then
    mpirun --allow-run-as-root --oversubscribe -n 2 sh -c \
        "\"$cutune\" analyze \"$spec\" --shard auto --format csv -q >\"$tmp/mpi.\$OMPI_COMM_WORLD_RANK.csv\"" \
        >"$tmp/mpi.out" 2>&1
    check "mpirun -n 2: both ranks ran" test $? -eq 0 -a -s "$tmp/mpi.0.csv" -a -s "$tmp/mpi.1.csv"
    ordinals "$tmp/mpi.0.csv" "$tmp/mpi.1.csv" >"$tmp/mpi"
    check "mpirun -n 2: the two ranks' shards are the whole space, each configuration once" cmp -s "$tmp/mpi" "$tmp/all"
    check "mpirun -n 2: rank 1 took the odd runs of 3" bash -c '! awk -F, "NR > 1 && int(\$1 / 3) % 2 != 1" "$1" | grep -q .' _ "$tmp/mpi.1.csv"
    # A rank per host on all its GPUs (--shard auto --devices): accepted under the
    # launcher, each rank its own shard and journal; without a GPU each analyses its shard.
    CUDA_VISIBLE_DEVICES=-1 mpirun --allow-run-as-root --oversubscribe -x CUDA_VISIBLE_DEVICES -n 2 \
        "$cutune" "$spec" --shard auto --devices 0,1 --results "$tmp/host.json" --journal "$tmp/local.journal" \
        >"$tmp/host.out" 2>&1
    check "mpirun -n 2 --shard auto --devices 0,1 without a GPU: exit 4 (no GPU)" test $? -eq 4
    check "... rank 0 took shard 0 on 2 GPUs, its own journal" \
        grep -q "shard 0 of 2, from Open MPI's mpirun (2 GPUs): results to $tmp/host.shard-0-of-2.json, journal $tmp/local.journal.shard-0-of-2" "$tmp/host.out"
    check "... rank 1 took shard 1" grep -q "shard 1 of 2, from Open MPI's mpirun (2 GPUs)" "$tmp/host.out"
else
    echo "SKIP (part): no mpirun here (openmpi-bin, a tests package: ./bootstrap --test)"
fi
finish
