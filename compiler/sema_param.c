/* sema_param.c - params: domains (constant expressions; ranges kept as first/step/size,
 * never materialised), routes and defaults; see sema_internal.h. */
#include "sema_internal.h"

#include <stdio.h>
#include <string.h>

/* Domain values must be known up front. Lists are kept as values; ranges as
 * (first, step, size) so a range of a million values costs nothing. */
int sema_settle_param(sema *s, int index)
{
    m_param *p = &s->m->params[index];
    if (s->param_state[index] == ST_DONE)
        return p->dom.type == VT_ERROR ? -1 : 0;
    if (s->param_state[index] == ST_BUSY) {
        diag_error(s->dl, p->loc, "the values of param '%s' depend on a param", p->name);
        p->dom.type = VT_ERROR;
        return -1;
    }
    s->param_state[index] = ST_BUSY;
    const char *outer_reason = s->const_reason;
    s->const_reason = "a param's values must be constants (to relate params, use require)";
    const ast_item *it = s->param_items[index];
    const ast_domain *d = &it->u.param.domain;
    domain dom;
    memset(&dom, 0, sizeof dom);
    dom.type = VT_ERROR;
    if (d->kind == DOM_LIST) {
        int n = d->values.len;
        if (n == 0) {
            diag_error(s->dl, d->loc, "param '%s' has no values", p->name);
            goto done;
        }
        dom.kind = DK_LIST;
        dom.size = (uint64_t)n;
        dom.values = sema_alloc(s, sizeof(value) * (size_t)n);
        if (!dom.values)
            goto done;
        bool broken = false;
        bool *repeat = sema_alloc(s, sizeof(bool) * (size_t)n);
        if (!repeat)
            goto done;
        for (int i = 0; i < n; i++) {
            texpr *t = sema_lower(s, d->values.items[i], 0);
            dom.values[i].type = VT_ERROR; /* not compared for repeats */
            if (!t || t->type == VT_ERROR) {
                broken = true;
                continue;
            }
            value v = t->u.k;
            if (i == 0 || dom.type == VT_ERROR) {
                dom.type = v.type;
            } else if (v.type != dom.type) {
                if (is_num(v.type) && is_num(dom.type)) {
                    dom.type = VT_FLOAT;
                } else {
                    diag_error(s->dl, t->loc,
                               "the values of param '%s' mix types: this one is %s, the first "
                               "is %s",
                               p->name, a_or_an(v.type), a_or_an(dom.values[0].type));
                    broken = true;
                }
            }
            dom.values[i] = v;
        }
        /* Sorted, not pairwise: a list of 100,000 values is checked at once. */
        if (value_mark_repeats(dom.values, (size_t)n, repeat) < 0) {
            s->oom = true;
            goto done;
        }
        for (int i = 0; i < n; i++)
            if (repeat[i]) {
                strbuf sb = STRBUF_INIT;
                value_format(dom.values[i], &sb, true);
                diag_error(s->dl, d->values.items[i]->loc, "value %s is listed twice for param '%s'",
                           sb_ok(&sb) ? sb_cstr(&sb) : "", p->name);
                sb_free(&sb);
                broken = true;
            }
        if (broken) {
            dom.type = VT_ERROR;
            goto done;
        }
        if (dom.type == VT_FLOAT) {
            /* Ints among floats become floats, which can make two values equal: [1, 1.0]. */
            for (int i = 0; i < n; i++)
                dom.values[i] = value_float(value_as_double(dom.values[i]));
            if (value_mark_repeats(dom.values, (size_t)n, repeat) < 0) {
                s->oom = true;
                goto done;
            }
            for (int i = 0; i < n && !broken; i++)
                if (repeat[i]) {
                    diag_error(s->dl, d->values.items[i]->loc,
                               "value %g is listed twice for param '%s' (as a "
                               "float it equals an earlier value)",
                               dom.values[i].u.f, p->name);
                    broken = true;
                }
            if (broken) {
                dom.type = VT_ERROR;
                goto done;
            }
        }
    } else {
        value lo = value_int(0), hi = value_int(0), step = value_int(d->geometric ? 2 : 1);
        bool ok = sema_lower_const(s, d->lo, VT_INT, "the start of a range", &lo);
        ok = sema_lower_const(s, d->hi, VT_INT, "the end of a range", &hi) && ok;
        if (d->step)
            ok = sema_lower_const(s, d->step, VT_INT, d->geometric ? "the factor of a range" : "the step of a range",
                                  &step) &&
                 ok;
        if (!ok)
            goto done;
        int64_t a = lo.u.i, b = hi.u.i, k = step.u.i;
        if (d->geometric) {
            if (k < 2) {
                diag_error(s->dl, d->step->loc, "the factor of a geometric range must be 2 or more, not %lld",
                           (long long)k);
                goto done;
            }
            if (a <= 0) {
                diag_error(s->dl, d->lo->loc, "a geometric range must start above 0, not at %lld", (long long)a);
                goto done;
            }
        } else if (k <= 0) {
            char hint[96] = "";
            if (k == -1 && b < a)
                snprintf(hint, sizeof hint, " (ranges count up: write %lld .. %lld)", (long long)b, (long long)a);
            diag_error(s->dl, d->step ? d->step->loc : d->loc, "the step of a range must be positive, not %lld%s",
                       (long long)k, hint);
            goto done;
        }
        if (b < a) {
            diag_error(s->dl, d->loc, "empty range: %lld .. %lld has no values (the end is below the start)",
                       (long long)a, (long long)b);
            goto done;
        }
        uint64_t size = 0;
        if (d->geometric) {
            for (int64_t v = a; v <= b; size++) {
                if (__builtin_mul_overflow(v, k, &v)) {
                    size++;
                    break;
                }
            }
        } else {
            /* The steps past the start, in unsigned arithmetic (b - a may exceed
             * INT64_MAX); the whole int64 range would make the + 1 wrap to 0. */
            uint64_t steps = ((uint64_t)b - (uint64_t)a) / (uint64_t)k;
            size = steps >= ((uint64_t)1 << 32) ? UINT64_MAX : steps + 1;
        }
        if (size > ((uint64_t)1 << 32)) {
            if (size == UINT64_MAX)
                diag_error(s->dl, d->loc, "param '%s' has more than 2^32 values; at most 2^32 are supported", p->name);
            else
                diag_error(s->dl, d->loc, "param '%s' has %llu values; at most 2^32 are supported", p->name,
                           (unsigned long long)size);
            goto done;
        }
        dom.kind = d->geometric ? DK_GEOM : DK_ARITH;
        dom.first = a;
        dom.step = k;
        dom.size = size;
        dom.type = VT_INT;
    }
done:
    s->const_reason = outer_reason;
    p->dom = dom;
    s->param_state[index] = ST_DONE;
    return dom.type == VT_ERROR ? -1 : 0;
}

