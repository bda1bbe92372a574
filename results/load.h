/* load.h - a results file read back (docs/results-format.md, "Reading results back":
 * what is checked before it is trusted). */
#ifndef CUTUNE_RESULTS_LOAD_H
#define CUTUNE_RESULTS_LOAD_H

#include <stddef.h>

#include "result.h"

/* results_load: reads the results file at `path`. Returns CUTUNE_OK with *out (the
 * caller owns it: result_destroy), or CUTUNE_EIO / CUTUNE_ENOMEM with *out NULL and
 * the message, naming the path, in err. */
int results_load(cutune_tune_result **out, const char *path, char *err, size_t errsize);

#endif
