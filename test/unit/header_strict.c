/* header_strict.c - the public header must compile cleanly under a strict, pedantic
 * C11 build (built, not run: a warning fails the build). */
#include "cutune.h"

int cutune_header_strict_check(void);

int cutune_header_strict_check(void)
{
    return CUTUNE_OK + (int)sizeof(cutune_variant);
}
