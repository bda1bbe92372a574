/* header_strict.c - a public header must compile alone, cleanly, under a strict,
 * pedantic C11 build (built, not run: a warning fails the build). test/CMakeLists.txt
 * builds this file once per header, naming it in CUTUNE_HEADER ("cutune.h",
 * "cutune/spec.h", ...): a part that leans on another without including it fails. */
#ifndef CUTUNE_HEADER
#define CUTUNE_HEADER "cutune.h"
#endif
#include CUTUNE_HEADER

int cutune_header_strict_check(void);

int cutune_header_strict_check(void)
{
    return CUTUNE_OK;
}
