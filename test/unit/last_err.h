/* last_err.h - the unit tests' view of the calling thread's error (base/err.h): its
 * message, or "" when none is set, so that a test can quote it in any case. */
#ifndef CUTUNE_TEST_LAST_ERR_H
#define CUTUNE_TEST_LAST_ERR_H

#include "base/err.h"

static inline const char *last_err(void)
{
    const err_info *e = err_last();
    return e ? e->message : "";
}

#endif
