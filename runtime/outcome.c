/* outcome.c - the outcome names (see outcome.h). */
#include "outcome.h"

#include <string.h>

static const char *const outcome_table[OUTCOME_COUNT] = {
    "ok", "wrong", "compile error", "cannot launch", "load error", "launch error", "not run", "timeout", "crashed",
};

const char *outcome_name(outcome o)
{
    return (unsigned)o < OUTCOME_COUNT ? outcome_table[o] : outcome_table[OUTCOME_NOT_RUN];
}

bool outcome_from_name(const char *name, outcome *out)
{
    for (int i = 0; name && i < OUTCOME_COUNT; i++)
        if (strcmp(name, outcome_table[i]) == 0) {
            *out = (outcome)i;
            return true;
        }
    return false;
}
