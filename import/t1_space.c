/* t1_space.c - a T1 file's ConfigurationSpace as spec statements (t1.h; docs/kernel-tuner.md):
 * each tuning parameter read and checked (its Values, a Python list or a JSON array, its
 * Type, its Default), written as a param (a range where its ints are one, else the list);
 * each condition translated into a require, the Python text beside it as a comment, and
 * kept parsed for the check of the default configuration (t1_verify, t1_settings.c).
 * A param whose name the best-config header could not define (compiler/hnames.h: `tuned`
 * would make it define P_TUNED, its own macro; `Tile` and `TILE` both P_TILE) is renamed
 * in the spec, its macro kept, as a reserved word is, so that the spec checks and its
 * header can be written. Ownership: the params, names and conditions it sets in the t1_state live in the
 * translation's arena. */
#include <stdint.h>
#include <string.h>

#include "../base/escape.h"
#include "../compiler/hnames.h"
#include "cutune/common.h"
#include "t1_internal.h"

/* value_from_json: a Default or a Values element given as JSON. */
static bool value_from_json(t1_py_val *out, json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_INTEGER: *out = (t1_py_val){.kind = PV_INT, .i = json_integer_value(v)}; return true;
    case JSON_REAL: *out = (t1_py_val){.kind = PV_FLOAT, .f = json_real_value(v)}; return true;
    case JSON_TRUE:
    case JSON_FALSE: *out = (t1_py_val){.kind = PV_BOOL, .i = json_is_true(v)}; return true;
    case JSON_STRING: *out = (t1_py_val){.kind = PV_STR, .s = json_string_value(v)}; return true;
    default: return false;
    }
}

/* read_values: a param's Values: a Python expression in a string (the format's way), or a
 * JSON array. */
static bool read_values(t1_state *s, t1_param *p, json_t *values, const char *path)
{
    if (json_is_array(values)) {
        size_t n = json_array_size(values);
        p->values = (t1_py_val){.kind = PV_LIST, .n = n, .items = arena_alloc(s->c->a, (n + 1) * sizeof(t1_py_val))};
        if (!p->values.items) {
            s->c->oom = true;
            return false;
        }
        for (size_t k = 0; k < n; k++)
            if (!value_from_json(&p->values.items[k], json_array_get(values, k))) {
                t1_error(s->c, t1_index(s->c, path, k), "is %s, expected a number, a bool or a string",
                         t1_type_name(json_array_get(values, k)));
                return false;
            }
        return true;
    }
    if (!t1_want(s->c, values, path, T1_STRING, "a Python list (a string such as \"[1, 2, 4]\")"))
        return false;
    t1_py_src src = {.c = s->c, .text = json_string_value(values), .path = path};
    t1_py_node *n;
    if (t1_py_parse(&n, &src) || t1_py_eval(&p->values, n, NULL, &src))
        return false;
    if (p->values.kind != PV_LIST) {
        t1_py_report(&src, 0, "gives one value, not a list of them");
        return false;
    }
    return true;
}

/* type_values: checks the values against the param's Type (int, uint, float, bool,
 * string; absent: as the values are) and sets p->type. */
