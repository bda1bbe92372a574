/* space.c - counting and listing the valid configurations (see space.h).
 *
 * Counting builds a "count tree" once: each node fixes one param, tests the constraints
 * that become fully known there, and then splits the params still free into
 * independent groups (no pending constraint links two groups), each a child whose
 * count multiplies. The count of a node is the sum over its param's values of the
 * product of its children's counts. Because the split only depends on which params are
 * fixed, it is worked out once, not per value.
 *
 * Each node's checks are also rewritten so that their parts that do not read the
 * node's own param (a + b + ... + g in a + b + ... + g + h <= 40) are computed once per
 * assignment of the outer params and held in slots, not once per value of the inner
 * one: the inner loop then evaluates only what changes.
 *
 * Some spaces defeat both (a constraint over every param of a 10^15 space): counting
 * is bounded in time (and optionally in evaluations), and when it stops, the count is
 * estimated from a uniform sample of the raw combinations, with what was counted so far
 * as a lower bound. */
#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"

typedef struct cnode {
    int var;
    int *checks;
    int nchecks;
    texpr **hoisted;    /* per check: the check reading slots for its invariant parts */
    texpr **slot_exprs; /* what each of this node's slots holds */
    int nslots, cap_slots;
    int slot_base; /* index of this node's first slot in space.slots */
    struct cnode **kids;
    int nkids;
} cnode;

struct space {
    const model *m;
    int n;             /* params */
    int nreq;          /* constraints in use */
    const texpr **req; /* their expressions */
    param_set *req_deps;
    value **vals; /* materialised domains (NULL for big arithmetic ranges) */
    uint64_t *sizes;
    int **level_checks; /* listing: constraints whose last param (in declaration order) is i */
    int *level_nchecks;
    cnode **roots; /* counting: independent groups of all params */
    int nroots;
    value *env_vals; /* scratch for counting */
    eval_env env;
    arena *arena; /* hoisted expressions */
    int nslots;
    value *slots;
    /* the bounds of the exact count in progress (space_count_ex) */
    uint64_t work, max_work, next_poll;
    double deadline;
    const space_count_opts *opts;
    double done; /* the share counted, for progress: roots finished and the top value */
    bool stopped;
};

enum { MATERIALISE_LIMIT = 1 << 20 };

static value space_value(const space *sp, int var, uint64_t i)
{
    if (sp->vals[var])
        return sp->vals[var][i];
    return model_domain_at(&sp->m->params[var].dom, i);
}

static int popcount(param_set s)
{
    return __builtin_popcountll(s);
}

static void cnode_free(cnode *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nkids; i++)
        cnode_free(c->kids[i]);
    free(c->kids);
    free(c->checks);
    free(c);
}

/* A copy of `e` in which every maximal part that reads outer params but not `var` is
 * replaced by a slot of node c (lets are inlined so their parts can be hoisted too).
 * Returns NULL when out of memory. */
static texpr *hoist(space *sp, cnode *c, texpr *e, param_set varbit)
{
    if (!(e->deps & varbit)) {
        if (!e->deps || e->kind == TX_CONST || e->kind == TX_PARAM || e->kind == TX_SLOT)
            return e; /* nothing to gain */
        texpr *slot = arena_alloc(sp->arena, sizeof *slot);
        if (!slot || ARENA_PUSH(sp->arena, c->slot_exprs, c->nslots, c->cap_slots, e) < 0)
            return NULL;
        *slot = *e;
        slot->kind = TX_SLOT;
        slot->u.index = c->slot_base + c->nslots - 1;
        return slot;
    }
    if (e->kind == TX_LET)
        return hoist(sp, c, sp->m->lets[e->u.index].expr, varbit);
    if (e->kind == TX_PARAM)
        return e;
    texpr *t = arena_alloc(sp->arena, sizeof *t);
    if (!t)
        return NULL;
    *t = *e;
    switch (e->kind) {
    case TX_UNARY:
    case TX_BINARY:
        if (!(t->u.op.a = hoist(sp, c, e->u.op.a, varbit)))
            return NULL;
        if (e->u.op.b && !(t->u.op.b = hoist(sp, c, e->u.op.b, varbit)))
            return NULL;
        return t;
    case TX_COND:
        if (!(t->u.cond.cond = hoist(sp, c, e->u.cond.cond, varbit)) ||
            !(t->u.cond.then = hoist(sp, c, e->u.cond.then, varbit)) ||
            !(t->u.cond.otherwise = hoist(sp, c, e->u.cond.otherwise, varbit)))
            return NULL;
        return t;
    case TX_CHAIN:
    case TX_CALL: {
        int n = e->kind == TX_CHAIN ? e->u.chain.n : e->u.call.n;
        texpr **from = e->kind == TX_CHAIN ? e->u.chain.operands : e->u.call.args;
        texpr **to = arena_alloc(sp->arena, sizeof(texpr *) * (size_t)n);
        if (!to)
            return NULL;
        for (int i = 0; i < n; i++)
            if (!(to[i] = hoist(sp, c, from[i], varbit)))
                return NULL;
        if (e->kind == TX_CHAIN)
            t->u.chain.operands = to;
        else
            t->u.call.args = to;
        return t;
    }
    default: return t;
    }
}

