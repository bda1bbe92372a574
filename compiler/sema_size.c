/* sema_size.c - the `size` statement: the problem sizes a spec is tuned over (see
 * sema_internal.h and docs/language.md, "size").
 *
 *   size n in [1 << 20, 1 << 22];
 *   size (nx, ny) in [(1024, 1024), (4096, 8192)];
 *
 * Each variable is a let; each size gives every variable a value (a positive int). The
 * model's lets hold one size, the one sema_options.size_index selects; the model also
 * keeps every size (model.sizes) so that a run can check the spec again for each
 * (compiler/spec.c, spec_select_size). --set on size variables picks sizes: setting
 * every variable tunes that one size (listed or not); setting some keeps the listed
 * sizes that agree. */
#include "sema_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void sema_collect_size(sema *s, const ast_item *it)
{
    model *m = s->m;
    const ast_name_list *names = &it->u.size.names;
    for (int j = 0; j < names->len; j++) {
        m_let *l = &m->lets[m->nlets];
        l->name = names->items[j].name;
        l->loc = names->items[j].loc;
        l->size_var = s->size_item ? -2 : j; /* -2: of a second statement (sema_check_size reports it) */
        s->let_items[m->nlets] = it;
        if (!s->size_item && ARENA_PUSH(s->a, m->sizes.lets, m->sizes.nvars, s->caps[CAP_SIZES], m->nlets) < 0)
            s->oom = true;
        sema_declare(s, l->name, l->loc, SYM_LET, m->nlets);
        m->nlets++;
    }
    if (!s->size_item) {
        s->size_item = it;
        m->sizes.loc = it->kw_loc;
    }
}

/* The text of a size's values, for messages: "n = 4096" or "nx = 1024, ny = 8192". */
static void describe(const model *m, const int64_t *vals, strbuf *out)
{
    for (int j = 0; j < m->sizes.nvars; j++)
        sb_printf(out, "%s%s = %" PRId64, j ? ", " : "", m->lets[m->sizes.lets[j]].name, vals[j]);
}

/* One size's place for sorting: its values and its index. */
typedef struct size_ref {
    const int64_t *values;
    int nvars, index;
} size_ref;

