/* two_b.c - see two_a.c. */
#include <stdio.h>

#include "multi.h"

int two_a(void);

int main(void)
{
    int a = two_a(), b = (int)SCALE_lookup("NVIDIA H200", 90)->params.block_x;
    printf("%d %d\n", a, b);
    return !(a == 128 && b == 128);
}