static bool type_values(t1_state *s, t1_param *p, const char *type, const char *path)
{
    if (p->values.n == 0) {
        t1_error(s->c, t1_key(s->c, path, "Values"), "no values: the space would be empty");
        return false;
    }
    enum t1_py_vkind kind = p->values.items[0].kind;
    bool mixed_numbers = false;
    for (size_t k = 0; k < p->values.n; k++) {
        t1_py_val *v = &p->values.items[k];
        if (v->kind == PV_LIST) {
            t1_error(s->c, t1_key(s->c, path, "Values"),
                     "value %zu is a list: a param's values are numbers, bools "
                     "or strings",
                     k);
            return false;
        }
        if (v->kind != kind) {
            if ((v->kind == PV_INT || v->kind == PV_FLOAT) && (kind == PV_INT || kind == PV_FLOAT))
                mixed_numbers = true;
            else {
                t1_error(s->c, t1_key(s->c, path, "Values"), "mixes values of two types (value %zu)", k);
                return false;
            }
        }
    }
    /* ints under Type "float" stay ints: Kernel Tuner defines each value as Python
     * writes it (-Dx=2, not 2.0) */
    if (mixed_numbers)
        kind = PV_FLOAT;
    if (type) {
        const char *types[] = {"int", "uint", "float", "bool", "string"};
        enum t1_py_vkind kinds[] = {PV_INT, PV_INT, PV_FLOAT, PV_BOOL, PV_STR};
        int t = 0;
        while (t < 5 && strcmp(types[t], type) != 0)
            t++;
        if (t == 5) {
            t1_error(s->c, t1_key(s->c, path, "Type"),
                     "\"%s\" is not a T1 parameter type (int, uint, float, bool, "
                     "string)",
                     type);
            return false;
        }
        if (kinds[t] != kind && !(kinds[t] == PV_FLOAT && kind == PV_INT)) {
            t1_error(s->c, t1_key(s->c, path, "Values"), "are not of the Type \"%s\"", type);
            return false;
        }
        for (size_t k = 0; t == 1 && k < p->values.n; k++)
            if (p->values.items[k].i < 0) {
                t1_error(s->c, t1_key(s->c, path, "Values"), "the uint param has the value %lld",
                         (long long)p->values.items[k].i);
                return false;
            }
    }
    for (size_t k = 0; kind == PV_FLOAT && k < p->values.n; k++)
        if (p->values.items[k].kind == PV_INT)
            p->values.items[k] = (t1_py_val){.kind = PV_FLOAT, .f = (double)p->values.items[k].i};
    p->type = kind == PV_INT ? TR_INT : kind == PV_FLOAT ? TR_FLOAT : kind == PV_BOOL ? TR_BOOL : TR_STR;
    return true;
}

/* same_value: a Default against a value: numbers by their value, bools with bools,
 * strings with strings. */
static bool same_value(const t1_py_val *a, const t1_py_val *b)
{
    bool na = a->kind == PV_INT || a->kind == PV_FLOAT, nb = b->kind == PV_INT || b->kind == PV_FLOAT;
    if (na && nb)
        return a->kind == PV_INT && b->kind == PV_INT
                   ? a->i == b->i
                   : (a->kind == PV_INT ? (double)a->i : a->f) == (b->kind == PV_INT ? (double)b->i : b->f);
    if (a->kind != b->kind)
        return false;
    return a->kind == PV_BOOL ? a->i == b->i : a->kind == PV_STR && strcmp(a->s, b->s) == 0;
}

/* read_param: TuningParameters[i]. */
static bool read_param(t1_state *s, t1_param *p, json_t *obj, const char *path)
{
    static const char *const known[] = {"Name", "Type", "Values", "Default", NULL};
    if (!t1_want(s->c, obj, path, T1_OBJECT, "an object (a tuning parameter)"))
        return false;
    t1_check_keys(s->c, obj, path, known, NULL, NULL);
    p->path = path;
    p->name = t1_string_member(s->c, obj, path, "Name", true);
    const char *type = t1_string_member(s->c, obj, path, "Type", false);
    json_t *values = t1_member(s->c, obj, path, "Values", true);
    if (!p->name || !values)
        return false;
    if (!t1_is_identifier(p->name)) {
        t1_error(s->c, t1_key(s->c, path, "Name"), "\"%s\" is not an identifier, so it cannot be a macro", p->name);
        return false;
    }
    if (esc_c_keyword(p->name)) { /* Kernel Tuner's #define would redefine the keyword itself */
        t1_error(s->c, t1_key(s->c, path, "Name"),
                 "\"%s\" is a keyword of C or C++, so it cannot be a macro the kernel reads", p->name);
        return false;
    }
    if (!esc_c_name(p->name)) { /* an identifier, so too long for the header's names */
        t1_error(s->c, t1_key(s->c, path, "Name"),
                 "is %zu bytes long: the best-config header's names are at most %d (shorten the macro)",
                 strlen(p->name), ESC_NAME_MAX);
        return false;
    }
    p->spec = p->name;
    while (t1_reserved(p->spec))
        p->spec = arena_printf(s->c->a, "%s_", p->spec);
    p->reserved = p->spec != p->name;
    if (p->spec != p->name)
        t1_note(s->c, t1_key(s->c, path, "Name"),
                "'%s' is a word cutune reserves: the param is '%s', still "
                "defined as the macro %s",
                p->name, p->spec, p->name);
    if (!read_values(s, p, values, t1_key(s->c, path, "Values")) || !type_values(s, p, type, path))
        return false;
    size_t twice = t1_py_unique(s->c, &p->values); /* Kernel Tuner would time them twice */
    if (twice)
        t1_note(s->c, t1_key(s->c, path, "Values"), "%zu value%s listed more than once: each is kept once", twice,
                twice == 1 ? "" : "s");
    json_t *def = t1_member(s->c, obj, path, "Default", false);
    t1_py_val d;
    if (def && value_from_json(&d, def)) {
        for (size_t k = 0; k < p->values.n && !p->has_default; k++)
            if (same_value(&d, &p->values.items[k])) {
                p->has_default = true;
                p->def = p->values.items[k];
            }
        if (!p->has_default)
            t1_note(s->c, t1_key(s->c, path, "Default"), "is not one of the values: left out");
    } else if (def) {
        t1_note(s->c, t1_key(s->c, path, "Default"), "is %s: left out", t1_type_name(def));
    }
    return true;
}

