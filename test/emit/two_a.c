/* two_a.c, two_b.c - the header included in two translation units linked together (and
 * twice in one): no duplicate symbols, no unused warnings. */
#include "multi.h"
#include "multi.h"

int two_a(void);

int two_a(void)
{
    return (int)SCALE_lookup("NVIDIA H200", 90)->params.block_x;
}
