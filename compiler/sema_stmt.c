/* sema_stmt.c - the statements other than param, let, metric, arg and verify: search,
 * measure, emit; the paths statements name, the named settings they take and the kernels
 * of the spec's own they refer to; see sema_internal.h. */
#include "sema_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/suggest.h"
#include "eval.h"
#include "plan.h"
#include "rules.h"

/* ---- paths -------------------------------------------------------------------- */

const char *sema_resolve_path(sema *s, const char *rel)
{
    if (rel[0] == '/')
        return rel;
    const char *dir = s->spec->src->dir;
    const char *p = arena_printf(s->a, "%s/%s", dir, rel);
    if (!p)
        s->oom = true;
    return p;
}

void sema_check_file(sema *s, const char *path, span loc, bool want_dir, const char *what)
{
    if (s->opts && s->opts->skip_file_checks)
        return;
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_error(s->dl, loc, "cannot find %s '%s': %s", what, path, strerror(errno));
        return;
    }
    if (want_dir && !S_ISDIR(st.st_mode))
        diag_error(s->dl, loc, "%s '%s' is not a folder", what, path);
    else if (!want_dir && !S_ISREG(st.st_mode))
        diag_error(s->dl, loc, "%s '%s' is not a regular file", what, path);
}

/* ---- statements --------------------------------------------------------------- */

/* Reports a second statement of a kind that may appear once. */
bool sema_once(sema *s, const ast_item **first, const ast_item *it, const char *what)
{
    if (*first) {
        diag_error(s->dl, it->kw_loc, "'%s' is given twice", what);
        diag_note(s->dl, true, (*first)->kw_loc, "first given here");
        return false;
    }
    *first = it;
    return true;
}

int sema_lower_dims(sema *s, const ast_expr_list *dims, span loc, unsigned allow, texpr **out, const char *what)
{
    if (dims->len > 3) {
        diag_error(s->dl, dims->items[3] ? dims->items[3]->loc : loc,
                   "%s has %d dimensions; CUDA allows 1 to 3 "
                   "(x, y, z)",
                   what, dims->len);
        return 0;
    }
    static const char *const axis[] = {"x", "y", "z"};
    for (int i = 0; i < dims->len; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s dimension %s", what, axis[i]);
        out[i] = sema_lower_as(s, dims->items[i], allow, VT_INT, label);
        if (out[i] && out[i]->kind == TX_CONST && out[i]->type == VT_INT && out[i]->u.k.u.i <= 0)
            diag_error(s->dl, out[i]->loc, "%s is %lld; it must be at least 1", label, (long long)out[i]->u.k.u.i);
    }
    return dims->len;
}

void sema_match_settings(sema *s, const ast_arg_list *args, const char *const *keys, int nkeys, const ast_arg **found,
                         const char *owner)
{
    for (int k = 0; k < nkeys; k++)
        found[k] = NULL;
    for (int i = 0; i < args->len; i++) {
        const ast_arg *a = &args->items[i];
        if (!a->name) {
            diag_error(s->dl, a->value->loc, "the settings of %s are named: write key = value", owner);
            continue;
        }
        int k = 0;
        while (k < nkeys && strcmp(keys[k], a->name) != 0)
            k++;
        if (k == nkeys) {
            const char *best = suggest_best(a->name, keys, (size_t)nkeys);
            strbuf sb = STRBUF_INIT;
            for (int j = 0; j < nkeys; j++)
                sb_printf(&sb, "%s%s", j ? ", " : "", keys[j]);
            if (best)
                diag_error(s->dl, a->name_loc, "unknown setting '%s' for %s; did you mean '%s'?", a->name, owner, best);
            else
                diag_error(s->dl, a->name_loc, "unknown setting '%s' for %s (it takes %s)", a->name, owner,
                           sb_cstr(&sb));
            sb_free(&sb);
            continue;
        }
        if (found[k]) {
            diag_error(s->dl, a->name_loc, "setting '%s' is given twice", a->name);
            continue;
        }
        found[k] = a;
    }
}

bool sema_setting_int(sema *s, const ast_arg *a, int64_t min, int64_t *out)
{
    value v;
    if (!a)
        return false;
    char what[80];
    snprintf(what, sizeof what, "setting '%s'", a->name);
    if (!sema_lower_const(s, a->value, VT_INT, what, &v))
        return false;
    if (v.u.i < min) {
        diag_error(s->dl, a->value->loc, "setting '%s' must be at least %lld, not %lld", a->name, (long long)min,
                   (long long)v.u.i);
        return false;
    }
    *out = v.u.i;
    return true;
}

