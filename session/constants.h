/* constants.h - `__constant__` data a kernel declares and the spec's constant arguments
 * compared, without a GPU (`cutune check`). On a GPU a `__constant__` variable that no
 * argument fills stays zero, silently; an argument whose symbol is not declared fails
 * every variant. Found by scanning the text of the kernel file and of every file its
 * #include lines reach in the user's folders (runtime/cmem.h says what the scan sees). */
#ifndef CUTUNE_SESSION_CONSTANTS_H
#define CUTUNE_SESSION_CONSTANTS_H

#include "../compiler/spec.h"

/* constants_check: adds a warning on the spec for each `__constant__` variable the
 * selected kernel block's source declares that no `arg NAME : constant ...` fills, and
 * for each constant argument whose name no `__constant__` declaration has. Returns how
 * many warnings it added; CUTUNE_ENOMEM. A file that cannot be read adds nothing
 * (loading the spec already checked the kernel file; the compile reports the rest). */
int constants_check(cutune_spec *spec);

#endif
