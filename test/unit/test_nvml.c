/* test_nvml.c - runtime/nvml without NVML (this machine's case in CI): opening it fails
 * with a message that names the library, leaves nothing open, and closing NULL is safe.
 * Skipped (77) where libnvidia-ml.so.1 exists: there gpu/energy tests the real thing. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "last_err.h"
#include "runtime/nvml.h"

static void without_nvml(void **state)
{
    (void)state;
    nvml *p = (nvml *)1;
    assert_int_equal(nvml_open(&p, "0000:00:00.0"), -1);
    assert_null(p);
    assert_non_null(strstr(last_err(), "NVML is not available"));
    assert_non_null(strstr(last_err(), "libnvidia-ml.so.1"));
    nvml_close(NULL);
}

int main(void)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
        dlclose(lib);
        return 77; /* NVML is here: gpu/energy covers it */
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(without_nvml)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
