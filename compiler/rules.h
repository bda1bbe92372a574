/* rules.h - rules that span statements, checked on the built model (prefix rules_).
 *
 * Part of the checker (compiler/sema.c calls it last): two params routed to one macro,
 * a base option that defines a param's macro, a verified output whose size depends on
 * params, a reference kernel given arguments that depend on params. Reports to the
 * diag_list; prints nothing. */
#ifndef CUTUNE_COMPILER_RULES_H
#define CUTUNE_COMPILER_RULES_H

#include "model.h"

/* rules_check: reports every violation in `m` (checked from `spec`) to dl. Reads only;
 * parts of the model that failed to check (VT_ERROR) are skipped. */
void rules_check(const model *m, const ast_spec *spec, diag_list *dl);

#endif
