/* rules.h - rules that span statements, checked on the built model (prefix rules_).
 *
 * Part of the checker (compiler/sema.c calls it last): two params routed to one macro,
 * a base option that defines a param's macro, a macro (a param's, a let's, or one a
 * param's `-D` option defines) named like a C or C++ keyword or `defined`, a verified
 * output whose size depends on
 * params, a reference kernel given arguments that depend on params, an emit path that
 * leaves the spec's folder (a warning: it is written only where the command line
 * allows). Reports to the
 * diag_list; prints nothing. */
#ifndef CUTUNE_COMPILER_RULES_H
#define CUTUNE_COMPILER_RULES_H

#include "model.h"

/* rules_path_leaves: whether an emit statement's path, as written, leaves the spec's
 * folder: an absolute path, or one whose ".." climbs above where it starts (read as
 * written: a symbolic link inside the folder is not followed). */
bool rules_path_leaves(const char *path);

/* rules_check: reports every violation in `m` (checked from `spec`) to dl. Reads only;
 * parts of the model that failed to check (VT_ERROR) are skipped. */
void rules_check(const model *m, const ast_spec *spec, diag_list *dl);

#endif