bool sema_setting_float(sema *s, const ast_arg *a, double min, bool strict, double *out)
{
    value v;
    if (!a)
        return false;
    char what[80];
    snprintf(what, sizeof what, "setting '%s'", a->name);
    if (!sema_lower_const(s, a->value, VT_FLOAT, what, &v))
        return false;
    if (strict ? !(v.u.f > min) : !(v.u.f >= min)) {
        diag_error(s->dl, a->value->loc, "setting '%s' must be %s %g, not %g", a->name, strict ? "above" : "at least",
                   min, v.u.f);
        return false;
    }
    *out = v.u.f;
    return true;
}

void sema_check_search(sema *s, const ast_item *it)
{
    m_search *sr = &s->m->search;
    const ast_expr *e = it->u.search;
    sr->loc = it->loc;
    /* `search;` and `search(settings)` name no strategy: the model-based default, as a
     * budget on the command line without a strategy gets. */
    bool unnamed = !e || (e->kind == EX_CALL && !e->u.call.name);
    const char *name = !e ? NULL : e->kind == EX_NAME ? e->u.name : e->kind == EX_CALL ? e->u.call.name : NULL;
    strategy k = STRAT_AUTO;
    if (!unnamed && !model_strategy_from_name(name, &k)) {
        const char *best = name ? suggest_best(name, model_strategy_names(), STRATEGY_COUNT) : NULL;
        span at = e->kind == EX_CALL ? e->u.call.name_loc : e->loc;
        if (best)
            diag_error(s->dl, at, "unknown search strategy '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, at,
                       "unknown search strategy (the strategies are exhaustive, random, anneal, genetic, "
                       "local, guided and auto)");
        return;
    }
    sr->strategy = k;
    if (!e || e->kind != EX_CALL)
        return;
    /* Common budget keys first, then each strategy's own. */
    const char *keys[9] = {"budget", "time", "patience", "seed"};
    int nkeys = 4;
    if (sr->strategy == STRAT_ANNEAL) {
        keys[nkeys++] = "temperature";
        keys[nkeys++] = "cooling";
    } else if (sr->strategy == STRAT_GENETIC) {
        keys[nkeys++] = "population";
        keys[nkeys++] = "mutation";
    } else if (sr->strategy == STRAT_LOCAL) {
        keys[nkeys++] = "restarts";
    }
    const ast_arg *f[9];
    char owner[64];
    snprintf(owner, sizeof owner, "search %s", model_strategy_name(k));
    sema_match_settings(s, &e->u.call.args, keys, nkeys, f, owner);
    int64_t seed = 0;
    sema_setting_int(s, f[0], 1, &sr->budget);
    sema_setting_float(s, f[1], 0.0, true, &sr->time_limit_s);
    sema_setting_int(s, f[2], 1, &sr->patience);
    if (sema_setting_int(s, f[3], 0, &seed))
        sr->seed = (uint64_t)seed;
    for (int i = 4; i < nkeys; i++) {
        if (!f[i])
            continue;
        if (strcmp(keys[i], "population") == 0 || strcmp(keys[i], "restarts") == 0)
            sema_setting_int(s, f[i], 1, strcmp(keys[i], "population") == 0 ? &sr->population : &sr->restarts);
        else if (strcmp(keys[i], "temperature") == 0)
            sema_setting_float(s, f[i], 0.0, true, &sr->temperature);
        else if (strcmp(keys[i], "cooling") == 0 && sema_setting_float(s, f[i], 0.0, true, &sr->cooling) &&
                 sr->cooling >= 1.0)
            diag_error(s->dl, f[i]->value->loc, "cooling must be below 1 (the temperature is multiplied by it)");
        else if (strcmp(keys[i], "mutation") == 0 && sema_setting_float(s, f[i], 0.0, false, &sr->mutation) &&
                 sr->mutation > 1.0)
            diag_error(s->dl, f[i]->value->loc, "mutation is a probability: 0 to 1");
    }
}

