/* test_devmemo.c - runtime/devmemo: the machine's key read from a stand-in /proc, the
 * answer kept and read back, and every way a memo file is refused (another key, a
 * value out of range, a control character, a field added or missing, a torn file, a
 * folder in its place), so that a memo is used only for the machine it describes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "base/strbuf.h"
#include "runtime/devmemo.h"
#include "scratch.h"

/* Writes `text` to tmpdir/rel, making its folders. */
static void put(const char *rel, const char *text)
{
    char path[512], cmd[700];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The key of the stand-in /proc under tmpdir/proc, as a heap string (NULL: none). */
static char *key_now(void)
{
    char proc[256];
    snprintf(proc, sizeof proc, "%s/proc", tmpdir);
    strbuf sb = STRBUF_INIT;
    if (devmemo_key(proc, &sb) < 0) {
        sb_free(&sb);
        return NULL;
    }
    return sb_steal(&sb);
}

/* A machine of two GPUs in the stand-in /proc. */
static void two_gpus(void)
{
    put("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05\n");
    put("proc/driver/nvidia/gpus/0000:18:00.0/information", "Model: NVIDIA H100 80GB HBM3\nGPU UUID: GPU-aaaa\n");
    put("proc/driver/nvidia/gpus/0000:2a:00.0/information", "Model: NVIDIA H100 80GB HBM3\nGPU UUID: GPU-bbbb\n");
    put("proc/driver/nvidia/capabilities/mig/config", "");
}

static void key_names_the_machine(void **state)
{
    (void)state;
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CUDA_DEVICE_ORDER");
    assert_null(key_now()); /* no driver version: no key */
    put("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05\n");
    assert_null(key_now()); /* a driver but no GPU's information (a container): no key */
    two_gpus();
    char *k0 = key_now();
    assert_non_null(k0);
    char *again = key_now();
    assert_string_equal(k0, again); /* the same machine, the same key */
    free(again);
    char *changed[4];
    put("proc/driver/nvidia/gpus/0000:2a:00.0/information", "Model: NVIDIA H200\nGPU UUID: GPU-cccc\n");
    changed[0] = key_now(); /* another GPU in a slot */
    put("proc/driver/nvidia/capabilities/gpu0/mig/gi1/ci0/access", "");
    changed[1] = key_now(); /* a MIG instance made */
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    changed[2] = key_now(); /* another device shown */
    setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
    changed[3] = key_now(); /* another order */
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("CUDA_DEVICE_ORDER");
    const char *all[5] = {k0, changed[0], changed[1], changed[2], changed[3]};
    for (int i = 0; i < 5; i++) {
        assert_non_null(all[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(all[i], all[j]) == 0)
                fail_msg("keys %d and %d are the same", i, j);
    }
    char *a = devmemo_path("/x", k0), *b = devmemo_path("/x", changed[0]);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(strncmp(a, "/x/devices-", 11), 0);
    assert_string_not_equal(a, b); /* a memo file per machine (a home shared by nodes) */
    free(a);
    free(b);
    free(k0);
    for (int i = 0; i < 4; i++)
        free(changed[i]);
}

/* An answer of two devices as the driver would give it. */
static void answer_of_two(devices *m)
{
    memset(m, 0, sizeof *m);
    m->answered = true;
    m->count = 2;
    m->driver_version = 13000;
    for (int i = 0; i < 2; i++) {
        drv_device *d = &m->d[i].raw;
        m->d[i].ok = true;
        snprintf(d->name, sizeof d->name, "%s", i ? "NVIDIA H200" : "NVIDIA H100 80GB HBM3");
        d->cc = 90;
        d->sm_count = 132;
        d->l2_bytes = 52428800;
        d->lim = (occ_limits){32, 1024, 2048, 32, 65536, 65536, 233472, 49152, 232448, 1024};
    }
}

static void kept_and_read_back(void **state)
{
    (void)state;
    devices m, back;
    answer_of_two(&m);
    char path[256];
    snprintf(path, sizeof path, "%s/new/cache/devices-1.json", tmpdir); /* folders made */
    assert_int_equal(devmemo_save(path, "key one", &m), 0);
    assert_int_equal(devmemo_load(path, "key one", &back), 0);
    assert_true(back.answered);
    assert_int_equal(back.count, 2);
    assert_int_equal(back.driver_version, 13000);
    for (int i = 0; i < 2; i++) {
        assert_true(back.d[i].ok);
        assert_true(devmemo_same_device(&back.d[i].raw, &m.d[i].raw));
        assert_int_equal(back.d[i].raw.lim.smem_per_block_optin, 232448);
    }
    assert_int_equal(devmemo_load(path, "key two", &back), -1); /* another machine's */
    assert_false(back.answered);
    assert_int_equal(back.count, 0);
    m.d[1].ok = false; /* a device the driver did not read: nothing kept */
    assert_int_equal(devmemo_save(path, "key three", &m), -1);
    m.d[1].ok = true;
    m.answered = false;
    assert_int_equal(devmemo_save(path, "key three", &m), -1);
    assert_int_equal(devmemo_load(path, "key three", &back), -1);
}

/* Writes `text` as the memo at tmpdir/bad.json and asserts it is refused under "k". */
static void refused(const char *text)
{
    put("bad.json", text);
    char path[256];
    snprintf(path, sizeof path, "%s/bad.json", tmpdir);
    devices back;
    if (devmemo_load(path, "k", &back) != -1)
        fail_msg("accepted: %s", text);
    assert_false(back.answered);
}

#define DEV_FIELDS \
    "\"cc\":90,\"sm_count\":132,\"l2_bytes\":52428800,\"lim.warp_size\":32,\"lim.max_threads_per_block\":1024," \
    "\"lim.max_threads_per_sm\":2048,\"lim.max_blocks_per_sm\":32,\"lim.regs_per_sm\":65536," \
    "\"lim.regs_per_block\":65536,\"lim.smem_per_sm\":233472,\"lim.smem_per_block\":49152," \
    "\"lim.smem_per_block_optin\":232448,\"lim.smem_reserved_per_block\":1024"

static void tampered_files_are_misses(void **state)
{
    (void)state;
    const char *good =
        "{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"G\"," DEV_FIELDS
        "}]}";
    put("good.json", good);
    char path[256];
    snprintf(path, sizeof path, "%s/good.json", tmpdir);
    devices back;
    assert_int_equal(devmemo_load(path, "k", &back), 0); /* the hand-written file is read */
    assert_int_equal(back.count, 1);
    assert_int_equal(back.d[0].raw.lim.regs_per_sm, 65536);
    refused("");
    refused(
        "{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"G\"," DEV_FIELDS);
    refused("{\"cutune_device_memo\":2,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"G\"," DEV_FIELDS
            "}]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":"
            "\"G\\u0001\"," DEV_FIELDS "}]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"\"," DEV_FIELDS
            "}]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"G\",\"x\":"
            "1," DEV_FIELDS "}]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"G\","
            "\"cc\":90,\"sm_count\":-132}]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"devices\":[{\"name\":\"G\"," DEV_FIELDS
            ",\"cc\":91}]}"); /* a field twice */
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":0,\"devices\":[{\"name\":\"G\"," DEV_FIELDS
            "}]}");
    refused("{\"cutune_device_memo\":1,\"key\":\"k\",\"driver_version\":13000,\"extra\":0,\"devices\":[{\"name\":"
            "\"G\"," DEV_FIELDS "}]}");
    char folder[256]; /* a folder where the file should be */
    snprintf(folder, sizeof folder, "%s/adir.json", tmpdir);
    assert_int_equal(mkdir(folder, 0700), 0);
    assert_int_equal(devmemo_load(folder, "k", &back), -1);
}

static void each_field_tells_devices_apart(void **state)
{
    (void)state;
    devices m;
    answer_of_two(&m);
    drv_device a = m.d[0].raw, b = a;
    assert_true(devmemo_same_device(&a, &b));
    int *fields[] = {&b.cc,
                     &b.sm_count,
                     &b.l2_bytes,
                     &b.lim.warp_size,
                     &b.lim.max_threads_per_block,
                     &b.lim.max_threads_per_sm,
                     &b.lim.max_blocks_per_sm,
                     &b.lim.regs_per_sm,
                     &b.lim.regs_per_block,
                     &b.lim.smem_per_sm,
                     &b.lim.smem_per_block,
                     &b.lim.smem_per_block_optin,
                     &b.lim.smem_reserved_per_block};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        (*fields[i])++;
        if (devmemo_same_device(&a, &b))
            fail_msg("field %zu changed, devices still the same", i);
        (*fields[i])--;
    }
    b.name[0] = 'X';
    assert_false(devmemo_same_device(&a, &b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(key_names_the_machine, setup, teardown),
        cmocka_unit_test_setup_teardown(kept_and_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(tampered_files_are_misses, setup, teardown),
        cmocka_unit_test(each_field_tells_devices_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
