/* devices.c - the device query (devices.h): the driver asked in a child process, its
 * answer kept once per process.
 *
 * Two processes: devices_query and what it calls run in the caller's; query_body and
 * ask_driver run in the forked child (ask_driver also in the caller when no child can
 * be started). */
#include "devices.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../base/err.h"
#include "../base/strbuf.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "cache.h"         /* the folder the memo lives in */
#include "cutune/common.h" /* the status codes */
#include "devmemo.h"
#include "worker.h"

enum { WHY_MAX = 1 << 20 }; /* the messages' frame: longer is refused */

/* A copy of the thread's error message (NULL when out of memory). */
static char *why_now(void)
{
    const err_info *e = err_last();
    return strdup(e ? e->message : "unknown error");
}

/* Asks the driver, in this process, of every device. why[0] (heap, or NULL) says why
 * the driver did not answer, why[1 + i] why device i's attributes could not be read. */
static void ask_driver(devices *m, char **why)
{
    memset(m, 0, sizeof *m);
    drv *d;
    if (drv_open(&d) < 0) {
        why[0] = why_now();
        return;
    }
    m->driver_version = drv_version(d);
    m->answered = drv_device_count(d, &m->count) == 0;
    if (!m->answered)
        why[0] = why_now();
    for (int i = 0; m->answered && i < m->count && i < DEVICES_ASKED; i++) {
        devices_one *o = &m->d[i];
        o->ok = drv_device_info(d, i, &o->raw) == 0;
        if (!o->ok)
            why[1 + i] = why_now();
    }
    drv_close(d);
}

static void why_free(char **why)
{
    for (int i = 0; i <= DEVICES_ASKED; i++) {
        free(why[i]);
        why[i] = NULL;
    }
}

/* The child's body (wk_body): asks the driver and sends the answer, then its messages
 * (DEVICES_ASKED + 1 NUL-terminated strings, "" for none) in a frame of why_bytes. */
static int query_body(void *ctx, int in, int out)
{
    (void)in;
    devices *mine = ctx; /* the parent's memory, as it was at the fork: this child's own */
    char *why[DEVICES_ASKED + 1] = {0};
    ask_driver(mine, why);
    strbuf text = STRBUF_INIT;
    for (int i = 0; i <= DEVICES_ASKED; i++)
        sb_addn(&text, why[i] ? why[i] : "", why[i] ? strlen(why[i]) + 1 : 1);
    why_free(why);
    mine->why_bytes = sb_ok(&text) && text.len <= WHY_MAX ? (uint32_t)text.len : 0;
    wk_frame f = WK_FRAME_INIT;
    wk_encode_blob(&f, mine, sizeof *mine);
    int rc = wk_send(out, &f) < 0; /* the parent reads until it has it all */
    wk_frame_reset(&f);
    wk_encode_blob(&f, sb_cstr(&text), mine->why_bytes);
    rc |= wk_send(out, &f) < 0;
    wk_frame_free(&f);
    sb_free(&text);
    return rc;
}

/* Reads the child's messages (`size` bytes: query_body's) into why; false when they
 * are not what it sends. */
static bool why_read(int fd, uint32_t size, char **why)
{
    char *text = size <= WHY_MAX ? malloc((size_t)size + 1) : NULL;
    wk_frame f = WK_FRAME_INIT;
    bool ok = text && wk_recv(fd, &f, 0) == 0 && wk_decode_blob(&f, text, size) == 0;
    wk_frame_free(&f);
    const char *at = text, *end = text ? text + size : NULL;
    for (int i = 0; ok && i <= DEVICES_ASKED; i++) {
        const char *nul = memchr(at, '\0', (size_t)(end - at));
        if (!nul) {
            ok = false;
            break;
        }
        if (nul > at && !(why[i] = strdup(at)))
            ok = false;
        at = nul + 1;
    }
    free(text);
    if (!ok)
        why_free(why);
    return ok;
}

/* The driver's answer, asked once per process (`--devices all` on a node of eight GPUs
 * asked seventeen times, each a process that starts the driver). */
static pthread_mutex_t machine_lock = PTHREAD_MUTEX_INITIALIZER;
static devices known;
static bool have_known;
static char known_arch[DEVICES_ASKED][16]; /* "sm_90": each device's, once answered */
static char *known_why[DEVICES_ASKED];     /* why a device's attributes were not read */
static double asked_seconds, asked_at;     /* how long the answer kept took, and when it came */
static char *memo_path;                    /* the memo file of this machine's key, or NULL */
static bool from_memo;                     /* the answer kept came from memo_path */

/* The memo's file and key for this machine (devmemo.h), or false: CUTUNE_DEVICE_MEMO=0,
 * no key (no NVIDIA driver), no cache folder. *key is the caller's to free. */