/* Splits `vars` into groups linked by the constraints that still have a free param
 * among them. Writes group masks to groups[] and returns how many. */
static int split(const space *sp, param_set vars, param_set *groups)
{
    int ngroups = 0;
    param_set left = vars;
    while (left) {
        param_set group = left & (~left + 1); /* lowest free param */
        for (bool grew = true; grew;) {
            grew = false;
            for (int r = 0; r < sp->nreq; r++) {
                param_set d = sp->req_deps[r] & vars;
                if ((d & group) && (d & ~group)) {
                    group |= d;
                    grew = true;
                }
            }
        }
        groups[ngroups++] = group;
        left &= ~group;
    }
    return ngroups;
}

/* Builds the count tree for the free params `vars` (a group). The param fixed first
 * is the one that completes the most constraints, then the one in the most pending
 * constraints, then the one with the fewest values: this keeps failing branches short. */
static cnode *build(space *sp, param_set vars)
{
    int best = -1;
    long best_score[3] = {-1, -1, 0};
    for (int v = 0; v < sp->n; v++) {
        if (!(vars & ((param_set)1 << v)))
            continue;
        long completes = 0, pending = 0;
        for (int r = 0; r < sp->nreq; r++) {
            param_set d = sp->req_deps[r] & vars;
            if (!(d & ((param_set)1 << v)))
                continue;
            pending++;
            completes += popcount(d) == 1;
        }
        long score[3] = {completes, pending, -(long)(sp->sizes[v] > 0x7fffffff ? 0x7fffffff : sp->sizes[v])};
        if (best < 0 || score[0] > best_score[0] ||
            (score[0] == best_score[0] &&
             (score[1] > best_score[1] || (score[1] == best_score[1] && score[2] > best_score[2])))) {
            best = v;
            memcpy(best_score, score, sizeof score);
        }
    }
    cnode *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->var = best;
    param_set bit = (param_set)1 << best;
    c->checks = malloc(sizeof(int) * (size_t)(sp->nreq + 1));
    if (!c->checks)
        goto fail;
    for (int r = 0; r < sp->nreq; r++)
        if ((sp->req_deps[r] & vars) == bit)
            c->checks[c->nchecks++] = r;
    c->hoisted = arena_alloc(sp->arena, sizeof(texpr *) * (size_t)(c->nchecks + 1));
    if (!c->hoisted)
        goto fail;
    c->slot_base = sp->nslots;
    for (int k = 0; k < c->nchecks; k++)
        if (!(c->hoisted[k] = hoist(sp, c, (texpr *)sp->req[c->checks[k]], bit)))
            goto fail;
    sp->nslots += c->nslots;
    param_set rest = vars & ~bit;
    if (rest) {
        param_set groups[MODEL_MAX_PARAMS];
        int ng = split(sp, rest, groups);
        c->kids = calloc((size_t)ng, sizeof(cnode *));
        if (!c->kids)
            goto fail;
        for (int g = 0; g < ng; g++) {
            c->kids[g] = build(sp, groups[g]);
            if (!c->kids[g])
                goto fail;
            c->nkids++;
        }
    }
    return c;
fail:
    cnode_free(c);
    return NULL;
}