/* values_text: a param's domain: "a .. b", "a .. b step k", "a .. b step *k" where the
 * ints are such a range (three values at least), else the list. */
static const char *values_text(t1_state *s, const t1_param *p)
{
    const t1_py_val *v = p->values.items;
    size_t n = p->values.n;
    if (p->type == TR_INT && n >= 3) {
        int64_t step = v[1].i - v[0].i;
        bool arith = step > 0;
        for (size_t k = 2; arith && k < n; k++)
            arith = v[k].i - v[k - 1].i == step;
        if (arith)
            return step == 1 ? arena_printf(s->c->a, "%lld .. %lld", (long long)v[0].i, (long long)v[n - 1].i)
                             : arena_printf(s->c->a, "%lld .. %lld step %lld", (long long)v[0].i, (long long)v[n - 1].i,
                                            (long long)step);
        bool geo = v[0].i >= 1 && v[1].i % v[0].i == 0 && v[1].i / v[0].i >= 2;
        int64_t factor = geo ? v[1].i / v[0].i : 0;
        for (size_t k = 2; geo && k < n; k++)
            geo = v[k - 1].i <= INT64_MAX / factor && v[k].i == v[k - 1].i * factor;
        if (geo)
            return arena_printf(s->c->a, "%lld .. %lld step *%lld", (long long)v[0].i, (long long)v[n - 1].i,
                                (long long)factor);
    }
    strbuf sb = STRBUF_INIT;
    sb_addc(&sb, '[');
    for (size_t k = 0; k < n; k++) {
        const char *text = t1_py_text(s->c, &v[k]);
        if (!text) {
            t1_error(s->c, t1_key(s->c, p->path, "Values"),
                     "value %zu cannot be written in a spec (not finite, or "
                     "a string with a control character)",
                     k);
            sb_free(&sb);
            return NULL;
        }
        sb_printf(&sb, "%s%s", k ? ", " : "", text);
    }
    sb_addc(&sb, ']');
    const char *r = sb_ok(&sb) ? arena_strdup(s->c->a, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    return r;
}

/* header_prefix: the prefix of the names the spec's header defines: the kernel's name
 * upper-cased, as the checker makes it for a block without `emit header ... prefix`
 * (the importer writes neither that nor `as NAME`); NULL when KernelName is no kernel's
 * name (then the file is refused, t1.c). */
static const char *header_prefix(t1_state *s)
{
    json_t *ks = json_object_get(s->root, "KernelSpecification");
    const char *kernel = json_string_value(json_object_get(ks, "KernelName"));
    if (!kernel || !t1_is_identifier(kernel) || t1_keyword(kernel))
        return NULL;
    char *prefix = arena_strdup(s->c->a, kernel);
    for (char *q = prefix; q && *q; q++)
        if (*q >= 'a' && *q <= 'z')
            *q = (char)(*q - 'a' + 'A');
    if (!prefix)
        s->c->oom = true;
    return prefix;
}

/* taken: whether `name` is the T1 or spec name of a param other than params[self]. */
static bool taken(const t1_state *s, int self, const char *name)
{
    for (int k = 0; k < s->nparams; k++)
        if (k != self && (strcmp(s->params[k].name, name) == 0 || strcmp(s->params[k].spec, name) == 0))
            return true;
    return false;
}

/* the_other: how a note names what a clashing param's name meets in the header. */
static const char *the_other(t1_state *s, const hn_name *other)
{
    switch (other->origin) {
    case HN_PARAM: return arena_printf(s->c->a, "as param '%s' does", other->source);
    case HN_LIBC: return "a name of <math.h> or <string.h>";
    case HN_FIXED: return "which the header defines for itself";
    default: return arena_printf(s->c->a, "as '%s' does", other->source ? other->source : other->name);
    }
}

/* clashing_param: the param to rename next, the first clash among the header's names
 * when `names` are the params' spec names (compiler/hnames.h): the later of two params,
 * or the param against a fixed name; why[k] says why, for the first rename of params[k].
 * -1 when nothing clashes; -2 after an error (a clash of no param: at KernelName) or
 * when memory runs out. */
static int clashing_param(t1_state *s, const char *prefix, const char **names, const char **why)
{
    for (int k = 0; k < s->nparams; k++)
        names[k] = s->params[k].spec;
    hn_block b = {prefix, s->nparams, names, 0, NULL, 0, NULL};
    hn_list *l = NULL;
    if (hn_collect(&l, &b) != CUTUNE_OK) {
        s->c->oom = true;
        return -2;
    }
    hn_clash c;
    int k = -1;
    if (hn_clash_find((const hn_list *const *)&l, 1, &c)) {
        const hn_name *mine = c.b->origin == HN_PARAM ? c.b : c.a->origin == HN_PARAM ? c.a : NULL;
        k = mine ? mine->index : -2;
        if (mine && !why[k] &&
            !(why[k] = arena_printf(s->c->a, "'%s' would make the best-config header define %s, %s", mine->source,
                                    mine->name, the_other(s, mine == c.b ? c.a : c.b)))) {
            s->c->oom = true;
            k = -2;
        }
        if (!mine) {
            strbuf text = STRBUF_INIT;
            hn_clash_text(&text, &c, "", "");
            t1_error(s->c, "$.KernelSpecification.KernelName", "%s", sb_ok(&text) ? sb_cstr(&text) : "names clash");
            sb_free(&text);
        }
    }
    hn_free(l);
    return k;
}

/* header_names: renames (with '_' added) each param whose name the best-config header
 * could not define beside the header's own names, the other params' and <math.h>'s, by
 * the rule the spec's checker and the header apply (clashing_param). Its macro stays the
 * T1 name (`as define NAME`), and a note at its Name says why. Not after an error in a
 * param (two of one name): that file is refused as it is. */
static void header_names(t1_state *s)
{
    const char *prefix = header_prefix(s);
    const char **names = arena_alloc(s->c->a, (size_t)(s->nparams + 1) * sizeof *names);
    const char **why = arena_alloc(s->c->a, (size_t)(s->nparams + 1) * sizeof *why);
    if (!prefix || s->nparams == 0 || s->c->oom || s->c->nerrors > 0)
        return;
    if (!names || !why) {
        s->c->oom = true;
        return;
    }
    /* each round renames one param, and a name only grows: the bound is a guard */
    int k = 0;
    for (int round = 0; round <= 8 * s->nparams && (k = clashing_param(s, prefix, names, why)) >= 0; round++) {
        t1_param *p = &s->params[k];
        do
            p->spec = arena_printf(s->c->a, "%s_", p->spec);
        while (p->spec && (taken(s, k, p->spec) || t1_reserved(p->spec)));
        if (!p->spec) {
            s->c->oom = true;
            return;
        }
        if (!esc_c_name(p->spec)) {
            t1_error(s->c, t1_key(s->c, p->path, "Name"), "%s, and renamed it would be longer than %d bytes", why[k],
                     ESC_NAME_MAX);
            return;
        }
    }
    if (k >= 0)
        t1_error(s->c, "$.ConfigurationSpace.TuningParameters",
                 "no names found for the params that the best-config header can define");
    for (int i = 0; k == -1 && i < s->nparams; i++)
        if (why[i])
            t1_note(s->c, t1_key(s->c, s->params[i].path, "Name"),
                    "%s: the param is '%s', still defined as the macro %s", why[i], s->params[i].spec,
                    s->params[i].name);
}

void t1_config_space(t1_state *s, strbuf *out)
{
    const char *path = "$.ConfigurationSpace";
    json_t *cs = t1_member(s->c, s->root, "$", "ConfigurationSpace", true);
    if (!cs || !t1_want(s->c, cs, path, T1_OBJECT, "an object"))
        return;
    static const char *const known[] = {"TuningParameters", "Conditions", NULL};
    t1_check_keys(s->c, cs, path, known, NULL, NULL);
    const char *ppath = t1_key(s->c, path, "TuningParameters");
    json_t *tp = t1_member(s->c, cs, path, "TuningParameters", true);
    if (!tp || !t1_want(s->c, tp, ppath, T1_ARRAY, "an array of tuning parameters"))
        return;
    size_t n = json_array_size(tp);
    s->params = arena_alloc(s->c->a, (n + 1) * sizeof *s->params);
    t1_name *names = arena_alloc(s->c->a, (n + 1) * sizeof *names);
    if (!s->params || !names) {
        s->c->oom = true;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        t1_param *p = &s->params[s->nparams];
        if (!read_param(s, p, json_array_get(tp, i), t1_index(s->c, ppath, i)))
            continue;
        for (int k = 0; k < s->nparams; k++)
            if (strcmp(s->params[k].name, p->name) == 0)
                t1_error(s->c, t1_key(s->c, p->path, "Name"), "'%s' is also the name of %s", p->name,
                         s->params[k].path);
        s->nparams++;
    }
    header_names(s);
    for (int k = 0; k < s->nparams; k++)
        names[k] = (t1_name){.t1 = s->params[k].name, .spec = s->params[k].spec, .type = s->params[k].type};
    s->names = (t1_names){.names = names, .n = s->nparams};
    for (int k = 0; k < s->nparams; k++) {
        const t1_param *p = &s->params[k];
        const char *domain = values_text(s, p);
        if (!domain)
            continue;
        sb_printf(out, "    param %s in %s", p->spec, domain);
        /* A reserved word cannot follow `as define` (its name is an identifier token):
         * the macro is written as the compiler option itself. The same -DNAME=value,
         * but a bool's value spelled true/false, which CUDA's C++ reads as 1/0, in #if
         * too. */
        if (p->reserved)
            sb_printf(out, " as option \"-D%s={}\"", p->name);
        else if (p->spec != p->name)
            sb_printf(out, " as define %s", p->name);
        if (p->has_default)
            sb_printf(out, " default %s", t1_py_text(s->c, &p->def));
        sb_add(out, ";\n");
    }
    const char *cpath = t1_key(s->c, path, "Conditions");
    json_t *conds = t1_member(s->c, cs, path, "Conditions", false);
    if (!conds || !t1_want(s->c, conds, cpath, T1_ARRAY, "an array of conditions"))
        return;
    size_t nc = json_array_size(conds);
    s->conditions = arena_alloc(s->c->a, (nc + 1) * sizeof *s->conditions);
    s->cond_paths = arena_alloc(s->c->a, (nc + 1) * sizeof *s->cond_paths);
    if (!s->conditions || !s->cond_paths) {
        s->c->oom = true;
        return;
    }
    for (size_t i = 0; i < nc; i++) {
        const char *at = t1_index(s->c, cpath, i);
        json_t *cond = json_array_get(conds, i);
        static const char *const ckeys[] = {"Expression", "Parameters", NULL};
        if (!t1_want(s->c, cond, at, T1_OBJECT, "an object (a condition)"))
            continue;
        t1_check_keys(s->c, cond, at, ckeys, NULL, NULL);
        json_t *params = t1_member(s->c, cond, at, "Parameters", false);
        const char *ppath2 = t1_key(s->c, at, "Parameters");
        if (params && t1_want(s->c, params, ppath2, T1_ARRAY, "an array of parameter names"))
            for (size_t k = 0; k < json_array_size(params); k++) {
                json_t *name = json_array_get(params, k);
                const char *npath = t1_index(s->c, ppath2, k);
                if (!t1_want(s->c, name, npath, T1_STRING, "a parameter's name"))
                    continue;
                int j = 0;
                while (j < s->nparams && strcmp(s->params[j].name, json_string_value(name)) != 0)
                    j++;
                if (j == s->nparams)
                    t1_error(s->c, npath, "'%s' is not a tuning parameter", json_string_value(name));
            }
        const char *epath = t1_key(s->c, at, "Expression");
        const char *expr = t1_string_member(s->c, cond, at, "Expression", true);
        if (!expr)
            continue;
        t1_py_src src = {.c = s->c, .text = expr, .path = epath};
        const char *text = t1_translate(&src, &s->names, TR_BOOL);
        if (!text)
            continue;
        t1_py_node *tree;
        if (t1_py_parse(&tree, &src) == 0) {
            s->cond_paths[s->nconditions] = epath;
            s->conditions[s->nconditions++] = tree;
        }
        sb_printf(out, "    require %s;    # %s\n", text, t1_comment(s, expr));
    }
}
