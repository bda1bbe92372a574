/* pin.h - a space restricted to configurations given from outside (prefix pin_): the
 * command line's `--config NAME=VALUE[,NAME=VALUE...]`, or the C API's
 * cutune_spec_restrict.
 *
 * A configuration is text, "BLOCK=128,UNROLL=4": each NAME a param of the model, each
 * VALUE one of that param's values (read as the param's type: an int in decimal or 0x
 * hex, '_' allowed between digits; a float; true or false; a string as written). A
 * configuration may name only some params: the others stay free (it pins those it
 * names). Several configurations are a union: the space holds every configuration that
 * one of them allows and the spec's own constraints allow.
 *
 * The restriction becomes constraints of the model (m_require with `pin` set, after the
 * spec's own), so that everything which reads a model's space (counting, listing,
 * analysing, every search, replay) sees the restricted one, and the params' domains,
 * and with them every configuration's key and the reference configuration, stay as
 * they were. */
#ifndef CUTUNE_COMPILER_PIN_H
#define CUTUNE_COMPILER_PIN_H

#include "model.h"

/* pin_apply: restricts model `m` to configs[0 .. n) (n >= 1) as above, once: a model
 * already restricted is left as it is (returns 0). Each configuration is checked before
 * anything changes: a name that is not a param (with the likely one), a param named
 * twice, a value that is not one of the param's, and a configuration that the spec's
 * constraints exclude (for a whole one, the require it breaks; for a partial one, that
 * no configuration with those values is valid) are each an error naming the
 * configuration. Returns 0; -1 with *why (a message in m's arena, naming the
 * configuration as given) and m unchanged; -2 when out of memory. */
int pin_apply(model *m, const char *const *configs, int n, const char **why);

#endif
