/* test_devices.c - runtime/devices without a CUDA driver (this machine's case in CI):
 * the query runs in a child process, and why the driver did not answer crosses its pipe
 * whole, into the asking thread's error, every time it is asked (an unanswered query
 * is asked again). Skipped (77) where libcuda.so.1 exists: gpu/device-attrs covers it. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"
#include "last_err.h"
#include "runtime/devices.h"

static void without_driver(void **state)
{
    (void)state;
    devices *m = malloc(sizeof *m);
    assert_non_null(m);
    for (int round = 0; round < 2; round++) {
        err_clear();
        assert_int_equal(devices_query(m), CUTUNE_ENODEV);
        assert_false(m->answered);
        assert_non_null(err_last());
        assert_int_equal(err_last()->code, CUTUNE_ENODEV);
        /* drv_open's words, from the child, and dlopen's reason after them */
        if (strncmp(last_err(), "no CUDA driver on this machine (", 32) != 0 || !strstr(last_err(), "libcuda.so.1"))
            fail_msg("%s", last_err());
    }
    assert_null(devices_name(0));
    assert_null(devices_why(0));
    free(m);
}

int main(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        dlclose(lib);
        return 77; /* a driver is here: gpu/device-attrs covers it */
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(without_driver)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
