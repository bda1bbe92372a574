/* cutune_common.c - cutune/common.h: the version, the status codes' text, the thread's
 * last error, cutune_free, a file written (base/sys.h's writer, or standard output), and
 * the options structs' versions and defaults ("Options").
 *
 * Every cutune_*_options struct carries the version of the layout its caller was built
 * with. Its _init function fills it from the CUTUNE_*_OPTIONS_INIT initialiser, so the
 * macro and the function cannot disagree; the calls that take options refuse another
 * version through api_options_version before reading a field: a struct a caller
 * zero-filled (version 0) would otherwise run with zero where a default is not zero
 * (cutune_tune_options.flush_l2 = 0 turns L2 flushing off). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "internal.h"

const char *cutune_version(void)
{
    return CUTUNE_VERSION;
}

int cutune_write_file(const char *path, const char *text)
{
    if (!path || !text)
        return err_set(CUTUNE_EINVAL, "cutune_write_file: no path or text");
    if (strcmp(path, "-") != 0)
        return sys_write_text(path, text) == 0
                   ? CUTUNE_OK
                   : err_set(CUTUNE_EIO, "cannot write '%s': %s", path, sys_strerror(errno));
    if (fputs(text, stdout) >= 0 && fflush(stdout) == 0 && !ferror(stdout))
        return CUTUNE_OK;
    return err_set(CUTUNE_EIO, "cannot write to standard output: %s", sys_strerror(errno));
}

const char *cutune_status_text(int status)
{
    switch (status) {
    case CUTUNE_OK: return "ok";
    case CUTUNE_ESPEC: return "the spec has errors";
    case CUTUNE_EIO: return "input/output error";
    case CUTUNE_ENOMEM: return "out of memory";
    case CUTUNE_EINVAL: return "invalid argument";
    case CUTUNE_EEVAL: return "an expression failed to evaluate";
    case CUTUNE_ENODEV: return "no usable GPU";
    case CUTUNE_ECOMPILER: return "the compiler (NVRTC) failed";
    case CUTUNE_ESTOPPED: return "stopped";
    default: return "unknown status";
    }
}

const cutune_error *cutune_error_last(void)
{
    static _Thread_local cutune_error pub;
    const err_info *e = err_last();
    if (!e)
        return NULL;
    pub.code = e->code;
    pub.message = e->message;
    return &pub;
}

const char *cutune_last_error(void)
{
    const err_info *e = err_last();
    return e ? e->message : "";
}

void cutune_free(void *p)
{
    free(p);
}

int api_options_version(unsigned int version, unsigned int expected, const char *type)
{
    if (version == expected)
        return CUTUNE_OK;
    char init[64]; /* "cutune_tune_options" -> "CUTUNE_TUNE_OPTIONS_INIT" */
    size_t k = 0;
    for (; type[k] && k < sizeof init - 6; k++)
        init[k] = (char)toupper((unsigned char)type[k]);
    snprintf(init + k, sizeof init - k, "_INIT");
    return err_set(CUTUNE_EINVAL, "%s of version %u, and this library's is %u%s: start from %s or %s_init", type,
                   version, expected, version == 0 ? " (a zero-filled struct? zero is not every field's default)" : "",
                   init, type);
}

int api_options_ok(const void *opts, unsigned int expected, const char *type)
{
    return opts ? api_options_version(*(const unsigned int *)opts, expected, type) : CUTUNE_OK;
}

/* Each _init: opts from the initialiser when `version` is the one this library knows;
 * else CUTUNE_EINVAL (opts untouched). `type` is a type name and INIT a braced
 * initialiser, which no parentheses may enclose. */
/* NOLINTBEGIN(bugprone-macro-parentheses) */
#define OPTIONS_INIT(type, VERSION, INIT) \
    int type##_init(type *opts, unsigned int version) \
    { \
        if (!opts) \
            return err_set(CUTUNE_EINVAL, "%s_init: no options (NULL)", #type); \
        int rc = api_options_version(version, VERSION, #type); \
        if (rc < 0) \
            return rc; \
        *opts = (type)INIT; \
        return CUTUNE_OK; \
    }
/* NOLINTEND(bugprone-macro-parentheses) */

OPTIONS_INIT(cutune_load_options, CUTUNE_LOAD_OPTIONS_VERSION, CUTUNE_LOAD_OPTIONS_INIT)
OPTIONS_INIT(cutune_analyze_options, CUTUNE_ANALYZE_OPTIONS_VERSION, CUTUNE_ANALYZE_OPTIONS_INIT)
OPTIONS_INIT(cutune_search_options, CUTUNE_SEARCH_OPTIONS_VERSION, CUTUNE_SEARCH_OPTIONS_INIT)
OPTIONS_INIT(cutune_tune_options, CUTUNE_TUNE_OPTIONS_VERSION, CUTUNE_TUNE_OPTIONS_INIT)
OPTIONS_INIT(cutune_header_options, CUTUNE_HEADER_OPTIONS_VERSION, CUTUNE_HEADER_OPTIONS_INIT)
OPTIONS_INIT(cutune_headers_options, CUTUNE_HEADERS_OPTIONS_VERSION, CUTUNE_HEADERS_OPTIONS_INIT)
OPTIONS_INIT(cutune_report_options, CUTUNE_REPORT_OPTIONS_VERSION, CUTUNE_REPORT_OPTIONS_INIT)
OPTIONS_INIT(cutune_simulate_options, CUTUNE_SIMULATE_OPTIONS_VERSION, CUTUNE_SIMULATE_OPTIONS_INIT)
OPTIONS_INIT(cutune_blocks_options, CUTUNE_BLOCKS_OPTIONS_VERSION, CUTUNE_BLOCKS_OPTIONS_INIT)
OPTIONS_INIT(cutune_per_device_options, CUTUNE_PER_DEVICE_OPTIONS_VERSION, CUTUNE_PER_DEVICE_OPTIONS_INIT)
OPTIONS_INIT(cutune_import_options, CUTUNE_IMPORT_OPTIONS_VERSION, CUTUNE_IMPORT_OPTIONS_INIT)
