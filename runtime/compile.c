/* compile.c - NVRTC compilation and ptxas resource reports (see compile.h). */
#define _GNU_SOURCE /* dladdr */
#include "compile.h"

#include <dlfcn.h>
#include <limits.h>
#include <nvrtc.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../base/err.h"
#include "../base/sys.h"
#include "../base/utf8.h"

static int nvrtc_fail(nvrtcResult r, const char *what)
{
    err_set(-1, "NVRTC %s failed: %s", what, nvrtcGetErrorString(r));
    return -1;
}

void compile_output_free(compile_output *out)
{
    free(out->log);
    free(out->lowered_name);
    free(out->cubin);
    memset(out, 0, sizeof *out);
}

/* Writes "-I" + `dir` into `buf` when `dir`/`probe` exists. True when written. */
static bool include_option(char *buf, size_t size, const char *dir, const char *probe)
{
    char path[PATH_MAX + 64];
    struct stat st;
    int n = snprintf(path, sizeof path, "%s/%s", dir, probe);
    if (n < 0 || (size_t)n >= sizeof path || stat(path, &st) != 0)
        return false;
    n = snprintf(buf, size, "-I%s", dir);
    return n > 0 && (size_t)n < size;
}

/* The include folder of the toolkit the loaded NVRTC library belongs to: the folder
 * `include` beside the library's folder (lib, lib64, targets/<arch>/lib), when it
 * holds nvrtc.h. False when there is none. */
static bool nvrtc_toolkit_include(char *buf, size_t size)
{
    Dl_info info;
    if (!dladdr((void *)nvrtcVersion, &info) || !info.dli_fname)
        return false;
    char *lib = sys_canonical_path(info.dli_fname);
    if (!lib)
        return false;
    char *slash = strrchr(lib, '/');
    bool found = false;
    if (slash) {
        strcpy(slash, "/../include"); /* fits: "/libnvrtc.so*" is longer */
        char *dir = sys_canonical_path(lib);
        found = dir && include_option(buf, size, dir, "nvrtc.h");
        free(dir);
    }
    free(lib);
    return found;
}

int compile_default_includes(compile_includes *out)
{
    memset(out, 0, sizeof *out);
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        int n = snprintf(out->toolkit, sizeof out->toolkit, "-I%s/include", home);
        if (n < 0 || (size_t)n >= sizeof out->toolkit)
            out->toolkit[0] = '\0';
    } else if (!nvrtc_toolkit_include(out->toolkit, sizeof out->toolkit)) {
#ifdef CUTUNE_CUDA_INCLUDE
        snprintf(out->toolkit, sizeof out->toolkit, "-I%s", CUTUNE_CUDA_INCLUDE);
#endif
    }
    const char *cccl = getenv("CUTUNE_CCCL_INCLUDE");
    if (cccl) { /* set: that folder, as given; empty: none */
        int n = *cccl ? snprintf(out->cccl, sizeof out->cccl, "-I%s", cccl) : 0;
        if (n < 0 || (size_t)n >= sizeof out->cccl)
            out->cccl[0] = '\0';
    } else if (out->toolkit[0]) {
        char dir[sizeof out->toolkit + 8];
        snprintf(dir, sizeof dir, "%s/cccl", out->toolkit + 2);
        (void)include_option(out->cccl, sizeof out->cccl, dir, "cub");
    }
    int n = 0;
    if (out->cccl[0])
        out->options[n++] = out->cccl;
    if (out->toolkit[0])
        out->options[n++] = out->toolkit;
    out->noptions = n;
    return n;
}

/* True when `line` (up to its newline) is part of ptxas's -v report: informational,
 * printed for every kernel that compiles. */
static bool report_line(const char *line)
{
    return strncmp(line, "ptxas info", 10) == 0 || strncmp(line, "ptxas         .", 15) == 0;
}

/* True when `log` holds a line that is not ptxas's report (blank lines aside): what a
 * person reading a failure needs. */
static bool log_has_message(const char *log)
{
    for (const char *p = log; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p + 1) : strlen(p);
        if (!report_line(p) && strspn(p, " \t\r\n") < len)
            return true;
        p += len;
    }
    return false;
}

/* Compiles `job` once more without `--ptxas-options=-v` and returns NVRTC's log (heap,
 * caller frees; NULL when NVRTC or memory failed). With -v, NVRTC's log for a kernel
 * that ptxas refuses (too much shared data, say) holds only the report, not the error;
 * without it, the error is there. Only a failed compile pays for this. */
