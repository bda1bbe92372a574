/* measurement_fields.c - the list of a measurement's fields as data
 * (measurement_fields.h), and a field's number. */
#include "measurement.h"

#define MEAS_OFF_INT(member) offsetof(cutune_measurement, member)
#define MEAS_OFF_I64(member) offsetof(cutune_measurement, member)
#define MEAS_OFF_BOOL(member) offsetof(cutune_measurement, member)
#define MEAS_OFF_NUM(member) offsetof(cutune_measurement, member)
#define MEAS_OFF_STR(member) offsetof(cutune_measurement, member)
#define MEAS_OFF_METRICS(member) 0
#define MEAS_OFF_HW(member) 0
#define MEAS_OFF_VARIANT(member) 0

#define MEAS_ENTRY(member, kind, origin, group, key, when, absent, read, dflt, lo, hi, csv, csv_at, api) \
    {#member,   MK_##kind, MO_##origin, MEAS_OFF_##kind(member), \
     group,     key,       MW_##when,   MA_##absent, \
     MR_##read, dflt,      lo,          hi, \
     csv,       csv_at,    api},

const mfield mfields[] = {MEAS_FIELDS(MEAS_ENTRY)};
const int mfield_count = (int)(sizeof mfields / sizeof mfields[0]);

double mfield_number(const cutune_measurement *m, const mfield *f)
{
    const char *at = (const char *)m + f->off;
    switch (f->kind) {
    case MK_INT:
    case MK_BOOL: return *(const int *)at;
    case MK_I64: return (double)*(const int64_t *)at;
    case MK_NUM: return *(const double *)at;
    default: return NAN;
    }
}