static bool memo_where(strbuf *key)
{
    const char *off = getenv("CUTUNE_DEVICE_MEMO"); /* NOLINT(concurrency-mt-unsafe): read only */
    if ((off && strcmp(off, "0") == 0) || devmemo_key("/proc", key) < 0)
        return false;
    char *dir = cache_default_dir();
    free(memo_path);
    memo_path = dir ? devmemo_path(dir, sb_cstr(key)) : NULL;
    free(dir);
    return memo_path != NULL;
}

/* Asks the machine (in a child when one can be started) into known; why[0] says why
 * it did not answer. */
static void ask_machine(char **why)
{
    devices *m = malloc(sizeof *m);
    wk_proc p = {0, -1, -1};
    if (!m) {
        memset(&known, 0, sizeof known);
        known.oom = true;
    } else if (wk_start(&p, query_body, m) < 0) {
        ask_driver(&known, why);
    } else {
        wk_frame f = WK_FRAME_INIT;
        bool got = wk_recv(p.from, &f, 0) == 0 && wk_decode_blob(&f, m, sizeof *m) == 0;
        wk_frame_free(&f);
        got = got && why_read(p.from, m->why_bytes, why);
        int status = wk_stop(&p, false);
        if (got) { /* the child's bytes: its strings are terminated before they are read */
            known = *m;
            for (int i = 0; i < DEVICES_ASKED; i++)
                known.d[i].raw.name[sizeof known.d[i].raw.name - 1] = '\0';
        } else {
            memset(&known, 0, sizeof known);
            why_free(why);
            char text[128];
            snprintf(text, sizeof text, "the driver query process failed (%s)",
                     WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no answer");
            why[0] = strdup(text);
        }
    }
    free(m);
}

int devices_query(devices *out)
{
    pthread_mutex_lock(&machine_lock);
    int rc = CUTUNE_OK;
    if (!have_known) {
        char *why[DEVICES_ASKED + 1] = {0};
        double t = sys_seconds();
        strbuf key = STRBUF_INIT;
        bool memo = memo_where(&key);
        from_memo = memo && devmemo_load(memo_path, sb_cstr(&key), &known) == 0;
        if (from_memo)
            trace_instant("device memo hit", memo_path);
        if (!from_memo) {
            trace_begin("device query");
            ask_machine(why);
            trace_end("device query");
        }
        if (memo && !from_memo && known.answered)
            (void)devmemo_save(memo_path, sb_cstr(&key), &known); /* not kept: the next run asks again */
        sb_free(&key);
        have_known = known.answered;
        asked_at = sys_seconds();
        asked_seconds = asked_at - t;
        for (int i = 0; have_known && i < DEVICES_ASKED; i++) {
            snprintf(known_arch[i], sizeof known_arch[i], "sm_%d", known.d[i].raw.cc);
            known_why[i] = why[1 + i]; /* kept for the process, as the answer is */
            why[1 + i] = NULL;
        }
        if (!have_known)
            rc = known.oom || !why[0] ? err_set(CUTUNE_ENOMEM, "out of memory") : err_set(CUTUNE_ENODEV, "%s", why[0]);
        why_free(why);
    }
    *out = known;
    pthread_mutex_unlock(&machine_lock);
    return rc;
}

/* The kept answer's device `ordinal`, or NULL (devices_name's terms). Once answered,
 * `known` is never written again: its strings stay where they are. */
static const devices_one *kept(int ordinal)
{
    pthread_mutex_lock(&machine_lock);
    const devices_one *o =
        have_known && ordinal >= 0 && ordinal < DEVICES_ASKED && ordinal < known.count && known.d[ordinal].ok
            ? &known.d[ordinal]
            : NULL;
    pthread_mutex_unlock(&machine_lock);
    return o;
}

const char *devices_name(int ordinal)
{
    const devices_one *o = kept(ordinal);
    return o ? o->raw.name : NULL;
}

const char *devices_arch(int ordinal)
{
    return kept(ordinal) ? known_arch[ordinal] : NULL;
}

const char *devices_why(int ordinal)
{
    pthread_mutex_lock(&machine_lock);
    const char *why =
        have_known && ordinal >= 0 && ordinal < DEVICES_ASKED && ordinal < known.count && !known.d[ordinal].ok
            ? known_why[ordinal]
            : NULL;
    pthread_mutex_unlock(&machine_lock);
    return why;
}

bool devices_raw(int ordinal, drv_device *out)
{
    const devices_one *o = kept(ordinal);
    if (o)
        *out = o->raw;
    return o != NULL;
}

const char *devices_memo_path(void)
{
    pthread_mutex_lock(&machine_lock);
    const char *path = have_known && from_memo ? memo_path : NULL;
    pthread_mutex_unlock(&machine_lock);
    return path;
}

bool devices_query_time(double *seconds, double *at)
{
    pthread_mutex_lock(&machine_lock);
    bool known_now = have_known;
    *seconds = known_now ? asked_seconds : 0;
    *at = known_now ? asked_at : 0;
    pthread_mutex_unlock(&machine_lock);
    return known_now;
}
