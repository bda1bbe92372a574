/* emit_results.h - shared by the unit tests of the emitters: a stored results file of
 * test/emit/ loaded, the test failing (with the loader's reason) when it does not load. */
#ifndef CUTUNE_TEST_EMIT_RESULTS_H
#define CUTUNE_TEST_EMIT_RESULTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "cutune.h"

/* load: test/emit/NAME as a result the caller frees (cutune_tune_result_free). */
static inline cutune_tune_result *load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/test/emit/%s", CUTUNE_SOURCE_DIR, name);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s: %s", name, cutune_last_error());
    return r;
}

#endif
