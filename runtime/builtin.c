/* builtin.c - compiling (through the cache) and loading cutune's own kernels (see
 * builtin.h). */
#include "builtin.h"
#include "../base/err.h"
#include "../base/sys.h"

#include <stdio.h>
#include <stdlib.h>

#include "cached.h"

const char *builtin_elem(data_type t)
{
    static const char *const names[] = {"__half",      "__nv_bfloat16", "float",     "double",
                                        "signed char", "unsigned char", "short",     "unsigned short",
                                        "int",         "unsigned int",  "long long", "unsigned long long"};
    return names[t];
}

compile_job builtin_job(const char *name, const char *source, const char *symbol, const char *const *opts, int nopts,
                        const char *arch)
{
    return (compile_job){.source_name = name,
                         .source = source,
                         .name_expression = symbol,
                         .options = opts,
                         .noptions = nopts,
                         .arch = arch};
}

int builtin_load(meas_gpu *g, char *source, const compile_job *job, const char *cache_dir, meas_kernel *out)
{
    if (!source) {
        err_set(-1, "out of memory");
        return -1;
    }
    compile_output co;
    double t = sys_seconds();
    int compiled = cache_compile(cache_dir, job, &co);
    meas_add_compile_seconds(g, sys_seconds() - t); /* NVRTC's share of the set-up (the phases) */
    free(source);                                   /* the cache and NVRTC have read it */
    if (compiled < 0)
        return -1;
    if (!co.ok) {
        err_set(-1, "cutune's kernel %s does not compile: %s", job->name_expression, co.log);
        compile_output_free(&co);
        return -1;
    }
    meas_launch l = {{1, 1, 1}, {256, 1, 1}, 0, NULL};
    int rc = meas_load(g, co.cubin, co.lowered_name, &l, out);
    compile_output_free(&co);
    return rc < 0 ? -1 : 0;
}
