/* sema_let.c - lets and metrics, lowered on demand with cycle detection, and the
 * values given for lets from outside (--set); see sema_internal.h. */
#include "sema_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../base/utf8.h"

/* ---- lets, metrics, params: settled on demand ------------------------------------- */

bool sema_parse_override(sema *s, const char *text, value *out)
{
    /* Numbers are read as the spec reads them: decimal (010 is ten) or 0x hex, with '_'
     * allowed between digits. */
    char digits[128];
    value_strip_separators(text, digits, sizeof digits);
    char *end;
    errno = 0;
    bool hex = digits[0] == '0' && digits[1] == 'x';
    long long i = strtoll(hex ? digits + 2 : digits, &end, hex ? 16 : 10);
    if (*digits && *end == '\0' && errno == 0 && (!hex || digits[2])) {
        *out = value_int(i);
        return true;
    }
    double d = strtod(digits, &end);
    if (*digits && !hex && *end == '\0') {
        *out = value_float(d);
        return true;
    }
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        *out = value_bool(text[0] == 't');
        return true;
    }
    if (utf8_check(text, strlen(text)) != strlen(text)) { /* as in the spec's own strings */
        *out = value_string(NULL);
        return false;
    }
    *out = value_string(arena_strdup(s->a, text));
    if (!out->u.s)
        s->oom = true;
    return out->u.s != NULL;
}

texpr *sema_settle_let(sema *s, int index, span use)
{
    m_let *let = &s->m->lets[index];
    if (s->let_state[index] == ST_DONE)
        return let->expr;
    if (let->size_var != -1)
        return sema_settle_size(s, index, use);
    if (s->let_state[index] == ST_BUSY) {
        /* The lets settled since this one began form the cycle: a = b * 2, b = a + 1. */
        int from = s->let_depth;
        while (from > 0 && s->let_stack[from - 1] != index)
            from--;
        strbuf via = STRBUF_INIT;
        for (int i = from; i < s->let_depth; i++)
            sb_printf(&via, "%s'%s'",
                      i == from               ? " (through "
                      : i == s->let_depth - 1 ? " and "
                                              : ", ",
                      s->m->lets[s->let_stack[i]].name);
        if (from < s->let_depth)
            sb_add(&via, ")");
        if (!sb_ok(&via))
            s->oom = true;
        diag_error(s->dl, use, "'%s' is defined in terms of itself%s", let->name, sb_ok(&via) ? sb_cstr(&via) : "");
        sb_free(&via);
        diag_note(s->dl, true, let->loc, "'%s' is defined here", let->name);
        let->expr = sema_error_node(s, let->loc);
        s->let_state[index] = ST_DONE;
        return let->expr;
    }
    s->let_state[index] = ST_BUSY;
    s->let_stack[s->let_depth++] = index;
    texpr *t = sema_lower(s, s->let_items[index]->u.let.value, CX_PARAMS);
    s->let_depth--;
    if (s->let_state[index] == ST_DONE) /* a cycle through this let was reported */
        return let->expr;
    for (int i = 0; t && s->opts && i < s->opts->noverrides; i++) {
        if (strcmp(s->opts->overrides[i].name, let->name) != 0)
            continue;
        value v;
        if (!sema_parse_override(s, s->opts->overrides[i].text, &v)) {
            if (!s->oom)
                diag_error(s->dl, let->loc, "--set %s: the value is not UTF-8 text", let->name);
            break;
        }
        if (t->type != VT_ERROR && v.type != t->type && !(t->type == VT_FLOAT && v.type == VT_INT)) {
            diag_error(s->dl, let->loc, "--set %s=%s gives %s, but '%s' is %s", let->name, s->opts->overrides[i].text,
                       a_or_an(v.type), let->name, a_or_an(t->type));
        } else {
            if (t->type == VT_FLOAT && v.type == VT_INT)
                v = value_float((double)v.u.i);
            t = sema_const_node(s, v, let->loc);
            let->overridden = true;
        }
    }
    let->expr = t;
    let->type = t ? t->type : VT_ERROR;
    s->let_state[index] = ST_DONE;
    return t;
}

texpr *sema_settle_metric(sema *s, int index, span use)
{
    m_metric *met = &s->m->metrics[index];
    if (s->metric_state[index] == ST_DONE)
        return met->expr;
    if (s->metric_state[index] == ST_BUSY) {
        diag_error(s->dl, use, "metric '%s' is defined in terms of itself", met->name);
        met->expr = sema_error_node(s, met->loc);
        s->metric_state[index] = ST_DONE;
        return met->expr;
    }
    s->metric_state[index] = ST_BUSY;
    texpr *t = sema_lower(s, s->metric_items[index]->u.let.value, CX_PARAMS | CX_TIME);
    if (s->metric_state[index] == ST_DONE)
        return met->expr;
    if (t && t->type != VT_ERROR && !is_num(t->type)) {
        diag_error(s->dl, t->loc, "metric '%s' must be a number, but it is %s", met->name, a_or_an(t->type));
        t = sema_error_node(s, t->loc);
    }
    met->expr = t;
    s->metric_state[index] = ST_DONE;
    return t;
}
