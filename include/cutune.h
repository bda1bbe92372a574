/* cutune.h - the public C API of cutune, a CUDA kernel autotuner.
 *
 * Everything the `cutune` command does goes through this header. It includes the
 * API's parts, one header per module in include/cutune/ (common, spec, space, device,
 * analyze, tune, results, emit, simulate, import, launcher, help); each also compiles alone. Conventions
 * (after libgit2): objects are opaque; a function that hands something back through a
 * pointer takes that pointer first (`int cutune_x(out, args...)`; a buffer as `buf, size`
 * first), constructors included (`cutune_x_new(&out, ...)`), and destructors
 * `cutune_x_free(x)` accept NULL; functions that can fail return an
 * int status (CUTUNE_OK or a negative cutune_status); the library never prints and
 * never exits. Problems with a spec are recorded as diagnostics on the spec object
 * (file:line:col, source excerpt, message) and can be rendered as text.
 *
 * Thread safety: different cutune_spec objects may be used from different threads at
 * once; one object must not be used from two threads at the same time. */
#ifndef CUTUNE_H
#define CUTUNE_H

#include "cutune/common.h"
#include "cutune/spec.h"
#include "cutune/space.h"
#include "cutune/device.h"
#include "cutune/analyze.h"
#include "cutune/tune.h"
#include "cutune/results.h"
#include "cutune/emit.h"
#include "cutune/simulate.h"
#include "cutune/import.h"
#include "cutune/launcher.h"
#include "cutune/help.h"

#endif
