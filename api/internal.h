/* internal.h - what the API's files share; not part of the public interface. */
#ifndef CUTUNE_API_INTERNAL_H
#define CUTUNE_API_INTERNAL_H

#include "cutune.h"

#include <stdbool.h>

#include "../base/err.h"
#include "../base/strbuf.h"
#include "../compiler/plan.h"
#include "../compiler/spec.h"
#include "../lang/diag.h"
#include "../session/session.h"

/* ---- api/cutune_common.c: the options structs' versions ------------------------ */

/* api_options_version: CUTUNE_OK when `version` is `expected`, the version of the
 * options struct `type` ("cutune_tune_options") this library was built with; else
 * CUTUNE_EINVAL, the error object saying which struct, both versions, and how to
 * start from the defaults. */
int api_options_version(unsigned int version, unsigned int expected, const char *type);

/* api_options_ok: api_options_version of the options struct `opts` points to (every
 * one begins with its version); CUTUNE_OK for NULL (the calls that take NULL read it
 * as every default). */
int api_options_ok(const void *opts, unsigned int expected, const char *type);

/* ---- api/cutune_spec.c: the kernel blocks of a spec --------------------------------- */

/* api_spec_blocks: appends each kernel block of the ok spec, in order, as " NAME" (with
 * " (kernel K)" when the block's name is not its kernel's) separated by commas, as the
 * messages about --kernel list them; the block held stays held. */
void api_spec_blocks(strbuf *out, cutune_spec *spec);

/* ---- api/cutune_spec_device.c: the device attributes a spec reads --------------- */

/* api_device_values_for_arch: the assumed values of architecture `arch` (NULL: sm_90)
 * from runtime/occupancy's tables; 0, or -1 for an architecture they do not know. */
int api_device_values_for_arch(dev_values *out, const char *arch);

/* api_spec_recheck: makes the spec's model hold `dv`'s values. When the spec reads a
 * device attribute whose value differs, the spec is checked again with them (its model
 * replaced; errors, if any, added to its diagnostics: CUTUNE_ESPEC). CUTUNE_OK. */
int api_spec_recheck(cutune_spec *spec, const dev_values *dv);

/* api_spec_recheck_recorded: api_spec_recheck with the attributes a results file
 * recorded of its device; nothing when it recorded none (written before they were). */
int api_spec_recheck_recorded(cutune_spec *spec, const cutune_device *recorded);

/* ---- api/cutune_tables.c -------------------------------------------------------- */

#endif
