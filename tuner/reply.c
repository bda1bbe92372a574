/* reply.c - the GPU worker's reply on the wire (reply.h): its table, the measurement's
 * part made from the one list of its fields. */
#include "reply.h"

#include <string.h>

/* A field of the list on the wire, by its kind (cutune_measurement's BOOL is an int). */
#define REPLY_WK_INT(member) WK_F(WK_INT, reply, m.member),
#define REPLY_WK_I64(member) WK_F(WK_I64, reply, m.member),
#define REPLY_WK_BOOL(member) WK_F(WK_INT, reply, m.member),
#define REPLY_WK_NUM(member) WK_F(WK_F64, reply, m.member),
#define REPLY_WK_STR(member) WK_F(WK_STR, reply, m.member),
#define REPLY_WK_METRICS(member) WK_FN(WK_F64S, reply, m.member, m.nmetrics),
#define REPLY_WK_HW(member)
#define REPLY_WK_VARIANT(member)
/* ... when the worker measures it */
#define REPLY_ORIGIN_WORKER(kind, member) REPLY_WK_##kind(member)
#define REPLY_ORIGIN_SUMMED(kind, member) REPLY_WK_##kind(member)
#define REPLY_ORIGIN_TAKEN(kind, member)
#define REPLY_ORIGIN_LOCAL(kind, member)
#define REPLY_FIELD(member, kind, origin, group, key, when, absent, read, dflt, lo, hi, csv, csv_at, api) \
    REPLY_ORIGIN_##origin(kind, member)

static const wk_field reply_fields[] = {
    WK_F(WK_OUTCOME, reply, status),
    WK_F(WK_BOOL, reply, sticky),
    MEAS_FIELDS(REPLY_FIELD)
    /* a profile request's */
    WK_FN(WK_F64S, reply, m.hw, m.nhw),
    WK_F(WK_INT, reply, m.profile_passes),
    WK_F(WK_STR, reply, m.profile_note),
    WK_F(WK_BOOL, reply, profiler_off),
    /* where the time went */
    WK_F(WK_F64, reply, work[CUTUNE_WORK_REFERENCE]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_ARGS]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_POISON]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_LOAD]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_RESET]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_CHECK]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_COMPARE]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_WARMUP]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_SAMPLES]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_ENERGY]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_OTHER]),
    WK_F(WK_F64, reply, work[CUTUNE_WORK_FLUSH]),
};
_Static_assert(CUTUNE_WORK_COUNT == 12, "every kind of GPU work is on the wire");

void reply_encode(wk_frame *f, const reply *r)
{
    wk_encode(f, reply_fields, sizeof reply_fields / sizeof reply_fields[0], r);
}

int reply_decode(wk_frame *f, arena *a, reply *r)
{
    memset(r, 0, sizeof *r);
    return wk_decode(f, a, reply_fields, sizeof reply_fields / sizeof reply_fields[0], r);
}
