/* unused.c - includes the header and uses nothing of it: must compile without a warning. */
#include "header.h"

int unused_header_tu(void);

int unused_header_tu(void)
{
    return 0;
}