static char *quiet_log(const compile_job *job, const char *const *opts, int nopts)
{
    const char **kept = malloc(sizeof(char *) * (size_t)(nopts ? nopts : 1));
    if (!kept)
        return NULL;
    int n = 0;
    for (int i = 0; i < nopts; i++)
        if (strcmp(opts[i], "--ptxas-options=-v") != 0)
            kept[n++] = opts[i];
    char *log = NULL;
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, job->source, job->source_name, job->nheaders, job->header_texts, job->header_names) !=
        NVRTC_SUCCESS) {
        free(kept);
        return NULL;
    }
    size_t size = 0;
    if (nvrtcAddNameExpression(prog, job->name_expression) == NVRTC_SUCCESS) {
        (void)nvrtcCompileProgram(prog, n, kept);
        if (nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && (log = malloc(size + 1))) {
            log[0] = '\0';
            if (size && nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
                log[0] = '\0';
            log[size] = '\0';
        }
    }
    nvrtcDestroyProgram(&prog);
    free(kept);
    return log;
}

/* Appends `text` (and a newline where it lacks one) to the heap string *log. False
 * when out of memory (*log unchanged). */
static bool log_append(char **log, const char *text)
{
    size_t n = strlen(*log), m = strlen(text);
    bool sep = n && (*log)[n - 1] != '\n';
    bool nl = !m || text[m - 1] != '\n';
    char *grown = realloc(*log, n + sep + m + nl + 1);
    if (!grown)
        return false;
    *log = grown;
    snprintf(grown + n, sep + m + nl + 1, "%s%s%s", sep ? "\n" : "", text, nl ? "\n" : "");
    return true;
}

int compile_run(const compile_job *job, compile_output *out)
{
    memset(out, 0, sizeof *out);
    double t0 = sys_seconds();
    if (job->nheaders != job->nheader_texts) {
        err_set(-1, "%d in-memory header names but %d texts", job->nheaders, job->nheader_texts);
        return -1;
    }
    nvrtcProgram prog;
    nvrtcResult r =
        nvrtcCreateProgram(&prog, job->source, job->source_name, job->nheaders, job->header_texts, job->header_names);
    if (r != NVRTC_SUCCESS)
        return nvrtc_fail(r, "create program");
    int rc = -1;
    compile_includes includes;
    compile_default_includes(&includes);
    const char **opts = malloc(sizeof(char *) * (size_t)(job->noptions + 3 + COMPILE_MAX_INCLUDES));
    char arch_opt[64];
    if (!opts) {
        err_set(-1, "out of memory");
        goto done;
    }
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", job->arch);
    opts[0] = arch_opt;
    opts[1] = "--ptxas-options=-v"; /* the resource report, read back below */
    int nopts = 2;
    /* NVRTC 12.9+ keeps its own cache, and a compile it serves from there carries no
     * ptxas report: the resources would be lost. cutune caches binaries itself. */
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS && (major > 12 || (major == 12 && minor >= 9)))
        opts[nopts++] = "--no-cache";
    for (int i = 0; i < job->noptions; i++)
        opts[nopts++] = job->options[i];
    for (int i = 0; i < includes.noptions; i++)
        opts[nopts++] = includes.options[i]; /* last: the spec's own folders come first */
    if ((r = nvrtcAddNameExpression(prog, job->name_expression)) != NVRTC_SUCCESS) {
        rc = nvrtc_fail(r, "add name expression");
        goto done;
    }
    nvrtcResult compiled = nvrtcCompileProgram(prog, nopts, opts);
    size_t log_size = 0;
    if ((r = nvrtcGetProgramLogSize(prog, &log_size)) != NVRTC_SUCCESS) {
        rc = nvrtc_fail(r, "get log size");
        goto done;
    }
    out->log = malloc(log_size + 1);
    if (!out->log) {
        err_set(-1, "out of memory");
        goto done;
    }
    out->log[0] = '\0';
    if (log_size && (r = nvrtcGetProgramLog(prog, out->log)) != NVRTC_SUCCESS) {
        rc = nvrtc_fail(r, "get log");
        goto done;
    }
    out->log[log_size] = '\0';
    if (compiled == NVRTC_ERROR_COMPILATION && !log_has_message(out->log)) {
        /* Only the resource report: the error is in the log of a compile without it. */
        char *quiet = quiet_log(job, opts, nopts);
        const char *why =
            quiet && log_has_message(quiet) ? quiet : "nvrtc: NVRTC_ERROR_COMPILATION (the compiler gave no message)";
        bool appended = log_append(&out->log, why);
        free(quiet);
        if (!appended) {
            err_set(-1, "out of memory");
            goto done;
        }
    }
    /* The log quotes the source (an #error's text, a bad line): bytes that are not
     * UTF-8 would make every JSON writer drop the log, so they become U+FFFD here. */
    if (utf8_check(out->log, strlen(out->log)) != strlen(out->log)) {
        char *clean = utf8_sanitize(out->log);
        if (!clean) {
            rc = -1;
            err_set(-1, "out of memory");
            goto done;
        }
        free(out->log);
        out->log = clean;
    }
    if (compiled == NVRTC_ERROR_COMPILATION || compiled == NVRTC_ERROR_INVALID_OPTION ||
        compiled == NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID) {
        /* The kernel (or its options) is at fault: an outcome, with the log. */
        if (compiled != NVRTC_ERROR_COMPILATION) {
            char line[128];
            snprintf(line, sizeof line, "nvrtc: %s", nvrtcGetErrorString(compiled));
            (void)log_append(&out->log, line); /* out of memory: the log without it */
        }
        out->ok = false;
        out->seconds = sys_seconds() - t0;
        rc = 0;
        goto done;
    }
    if (compiled != NVRTC_SUCCESS) {
        rc = nvrtc_fail(compiled, "compile");
        goto done;
    }
    const char *lowered;
    if ((r = nvrtcGetLoweredName(prog, job->name_expression, &lowered)) != NVRTC_SUCCESS) {
        rc = nvrtc_fail(r, "get lowered name");
        goto done;
    }
    out->lowered_name = strdup(lowered);
    if ((r = nvrtcGetCUBINSize(prog, &out->cubin_size)) != NVRTC_SUCCESS) {
        rc = nvrtc_fail(r, "get cubin size");
        goto done;
    }
    out->cubin = malloc(out->cubin_size ? out->cubin_size : 1);
    if (!out->cubin || !out->lowered_name) {
        err_set(-1, "out of memory");
        goto done;
    }
    if ((r = nvrtcGetCUBIN(prog, (char *)out->cubin)) != NVRTC_SUCCESS) {
        rc = nvrtc_fail(r, "get cubin");
        goto done;
    }
    out->has_resources = compile_parse_resources(out->log, out->lowered_name, &out->res);
    out->ok = true;
    out->seconds = sys_seconds() - t0;
    rc = 0;
