/* compile.h - one variant through NVRTC to a cubin, with its static resources.
 *
 * Knows nothing of specs: a job is source text, a name expression and options. A
 * kernel that fails to compile is an outcome (ok = false, with the compiler's log),
 * not an error; an error is NVRTC itself failing (out of memory, a broken install). */
#ifndef CUTUNE_RUNTIME_COMPILE_H
#define CUTUNE_RUNTIME_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct compile_job {
    const char *source_name;     /* the kernel file's path: NVRTC's program name */
    const char *source;          /* its text, NUL-terminated */
    const char *name_expression; /* "sum_matrix", "reduce<256, float>" */
    const char *const *options;  /* -D macros, -I folders, other options (no --gpu-architecture) */
    int noptions;
    const char *arch; /* "sm_90" */
    /* In-memory headers (runtime/includes: every file the #include lines reach in the
     * user's folders, by canonical path, the source's #include lines renamed to match),
     * so that NVRTC opens none of the user's files itself. */
    const char *const *header_names;
    int nheaders;
    const char *const *header_texts; /* as many as header_names */
    int nheader_texts;
} compile_job;

/* What ptxas reports for the kernel (-Xptxas -v). */
typedef struct kernel_resources {
    int registers;                     /* per thread */
    int barriers;                      /* named barriers used */
    int64_t static_smem;               /* bytes of __shared__ declared in the code */
    int64_t stack_frame;               /* bytes of local memory per thread (spills and local arrays) */
    int64_t spill_stores, spill_loads; /* bytes */
} kernel_resources;

typedef struct compile_output {
    bool ok;            /* produced a cubin */
    char *log;          /* NVRTC's log ("" when empty) */
    char *lowered_name; /* the kernel's symbol in the cubin (NULL when !ok) */
    unsigned char *cubin;
    size_t cubin_size;
    bool has_resources;
    kernel_resources res;
    double seconds; /* compile wall time (of the original compile, for a cached one) */
    bool cached;    /* came from the cache */
} compile_output;

/* compile_run: compiles `job` into *out (heap storage, free with compile_output_free).
 * Returns 0 when NVRTC ran (out->ok says whether the kernel compiled), -1 when NVRTC
 * itself failed, with err_last set. */
int compile_run(const compile_job *job, compile_output *out);

/* The include folders NVRTC gets after a job's own options, as -I options (so a
 * spec's own folders, searched first, can bring their own copies):
 *   cccl     CUB, Thrust and libcu++: $CUTUNE_CCCL_INCLUDE when set (empty: none),
 *            else the toolkit's include/cccl when it holds cub/ (CUDA 13 keeps CCCL
 *            there; CUDA 12's lies in include itself)
 *   toolkit  cuda_fp16.h and the like: $CUDA_HOME/include when CUDA_HOME is set, else
 *            the include folder of the toolkit the loaded NVRTC library belongs to,
 *            else the one found at build time
 * options[0..noptions) point into the struct itself. */
enum { COMPILE_MAX_INCLUDES = 2 };
typedef struct compile_includes {
    char cccl[4112], toolkit[4112]; /* "-I" + a path */
    const char *options[COMPILE_MAX_INCLUDES];
    int noptions;
} compile_includes;

/* compile_default_includes: fills *out (see compile_includes); returns out->noptions.
 * Reads the environment and the file system on each call; never fails (a folder that
 * cannot be found is left out). */
int compile_default_includes(compile_includes *out);

/* compile_output_free: releases what compile_run or the cache put in *out; zeroes it. */
void compile_output_free(compile_output *out);

/* compile_parse_resources: reads ptxas's -v report in `log` for entry `symbol`. Returns
 * true when the report for that entry was found. */
bool compile_parse_resources(const char *log, const char *symbol, kernel_resources *out);

/* compile_nvrtc_version: NVRTC's version, e.g. 13.0 (0, or -1 with a message). */
int compile_nvrtc_version(int *major, int *minor);

/* compile_supported_arch: true when NVRTC can compile for arch "sm_XX". */
bool compile_supported_arch(const char *arch);

/* compile_log_excerpt: `log` without ptxas's informational lines (the report of
 * resources), i.e. only what a person needs to read: errors and warnings. Heap string
 * (caller frees), or NULL when out of memory. */
char *compile_log_excerpt(const char *log);

#endif
