/* scratch.h - a scratch folder for a unit test file: `tmpdir`, made by setup (a cmocka
 * setup, per group or per test) under /tmp and removed with all it holds by teardown.
 * Include it in one test file only once; it defines static functions. */
#ifndef CUTUNE_TEST_SCRATCH_H
#define CUTUNE_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

static char tmpdir[64];

/* setup: a fresh folder /tmp/cutune-unit-XXXXXX into tmpdir; 0, or -1 when none could be made. */
static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cutune-unit-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

/* teardown: removes tmpdir and everything in it; 0, or -1 when that failed. */
static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