void sema_check_measure(sema *s, const ast_item *it)
{
    m_measure *ms = &s->m->measure;
    static const char *const keys[] = {"warmup",   "repeat",  "max_repeat", "spread",
                                       "flush_l2", "timeout", "energy",     "energy_window"};
    const ast_arg *f[8];
    sema_match_settings(s, &it->u.settings, keys, 8, f, "measure");
    sema_setting_int(s, f[0], 0, &ms->warmup);
    sema_setting_int(s, f[1], 1, &ms->repeat);
    sema_setting_int(s, f[2], 1, &ms->max_repeat);
    if (f[1] && !f[2] && ms->max_repeat < ms->repeat)
        ms->max_repeat = ms->repeat; /* the default cap gives way to an explicit minimum */
    sema_setting_float(s, f[3], 0.0, true, &ms->spread);
    if (f[4]) {
        value v;
        if (sema_lower_const(s, f[4]->value, VT_BOOL, "setting 'flush_l2'", &v))
            ms->flush_l2 = v.u.b;
    }
    sema_setting_float(s, f[5], 0.0, true, &ms->timeout_s);
    if (f[6]) {
        value v;
        if (sema_lower_const(s, f[6]->value, VT_BOOL, "setting 'energy'", &v))
            ms->energy = v.u.b;
    }
    if (sema_setting_float(s, f[7], 0.0, false, &ms->energy_window_s) && ms->energy_window_s > 60)
        diag_error(s->dl, f[7]->value->loc,
                   "energy_window is at most 60 s (it is spent on every variant timed in "
                   "full)");
    if (ms->max_repeat < ms->repeat) {
        diag_error(s->dl, f[2] ? f[2]->value->loc : it->loc, "max_repeat (%lld) is below repeat (%lld)",
                   (long long)ms->max_repeat, (long long)ms->repeat);
    }
}

void sema_check_emit(sema *s, const ast_item *it, const ast_item **seen)
{
    static const char *const kinds[] = {"header", "results", "csv"};
    const char *what = it->u.emit.what.name;
    int k = -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(what, kinds[i]) == 0)
            k = i;
    if (k < 0) {
        const char *best = suggest_best(what, kinds, 3);
        if (best)
            diag_error(s->dl, it->u.emit.what.loc, "unknown output '%s'; did you mean '%s'?", what, best);
        else
            diag_error(s->dl, it->u.emit.what.loc, "unknown output '%s' (emit header, results or csv)", what);
        return;
    }
    if (!sema_once(s, &seen[k], it, k == 0 ? "emit header" : k == 1 ? "emit results" : "emit csv"))
        return;
    const char *path = sema_resolve_path(s, it->u.emit.path);
    if (!path)
        return;
    /* What writing it after tuning would stumble on, found now. */
    struct stat st;
    size_t len = strlen(it->u.emit.path);
    if (len == 0)
        diag_error(s->dl, it->u.emit.path_loc, "the path of emit %s is empty", kinds[k]);
    else if (it->u.emit.path[len - 1] == '/')
        diag_error(s->dl, it->u.emit.path_loc, "the path of emit %s names a folder; give the file's name", kinds[k]);
    else if (!(s->opts && s->opts->skip_file_checks) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        diag_error(s->dl, it->u.emit.path_loc, "'%s' is a folder; emit %s writes a file", path, kinds[k]);
    if (it->u.emit.prefix.name && k != 0)
        diag_error(s->dl, it->u.emit.prefix.loc, "only a header takes a prefix");
    m_emit *em = &s->m->emit;
    bool leaves = rules_path_leaves(it->u.emit.path); /* rules.c warns; tuning writes it only where allowed */
    if (k == 0) {
        em->header_leaves = leaves;
        em->header_path = path;
        em->header_loc = it->u.emit.path_loc;
        if (it->u.emit.prefix.name) {
            em->header_prefix = it->u.emit.prefix.name;
            em->header_prefix_loc = it->u.emit.prefix.loc;
        }
    } else if (k == 1) {
        em->results_leaves = leaves;
        em->results_path = path;
        em->results_loc = it->u.emit.path_loc;
    } else {
        em->csv_leaves = leaves;
        em->csv_path = path;
        em->csv_loc = it->u.emit.path_loc;
    }
}

void sema_lower_kernel_ref(sema *s, const ast_reference *ref, const char *what, bool geometry, m_kernel_ref *out)
{
    char label[64];
    out->name = ref->kernel.name;
    out->file = ref->file ? sema_resolve_path(s, ref->file) : s->m->kernel_file;
    if (ref->file && out->file) {
        snprintf(label, sizeof label, "%s file", what);
        sema_check_file(s, out->file, ref->file_loc, false, label);
    }
    out->has_targs = ref->has_targs;
    out->ntargs = ref->targs.len;
    out->targs = sema_alloc(s, sizeof(texpr *) * (size_t)(ref->targs.len + 1));
    for (int i = 0; out->targs && i < ref->targs.len; i++)
        out->targs[i] = sema_lower(s, ref->targs.items[i], CX_CTYPE);
    if (!geometry)
        return;
    snprintf(label, sizeof label, "the %s's block", what);
    out->block_dims = sema_lower_dims(s, &ref->block, ref->block_loc, 0, out->block, label);
    snprintf(label, sizeof label, "the %s's grid", what);
    out->grid_dims = sema_lower_dims(s, &ref->grid, ref->grid_loc, 0, out->grid, label);
}