done:
    free(opts);
    nvrtcResult destroyed = nvrtcDestroyProgram(&prog);
    if (rc == 0 && destroyed != NVRTC_SUCCESS)
        rc = nvrtc_fail(destroyed, "destroy program");
    if (rc < 0)
        compile_output_free(out);
    return rc;
}

/* Reads the integer just before `suffix` on a line, e.g. "Used 32 registers". */
static bool number_before(const char *line, const char *line_end, const char *suffix, int64_t *out)
{
    size_t n = strlen(suffix);
    for (const char *p = line; p + n <= line_end; p++) {
        if (strncmp(p, suffix, n) != 0)
            continue;
        const char *q = p;
        while (q > line && q[-1] == ' ')
            q--;
        const char *digits_end = q;
        while (q > line && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q == digits_end)
            continue;
        *out = strtoll(q, NULL, 10);
        return true;
    }
    return false;
}

bool compile_parse_resources(const char *log, const char *symbol, kernel_resources *out)
{
    memset(out, 0, sizeof *out);
    if (!log || !symbol)
        return false;
    /* ptxas info    : Compiling entry function 'SYMBOL' for 'sm_90'
     * ptxas info    : Function properties for SYMBOL
     * ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
     * ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem */
    char header[512];
    snprintf(header, sizeof header, "Compiling entry function '%s'", symbol);
    const char *p = strstr(log, header);
    if (!p)
        return false;
    p = strchr(p, '\n');
    bool found_used = false;
    while (p && *++p) {
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        if (strstr(p, "Compiling entry function") && strstr(p, "Compiling entry function") < end)
            break; /* the next kernel's report */
        int64_t v;
        if (number_before(p, end, " bytes stack frame", &v)) {
            out->stack_frame = v;
            if (number_before(p, end, " bytes spill stores", &v))
                out->spill_stores = v;
            if (number_before(p, end, " bytes spill loads", &v))
                out->spill_loads = v;
        }
        if (number_before(p, end, " registers", &v)) {
            out->registers = (int)v;
            found_used = true;
            if (number_before(p, end, " barriers", &v))
                out->barriers = (int)v;
            if (number_before(p, end, " bytes smem", &v))
                out->static_smem = v;
        }
        p = *end ? end : NULL;
    }
    return found_used;
}

int compile_nvrtc_version(int *major, int *minor)
{
    nvrtcResult r = nvrtcVersion(major, minor);
    return r == NVRTC_SUCCESS ? 0 : nvrtc_fail(r, "version");
}

bool compile_supported_arch(const char *arch)
{
    if (strncmp(arch, "sm_", 3) != 0)
        return false;
    int want = atoi(arch + 3);
    int n = 0;
    if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0)
        return false;
    int *list = malloc(sizeof(int) * (size_t)n);
    bool found = false;
    if (list && nvrtcGetSupportedArchs(list) == NVRTC_SUCCESS)
        for (int i = 0; i < n; i++)
            found |= list[i] == want;
    free(list);
    return found;
}

char *compile_log_excerpt(const char *log)
{
    size_t n = log ? strlen(log) : 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (const char *p = log; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p + 1) : strlen(p);
        if (!report_line(p)) {
            memcpy(out + k, p, len);
            k += len;
        }
        p += len;
    }
    out[k] = '\0';
    return out;
}