static int by_values_then_index(const void *pa, const void *pb)
{
    const size_ref *a = pa, *b = pb;
    int c = memcmp(a->values, b->values, sizeof(int64_t) * (size_t)a->nvars);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Each valid size (valid[k]) listed again after its first listing is an error at the
 * repeat, with a note at the first: sorted, so that n sizes cost n log n, not n^2.
 * Sets sizes.count to n; false when a size repeats or memory ran out. */
static bool report_repeats(sema *s, const bool *valid, int n)
{
    model *m = s->m;
    int nv = m->sizes.nvars, nvalid = 0;
    size_ref *refs = sema_alloc(s, sizeof(size_ref) * (size_t)(n + 1));
    if (!refs)
        return false;
    for (int k = 0; k < n; k++)
        if (valid[k])
            refs[nvalid++] = (size_ref){&m->sizes.values[k * nv], nv, k};
    qsort(refs, (size_t)nvalid, sizeof *refs, by_values_then_index);
    bool ok = true;
    for (int i = 1, first = 0; i < nvalid; i++) {
        if (memcmp(refs[i].values, refs[first].values, sizeof(int64_t) * (size_t)nv) != 0) {
            first = i;
            continue;
        }
        strbuf d = STRBUF_INIT;
        describe(m, refs[i].values, &d);
        diag_error(s->dl, m->sizes.locs[refs[i].index], "the size %s is listed twice", sb_ok(&d) ? sb_cstr(&d) : "");
        diag_note(s->dl, true, m->sizes.locs[refs[first].index], "first listed here");
        sb_free(&d);
        ok = false;
    }
    m->sizes.count = n;
    return ok;
}

/* Every size written in the statement: the right number of values, each a positive
 * int constant, none repeated. Fills sizes.values/locs/count; false after an error. */
static bool read_sizes(sema *s)
{
    model *m = s->m;
    const ast_item *it = s->size_item;
    int nv = m->sizes.nvars, n = it->u.size.sizes.len;
    bool ok = true;
    if (n == 0) {
        diag_error(s->dl, it->u.size.list_loc, "a size statement needs at least one size");
        return false;
    }
    m->sizes.values = sema_alloc(s, sizeof(int64_t) * (size_t)(n * nv + 1));
    m->sizes.locs = sema_alloc(s, sizeof(span) * (size_t)(n + 1));
    bool *valid = sema_alloc(s, sizeof(bool) * (size_t)(n + 1));
    if (!m->sizes.values || !m->sizes.locs || !valid)
        return false;
    for (int k = 0; k < n; k++) {
        const ast_size_tuple *t = &it->u.size.sizes.items[k];
        m->sizes.locs[k] = t->loc;
        valid[k] = false;
        if (t->values.len != nv) {
            diag_error(s->dl, t->loc, "this size has %d value%s, but the size statement names %d variable%s%s",
                       t->values.len, t->values.len == 1 ? "" : "s", nv, nv == 1 ? "" : "s",
                       nv > 1 ? " (write each size as a tuple: (a, b))" : "");
            ok = false;
            continue;
        }
        bool row_ok = true;
        for (int j = 0; j < nv; j++) {
            value v;
            const char *outer_reason = s->const_reason;
            s->const_reason = "a problem size must be a constant (it may read lets, not params)";
            bool got = sema_lower_const(s, t->values.items[j], VT_INT, "a problem size", &v);
            s->const_reason = outer_reason;
            if (!got) {
                row_ok = false;
                continue;
            }
            if (v.u.i < 1) {
                diag_error(s->dl, t->values.items[j]->loc,
                           "a problem size must be a positive int, but this is %" PRId64, v.u.i);
                row_ok = false;
            }
            m->sizes.values[k * nv + j] = v.u.i;
        }
        ok &= row_ok;
        valid[k] = row_ok;
    }
    return report_repeats(s, valid, n) && ok;
}

/* --set on size variables: every one set gives the one size set; some set keep the
 * listed sizes that agree with them (an error when none does). */
static void apply_overrides(sema *s)
{
    model *m = s->m;
    int nv = m->sizes.nvars;
    int64_t want[MODEL_MAX_SIZE_VARS];
    bool set[MODEL_MAX_SIZE_VARS];
    span where = m->lets[m->sizes.lets[0]].loc;
    int nset = 0;
    for (int j = 0; j < nv; j++) {
        const m_let *l = &m->lets[m->sizes.lets[j]];
        set[j] = false;
        for (int i = 0; s->opts && i < s->opts->noverrides; i++) {
            if (strcmp(s->opts->overrides[i].name, l->name) != 0)
                continue;
            value v;
            if (!sema_parse_override(s, s->opts->overrides[i].text, &v) || v.type != VT_INT || v.u.i < 1) {
                if (!s->oom)
                    diag_error(s->dl, l->loc, "--set %s=%s: '%s' is a size variable: its value is a positive int",
                               l->name, s->opts->overrides[i].text, l->name);
                return;
            }
            want[j] = v.u.i;
            set[j] = true;
        }
        nset += set[j];
    }
    if (nset == 0)
        return;
    if (nset == nv) { /* one size, listed or not */
        memcpy(m->sizes.values, want, sizeof(int64_t) * (size_t)nv);
        m->sizes.locs[0] = where;
        m->sizes.count = 1;
        for (int j = 0; j < nv; j++)
            m->lets[m->sizes.lets[j]].overridden = true;
        return;
    }
    int kept = 0;
    for (int k = 0; k < m->sizes.count; k++) {
        bool agree = true;
        for (int j = 0; j < nv; j++)
            agree &= !set[j] || m->sizes.values[k * nv + j] == want[j];
        if (!agree)
            continue;
        memmove(&m->sizes.values[kept * nv], &m->sizes.values[k * nv], sizeof(int64_t) * (size_t)nv);
        m->sizes.locs[kept++] = m->sizes.locs[k];
    }
    if (kept == 0) {
        strbuf names = STRBUF_INIT;
        for (int j = 0; j < nv; j++)
            sb_printf(&names, "%s%s", j ? ", " : "", m->lets[m->sizes.lets[j]].name);
        diag_error(s->dl, m->sizes.loc,
                   "--set: no size of this statement has the values set; set every size "
                   "variable (%s) to tune a size that is not listed",
                   sb_ok(&names) ? sb_cstr(&names) : "");
        sb_free(&names);
        return;
    }
    m->sizes.count = kept;
}

texpr *sema_settle_size(sema *s, int index, span use)
{
    model *m = s->m;
    m_let *let = &m->lets[index];
    if (let->size_var < 0 || !s->size_item) { /* a variable of a second size statement: reported there */
        if (s->let_state[index] != ST_DONE)
            let->expr = sema_error_node(s, let->loc);
        let->type = VT_ERROR;
        s->let_state[index] = ST_DONE;
        return let->expr;
    }
    if (s->sizes_done)
        return let->expr;
    if (s->let_state[index] == ST_BUSY) { /* a size reads a size variable */
        diag_error(s->dl, use, "a problem size cannot be computed from a size variable ('%s')", let->name);
        return sema_error_node(s, let->loc);
    }
    for (int j = 0; j < m->sizes.nvars; j++)
        s->let_state[m->sizes.lets[j]] = ST_BUSY;
    if (m->sizes.nvars > MODEL_MAX_SIZE_VARS) {
        diag_error(s->dl, m->lets[m->sizes.lets[MODEL_MAX_SIZE_VARS]].loc, "too many size variables: at most %d",
                   MODEL_MAX_SIZE_VARS);
        m->sizes.count = 0;
    } else if (s->opts && s->opts->sizes) {
        /* Read by an earlier check of this block with these options (its --set
         * applied): shared, as they are, so n sizes checked cost n, not n^2. */
        m->sizes.values = s->opts->sizes->values;
        m->sizes.locs = s->opts->sizes->locs;
        m->sizes.count = s->opts->sizes->count;
    } else if (read_sizes(s)) {
        apply_overrides(s);
    } else {
        m->sizes.count = 0;
    }
    s->sizes_done = true;
    int k = s->opts ? s->opts->size_index : 0;
    if (k < 0 || k >= m->sizes.count)
        k = 0;
    m->sizes.selected = k;
    for (int j = 0; j < m->sizes.nvars; j++) {
        m_let *l = &m->lets[m->sizes.lets[j]];
        l->expr = m->sizes.count ? sema_const_node(s, value_int(m->sizes.values[k * m->sizes.nvars + j]), l->loc)
                                 : sema_error_node(s, l->loc);
        l->type = m->sizes.count ? VT_INT : VT_ERROR;
        s->let_state[m->sizes.lets[j]] = ST_DONE;
    }
    return let->expr;
}

void sema_check_size(sema *s, const ast_item *it)
{
    if (it != s->size_item) {
        diag_error(s->dl, it->kw_loc,
                   "a spec has one size statement; vary several lets together with "
                   "size (a, b) in [(..., ...), ...]");
        diag_note(s->dl, true, s->size_item->kw_loc, "the first size statement is here");
        return;
    }
    if (s->m->sizes.nvars > 0)
        sema_settle_size(s, s->m->sizes.lets[0], it->kw_loc);
}
