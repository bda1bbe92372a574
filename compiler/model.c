/* model.c - small helpers over the checked model (see model.h). */
#include "model.h"

#include <string.h>

value model_domain_at(const domain *d, uint64_t i)
{
    switch (d->kind) {
    case DK_LIST: return d->values[i];
    case DK_ARITH:
        /* In unsigned arithmetic: i * step may exceed INT64_MAX on the way to a value
         * that fits (-2^63 .. 2^63 - 1 step 2^62), and the sum wraps back into range. */
        return value_int((int64_t)((uint64_t)d->first + (uint64_t)i * (uint64_t)d->step));
    case DK_GEOM: {
        int64_t v = d->first;
        for (uint64_t k = 0; k < i; k++)
            v *= d->step;
        return value_int(v);
    }
    }
    return value_int(0);
}

int64_t model_domain_find(const domain *d, value v)
{
    if (d->kind == DK_LIST) {
        for (uint64_t i = 0; i < d->size; i++)
            if (value_equal(d->values[i], v))
                return (int64_t)i;
        return -1;
    }
    if (v.type != VT_INT || v.u.i < d->first)
        return -1;
    if (d->kind == DK_ARITH) {
        uint64_t offset = (uint64_t)v.u.i - (uint64_t)d->first;
        if (offset % (uint64_t)d->step != 0 || offset / (uint64_t)d->step >= d->size)
            return -1;
        return (int64_t)(offset / (uint64_t)d->step);
    }
    int64_t x = d->first;
    for (uint64_t i = 0; i < d->size; i++) { /* at most 63 values */
        if (x == v.u.i)
            return (int64_t)i;
        if (i + 1 < d->size) /* the value after the last may not fit */
            x *= d->step;
    }
    return -1;
}

static const char *const strategy_table[STRATEGY_COUNT + 1] = {"exhaustive", "random", "anneal", "genetic",
                                                               "local",      "guided", "auto",   NULL};

const char *model_strategy_name(strategy s)
{
    return (unsigned)s < STRATEGY_COUNT ? strategy_table[s] : "?";
}

bool model_strategy_from_name(const char *name, strategy *out)
{
    for (int i = 0; name && i < STRATEGY_COUNT; i++)
        if (strcmp(name, strategy_table[i]) == 0) {
            *out = (strategy)i;
            return true;
        }
    return false;
}

const char *const *model_strategy_names(void)
{
    return strategy_table;
}

bool model_reads_energy(const model *m, const texpr *e)
{
    if (!e || !e->uses_time) /* energy is a measured quantity: only such trees can read it */
        return false;
    switch (e->kind) {
    case TX_TIME: return e->measured != MQ_TIME;
    case TX_METRIC: return model_reads_energy(m, m->metrics[e->u.index].expr);
    case TX_UNARY:
    case TX_BINARY: return model_reads_energy(m, e->u.op.a) || model_reads_energy(m, e->u.op.b);
    case TX_COND:
        return model_reads_energy(m, e->u.cond.cond) || model_reads_energy(m, e->u.cond.then) ||
               model_reads_energy(m, e->u.cond.otherwise);
    case TX_CHAIN:
        for (int i = 0; i < e->u.chain.n; i++)
            if (model_reads_energy(m, e->u.chain.operands[i]))
                return true;
        return false;
    case TX_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (model_reads_energy(m, e->u.call.args[i]))
                return true;
        return false;
    default: return false;
    }
}

void model_chain_of_two(texpr *chain, texpr **operands, ast_op *ops, texpr *a, ast_op op, texpr *b)
{
    operands[0] = a;
    operands[1] = b;
    ops[0] = op;
    chain->u.chain.n = 2;
    chain->u.chain.operands = operands;
    chain->u.chain.ops = ops;
    chain->deps = a->deps | b->deps;
    chain->uses_time = a->uses_time || b->uses_time;
}
