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
#include "worker.h"

/* Asks the driver, in this process, of every device. */
static void ask_driver(devices *m)
{
    memset(m, 0, sizeof *m);
    drv *d;
    if (drv_open(&d) < 0) {
        snprintf(m->err, sizeof m->err, "%s", err_last()->message);
        return;
    }
    m->driver_version = drv_version(d);
    m->answered = drv_device_count(d, &m->count) == 0;
    if (!m->answered)
        snprintf(m->err, sizeof m->err, "%s", err_last()->message);
    for (int i = 0; m->answered && i < m->count && i < DEVICES_ASKED; i++) {
        devices_one *o = &m->d[i];
        o->ok = drv_device_info(d, i, &o->raw) == 0;
        if (!o->ok)
            snprintf(o->err, sizeof o->err, "%s", err_last()->message);
    }
    drv_close(d);
}

/* The child's body (wk_body): asks the driver and sends the answer. */
static int query_body(void *ctx, int in, int out)
{
    (void)in;
    devices *mine = ctx; /* the parent's memory, as it was at the fork: this child's own */
    ask_driver(mine);
    wk_frame f = WK_FRAME_INIT;
    wk_encode_blob(&f, mine, sizeof *mine);
    return wk_send(out, &f) < 0; /* the parent reads until it has it all */
}

/* The driver's answer, asked once per process (`--devices all` on a node of eight GPUs
 * asked seventeen times, each a process that starts the driver). */
static pthread_mutex_t machine_lock = PTHREAD_MUTEX_INITIALIZER;
static devices known;
static bool have_known;
static char known_arch[DEVICES_ASKED][16]; /* "sm_90": each device's, once answered */

void devices_query(devices *out)
{
    pthread_mutex_lock(&machine_lock);
    if (!have_known) {
        devices *m = malloc(sizeof *m);
        wk_proc p = {0, -1, -1};
        if (!m) {
            memset(&known, 0, sizeof known);
            known.oom = true;
            snprintf(known.err, sizeof known.err, "out of memory");
        } else if (wk_start(&p, query_body, m) < 0) {
            ask_driver(&known);
        } else {
            wk_frame f = WK_FRAME_INIT;
            bool got = wk_recv(p.from, &f, 0) == 0 && wk_decode_blob(&f, m, sizeof *m) == 0;
            wk_frame_free(&f);
            int status = wk_stop(&p, false);
            if (got) { /* the child's bytes: its strings are terminated before they are read */
                known = *m;
                known.err[sizeof known.err - 1] = '\0';
                for (int i = 0; i < DEVICES_ASKED; i++) {
                    known.d[i].err[sizeof known.d[i].err - 1] = '\0';
                    known.d[i].raw.name[sizeof known.d[i].raw.name - 1] = '\0';
                }
            } else {
                memset(&known, 0, sizeof known);
                snprintf(known.err, sizeof known.err, "the driver query process failed (%s)",
                         WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no answer");
            }
        }
        free(m);
        have_known = known.answered;
        for (int i = 0; have_known && i < DEVICES_ASKED; i++)
            snprintf(known_arch[i], sizeof known_arch[i], "sm_%d", known.d[i].raw.cc);
    }
    *out = known;
    pthread_mutex_unlock(&machine_lock);
}

/* The kept answer's device `ordinal`, or NULL (devices_name's terms). Once answered,
 * `known` is never written again: its strings stay where they are. */
static const devices_one *kept(int ordinal)
{
    pthread_mutex_lock(&machine_lock);
    const devices_one *o = have_known && ordinal >= 0 && ordinal < DEVICES_ASKED && ordinal < known.count &&
                                   known.d[ordinal].ok
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