/* Route-specific rules, and the default value. */
void sema_check_param_route(sema *s, int index)
{
    m_param *p = &s->m->params[index];
    const ast_item *it = s->param_items[index];
    const ast_route *r = &it->u.param.route;
    p->route = r->kind;
    if (p->dom.type == VT_ERROR)
        return;
    switch (r->kind) {
    case ROUTE_DEFINE:
        p->macro = r->text ? r->text : p->name;
        if (p->dom.type == VT_STRING)
            for (uint64_t i = 0; i < p->dom.size; i++) {
                const char *v = p->dom.values[i].u.s;
                if (strchr(v, '\n')) {
                    diag_error(s->dl, it->u.param.name.loc,
                               "a value of param '%s' contains a newline, which a "
                               "-D macro cannot carry",
                               p->name);
                    break;
                }
            }
        break;
    case ROUTE_OPTION:
        p->option_fmt = r->text;
        if (r->text && !strstr(r->text, "{}") && p->dom.type == VT_BOOL) { /* an on/off switch */
            p->option_switch = true;
            if (r->text[0] != '-')
                diag_error(s->dl, r->text_loc, "the option \"%s\" of on/off param '%s' does not start with '-'",
                           r->text, p->name);
        } else if (r->text && !strstr(r->text, "{}") && p->dom.type != VT_STRING)
            diag_error(s->dl, r->text_loc,
                       "param '%s' is %s, so the option \"%s\" needs a {} where the value goes; "
                       "an option given or not is a param of bool values (param %s in [false, true] as option \"%s\")",
                       p->name, a_or_an(p->dom.type), r->text, p->name, r->text);
        else if (r->text && !strstr(r->text, "{}"))
            diag_error(s->dl, r->text_loc, "the option format \"%s\" has no {} where the value goes", r->text);
        else if (!r->text && p->dom.type != VT_STRING)
            diag_error(s->dl, r->loc,
                       "param '%s' is %s; 'as option' without a format needs string values "
                       "(or write: as option \"-flag={}\")",
                       p->name, a_or_an(p->dom.type));
        break;
    case ROUTE_MAXRREGCOUNT:
        if (p->dom.type != VT_INT) {
            diag_error(s->dl, r->loc, "'as maxrregcount' needs int values, but param '%s' is %s", p->name,
                       a_or_an(p->dom.type));
            break;
        }
        for (uint64_t i = 0; i < p->dom.size; i++) {
            int64_t v = model_domain_at(&p->dom, i).u.i;
            if (v < 0 || v > 255) {
                const ast_domain *d = &it->u.param.domain;
                span at =
                    d->kind == DOM_LIST && (uint64_t)d->values.len == p->dom.size ? d->values.items[i]->loc : d->loc;
                diag_error(s->dl, at, "register cap %lld for param '%s' is outside 0..255 (0 means no cap)",
                           (long long)v, p->name);
                break;
            }
        }
        break;
    case ROUTE_SMEM:
        if (p->dom.type != VT_INT) {
            diag_error(s->dl, r->loc, "'as smem' needs int values (bytes), but param '%s' is %s", p->name,
                       a_or_an(p->dom.type));
            break;
        }
        for (uint64_t i = 0; i < p->dom.size; i += p->dom.kind == DK_LIST ? 1 : p->dom.size) /* ranges: the first */
            if (model_domain_at(&p->dom, i).u.i < 0) {
                diag_error(s->dl, it->u.param.domain.loc,
                           "param '%s' is 'as smem', but its values include a "
                           "negative byte count",
                           p->name);
                break;
            }
        break;
    case ROUTE_TEMPLATE:
    case ROUTE_NONE: break;
    }
    if (it->u.param.deflt) {
        value v;
        if (sema_lower_const(s, it->u.param.deflt, p->dom.type == VT_INT ? VT_INT : p->dom.type, "a param's default",
                             &v)) {
            if (p->dom.type == VT_FLOAT && v.type == VT_INT)
                v = value_float((double)v.u.i);
            int64_t k = model_domain_find(&p->dom, v);
            if (k < 0) {
                strbuf sb = STRBUF_INIT;
                value_format(v, &sb, true);
                diag_error(s->dl, it->u.param.deflt->loc, "the default %s is not one of the values of param '%s'",
                           sb_cstr(&sb), p->name);
                sb_free(&sb);
            } else {
                p->has_default = true;
                p->default_index = (uint64_t)k;
            }
        }
    }
}