int space_new(space **out, const model *m, const int *reqs, int nreqs)
{
    int nrequires = reqs ? nreqs : m->nrequires;
    *out = NULL;
    space *sp = calloc(1, sizeof *sp);
    if (!sp)
        return -1;
    sp->m = m;
    sp->n = m->nparams;
    sp->nreq = nrequires;
    size_t n1 = (size_t)sp->n + 1;
    sp->req_deps = calloc((size_t)nrequires + 1, sizeof(param_set));
    sp->req = calloc((size_t)nrequires + 1, sizeof(texpr *));
    sp->vals = calloc(n1, sizeof(value *));
    sp->sizes = calloc(n1, sizeof(uint64_t));
    sp->level_checks = calloc(n1, sizeof(int *));
    sp->level_nchecks = calloc(n1, sizeof(int));
    sp->env_vals = calloc(n1, sizeof(value));
    sp->arena = arena_new();
    if (!sp->arena || !sp->req_deps || !sp->req || !sp->vals || !sp->sizes || !sp->level_checks || !sp->level_nchecks ||
        !sp->env_vals)
        goto fail;
    for (int r = 0; r < nrequires; r++) {
        sp->req[r] = m->requires[reqs ? reqs[r] : r].expr;
        sp->req_deps[r] = sp->req[r]->deps;
    }
    for (int v = 0; v < sp->n; v++) {
        const domain *d = &m->params[v].dom;
        sp->sizes[v] = d->size;
        if (d->size <= MATERIALISE_LIMIT) {
            sp->vals[v] = malloc(sizeof(value) * (size_t)d->size);
            if (!sp->vals[v])
                goto fail;
            for (uint64_t i = 0; i < d->size; i++)
                sp->vals[v][i] = model_domain_at(d, i);
        }
        sp->level_checks[v] = malloc(sizeof(int) * (size_t)(nrequires + 1));
        if (!sp->level_checks[v])
            goto fail;
    }
    for (int r = 0; r < nrequires; r++) {
        int last = 63 - __builtin_clzll(sp->req_deps[r] | 1);
        sp->level_checks[last][sp->level_nchecks[last]++] = r;
    }
    if (sp->n > 0) {
        param_set all = sp->n == 64 ? ~(param_set)0 : (((param_set)1 << sp->n) - 1);
        param_set groups[MODEL_MAX_PARAMS];
        int ng = split(sp, all, groups);
        sp->roots = calloc((size_t)ng, sizeof(cnode *));
        if (!sp->roots)
            goto fail;
        for (int g = 0; g < ng; g++) {
            sp->roots[g] = build(sp, groups[g]);
            if (!sp->roots[g])
                goto fail;
            sp->nroots++;
        }
    }
    sp->slots = calloc((size_t)sp->nslots + 1, sizeof(value));
    if (!sp->slots)
        goto fail;
    sp->env.m = m;
    sp->env.params = sp->env_vals;
    sp->env.slots = sp->slots;
    *out = sp;
    return 0;
fail:
    space_free(sp);
    return -1;
}

void space_free(space *sp)
{
    if (!sp)
        return;
    for (int v = 0; v < sp->n; v++) {
        if (sp->vals)
            free(sp->vals[v]);
        if (sp->level_checks)
            free(sp->level_checks[v]);
    }
    for (int g = 0; g < sp->nroots; g++)
        cnode_free(sp->roots[g]);
    free(sp->roots);
    free(sp->req_deps);
    free(sp->req);
    free(sp->vals);
    free(sp->sizes);
    free(sp->level_checks);
    free(sp->level_nchecks);
    free(sp->env_vals);
    free(sp->slots);
    arena_free(sp->arena);
    free(sp);
}

static uint64_t sat_mul(uint64_t a, uint64_t b, bool *sat)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *sat = true;
        return UINT64_MAX;
    }
    return r;
}

static uint64_t sat_add(uint64_t a, uint64_t b, bool *sat)
{
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        *sat = true;
        return UINT64_MAX;
    }
    return r;
}

uint64_t space_raw(const space *sp, bool *saturated)
{
    *saturated = false;
    uint64_t total = 1;
    for (int v = 0; v < sp->n; v++)
        total = sat_mul(total, sp->sizes[v], saturated);
    return total;
}

void space_describe_config(const model *m, const value *values, param_set which, strbuf *out)
{
    bool first = true;
    for (int v = 0; v < m->nparams; v++) {
        if (!(which & ((param_set)1 << v)))
            continue;
        sb_printf(out, "%s%s = ", first ? "" : ", ", m->params[v].name);
        value_format(values[v], out, true);
        first = false;
    }
}

/* Adds the failing configuration to an evaluation error's message. */
static void explain(const model *m, const value *values, param_set which, eval_error *err)
{
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s (when ", err->message);
    space_describe_config(m, values, which, &sb);
    sb_addc(&sb, ')');
    if (sb_ok(&sb))
        snprintf(err->message, sizeof err->message, "%s", sb_cstr(&sb));
    sb_free(&sb);
}

static int run_checks(space *sp, const int *checks, int n, bool *ok, eval_error *err)
{
    for (int k = 0; k < n; k++) {
        int r = checks[k];
        if (eval_bool(sp->req[r], &sp->env, ok, err) < 0) {
            explain(sp->m, sp->env_vals, sp->req_deps[r], err);
            return -1;
        }
        if (!*ok)
            return 0;
    }
    *ok = true;
    return 0;
}

/* Fills node c's slots from the params fixed so far. False when a part fails to
 * evaluate: it may sit behind a short-circuit that the whole check would have taken,
 * so the caller then falls back to the checks as written. */
static bool fill_slots(space *sp, const cnode *c)
{
    for (int k = 0; k < c->nslots; k++) {
        eval_error ignored;
        if (eval_expr(c->slot_exprs[k], &sp->env, &sp->slots[c->slot_base + k], &ignored) < 0)
            return false;
    }
    return true;
}

enum { POLL_EVERY = 1 << 16 };

/* Charges `n` evaluations to the exact count; every POLL_EVERY of them, checks the
 * bounds and reports progress. Returns false (and sets sp->stopped) once counting must
 * stop. */
static bool charge(space *sp, uint64_t n)
{
    sp->work += n;
    if (sp->work < sp->next_poll)
        return !sp->stopped;
    sp->next_poll = sp->work + POLL_EVERY;
    const space_count_opts *o = sp->opts;
    if ((sp->max_work && sp->work >= sp->max_work) || sys_seconds() >= sp->deadline ||
        (o && o->progress && o->progress(o->user, sp->done) != 0))
        sp->stopped = true;
    return !sp->stopped;
}

/* Counts the configurations of c's subtree for the params fixed so far, into *out. When
 * the bounds stop the count, *out is what was counted (a lower bound) and sp->stopped
 * is set. `top`: c is a root, whose progress through its values is the progress shown;
 * `share` is how much of the whole one root stands for. */
static int count_node(space *sp, const cnode *c, uint64_t *out, bool *sat, eval_error *err, bool top, double share)
{
    uint64_t size = sp->sizes[c->var];
    if (c->nchecks == 0 && c->nkids == 0) {
        *out = size;
        return 0;
    }
    bool use_hoisted = c->nchecks > 0 && fill_slots(sp, c);
    uint64_t total = 0;
    double done0 = sp->done;
    for (uint64_t i = 0; i < size; i++) {
        if (top)
            sp->done = done0 + share * (double)i / (double)size;
        if (!charge(sp, (uint64_t)c->nchecks + 1))
            break;
        sp->env_vals[c->var] = space_value(sp, c->var, i);
        bool ok = true;
        if (use_hoisted) {
            for (int k = 0; k < c->nchecks && ok; k++) {
                /* A failure here is reported by the written check, with its message. */
                if (eval_bool(c->hoisted[k], &sp->env, &ok, err) < 0) {
                    if (run_checks(sp, c->checks, c->nchecks, &ok, err) < 0)
                        return -1;
                    break;
                }
            }
        } else if (run_checks(sp, c->checks, c->nchecks, &ok, err) < 0) {
            return -1;
        }
        if (!ok)
            continue;
        uint64_t prod = 1;
        for (int k = 0; k < c->nkids && prod; k++) {
            uint64_t kid;
            if (count_node(sp, c->kids[k], &kid, sat, err, false, 0.0) < 0)
                return -1;
            prod = sat_mul(prod, kid, sat);
        }
        total = sat_add(total, prod, sat);
        if (sp->stopped)
            break;
    }
    *out = total;
    return 0;
}

/* splitmix64: the sample's random numbers (a generator of its own, so that the stages
 * stay apart). */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform index below n (n >= 1), by rejection so that no value is favoured. */
static uint64_t random_below(uint64_t *state, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = next_random(state);
    while (x >= limit);
    return x % n;
}

/* Draws r->samples uniform raw combinations and counts the valid ones into r->hits. */
static int sample(space *sp, uint64_t seed, space_count_result *r, eval_error *err)
{
    uint64_t state = seed ^ 0x5EED5EED5EED5EEDull;
    r->hits = 0;
    for (uint64_t k = 0; k < r->samples; k++) {
        for (int v = 0; v < sp->n; v++)
            sp->env_vals[v] = space_value(sp, v, random_below(&state, sp->sizes[v]));
        bool ok = true;
        for (int q = 0; q < sp->nreq && ok; q++)
            if (eval_bool(sp->req[q], &sp->env, &ok, err) < 0) {
                explain(sp->m, sp->env_vals, sp->req_deps[q], err);
                return -1;
            }
        r->hits += ok;
    }
    return 0;
}

int space_count_ex(space *sp, const space_count_opts *opts, space_count_result *r, eval_error *err)
{
    memset(r, 0, sizeof *r);
    sp->opts = opts;
    sp->work = 0;
    sp->next_poll = POLL_EVERY;
    sp->max_work = opts ? opts->max_work : 0;
    sp->deadline = sys_seconds() + (opts && opts->max_seconds > 0 ? opts->max_seconds : SPACE_COUNT_SECONDS);
    sp->done = 0.0;
    sp->stopped = false;
    bool sat = false;
    uint64_t total = 1;
    int counted = 0; /* roots counted to the end */
    for (int g = 0; g < sp->nroots && total; g++) {
        uint64_t c;
        if (count_node(sp, sp->roots[g], &c, &sat, err, true, 1.0 / sp->nroots) < 0)
            return -1;
        total = sat_mul(total, c, &sat);
        if (sp->stopped)
            break;
        counted++;
        sp->done = (double)counted / sp->nroots;
    }
    if (!sp->stopped) {
        r->exact = true;
        r->count = r->at_least = total;
        r->saturated = sat;
        return 0;
    }
    /* What was counted is a lower bound only when every root's part was (the roots not
     * reached may hold no valid configuration at all). */
    r->at_least = counted >= sp->nroots - 1 ? total : 0;
    r->samples = opts && opts->samples ? opts->samples : SPACE_COUNT_SAMPLES;
    if (sample(sp, opts ? opts->seed : 0, r, err) < 0)
        return -1;
    if (r->hits && !r->at_least)
        r->at_least = 1;
    double raw = 1.0;
    for (int v = 0; v < sp->n; v++)
        raw *= (double)sp->sizes[v];
    r->share = (double)r->hits / (double)r->samples;
    double estimate = raw * r->share + 0.5;
    r->saturated = estimate >= 18446744073709551615.0;
    r->count = r->saturated ? UINT64_MAX : (uint64_t)estimate;
    if (r->count < r->at_least)
        r->count = r->at_least;
    return 0;
}

int space_count(space *sp, uint64_t *count, bool *saturated, eval_error *err)
{
    space_count_result r;
    *count = 0;
    *saturated = false;
    if (space_count_ex(sp, NULL, &r, err) < 0)
        return -1;
    if (r.exact) {
        *count = r.count;
        *saturated = r.saturated;
        return 0;
    }
    err->loc = sp->m->kernel_loc;
    if (r.hits)
        snprintf(err->message, sizeof err->message,
                 "the space is too large to count exactly in %g s: an estimated "
                 "%.3g configurations are valid (%.3g%% of %llu random samples), at least %llu",
                 SPACE_COUNT_SECONDS, (double)r.count, 100.0 * r.share, (unsigned long long)r.samples,
                 (unsigned long long)r.at_least);
    else
        snprintf(err->message, sizeof err->message,
                 "the space is too large to count exactly in %g s, and none of "
                 "%llu random samples is valid (at least %llu are): narrow the ranges or add constraints",
                 SPACE_COUNT_SECONDS, (unsigned long long)r.samples, (unsigned long long)r.at_least);
    return -1;
}

struct space_iter {
    const space *sp;
    uint64_t *idx;
    value *vals;
    eval_env env;
    int level; /* the param being advanced; -1 before the first call */
    bool done;
};

int space_iter_new(space_iter **out, const space *sp)
{
    *out = NULL;
    space_iter *it = calloc(1, sizeof *it);
    if (!it)
        return -1;
    it->sp = sp;
    it->idx = calloc((size_t)sp->n + 1, sizeof(uint64_t));
    it->vals = calloc((size_t)sp->n + 1, sizeof(value));
    if (!it->idx || !it->vals) {
        space_iter_free(it);
        return -1;
    }
    it->env.m = sp->m;
    it->env.params = it->vals;
    it->level = -1;
    for (int v = 0; v < sp->n; v++)
        if (sp->sizes[v] == 0)
            it->done = true;
    *out = it;
    return 0;
}

void space_iter_free(space_iter *it)
{
    if (!it)
        return;
    free(it->idx);
    free(it->vals);
    free(it);
}

/* Moves to the next index at `level`, carrying into outer params; false when exhausted. */
static bool advance(space_iter *it)
{
    while (it->level >= 0) {
        if (++it->idx[it->level] < it->sp->sizes[it->level])
            return true;
        it->level--;
    }
    return false;
}

int space_iter_next(space_iter *it, const uint64_t **indices, const value **values, eval_error *err)
{
    const space *sp = it->sp;
    int n = sp->n;
    if (it->done)
        return 0;
    if (it->level < 0) {
        it->level = 0;
        memset(it->idx, 0, sizeof(uint64_t) * (size_t)(n + 1));
    } else {
        it->level = n - 1;
        if (n == 0 || !advance(it)) {
            it->done = true;
            return 0;
        }
    }
    /* Depth-first: fix params from it->level down, backtracking on a failed check. */
    while (it->level < n) {
        int v = it->level;
        it->vals[v] = space_value(sp, v, it->idx[v]);
        bool ok = true;
        for (int k = 0; k < sp->level_nchecks[v] && ok; k++) {
            int r = sp->level_checks[v][k];
            if (eval_bool(sp->req[r], &it->env, &ok, err) < 0) {
                explain(sp->m, it->vals, sp->req_deps[r], err);
                it->done = true;
                return -1;
            }
        }
        if (ok) {
            it->level++;
            if (it->level < n)
                it->idx[it->level] = 0;
            continue;
        }
        if (!advance(it)) {
            it->done = true;
            return 0;
        }
    }
    it->level = n - 1;
    if (n == 0)
        it->done = true; /* the one empty configuration */
    *indices = it->idx;
    *values = it->vals;
    return 1;
}

uint64_t space_shard_block(const model *m)
{
    return m->nparams > 0 && m->params[m->nparams - 1].dom.size > 0 ? m->params[m->nparams - 1].dom.size : 1;
}

uint64_t space_shard_of(uint64_t ordinal, uint64_t count, uint64_t block)
{
    return count <= 1 ? 0 : ordinal / (block ? block : 1) % count;
}

bool space_in_shard(uint64_t ordinal, uint64_t index, uint64_t count, uint64_t block)
{
    return space_shard_of(ordinal, count, block) == index;
}
