/* t1.c - a T1 tuning problem translated into a cutune spec: the file read and checked,
 * its parameters and conditions, the settings (budget, iterations), the verification
 * of its outputs against the default configuration, and the spec's text assembled
 * (t1.h; the geometry and the arguments are t1_args.c's).
 *
 * What the spec holds, in order: a comment naming the T1 file and every note; the
 * kernel block with the compiler options, one param per tuning parameter (its values
 * as a range where they are one, else listed; `default` from Default), one require per
 * condition (the Python text beside it as a comment), the geometry, the arguments,
 * verify, search and measure. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cutune/common.h"
#include "t1.h"
#include "t1_internal.h"
#include "../base/err.h"
#include "../base/sys.h"

bool t1_is_identifier(const char *name)
{
    if (!name[0] || !(name[0] == '_' || ((name[0] | 32) >= 'a' && (name[0] | 32) <= 'z')))
        return false;
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')))
            return false;
    return true;
}

/* reserved: whether name is one of the words (the reserved words when `builtins` is
 * false; the built-in names too when true). */
static bool reserved(const char *name, bool builtins)
{
    static const char *const words[] = {/* reserved words (docs/language.md, section 3) */
                                        "kernel", "from", "include", "options", "param", "in", "out", "inout", "step",
                                        "as", "define", "template", "option", "maxrregcount", "smem", "none", "default",
                                        "let", "require", "block", "grid", "arg", "verify", "against", "config", "atol",
                                        "rtol", "metric", "objective", "minimize", "minimise", "maximize", "maximise",
                                        "search", "measure", "emit", "prefix", "true", "false", "reset", "half", "bf16",
                                        "float", "double", "int8", "uint8", "int16", "uint16", "int", "uint", "int64",
                                        "uint64", "float2", "float4", "double2", "double4", "int2", "int4", "uint2",
                                        "uint4", "char2", "char4", "uchar2", "uchar4", "short2", "short4", "ushort2",
                                        "ushort4", "half2", NULL,
                                        /* built-in names: the measured time and energy, the device attributes */
                                        "time", "time_s", "time_ms", "time_us", "energy_J", "energy_mJ", "power_W",
                                        "sm_count", "max_threads_per_sm", "max_threads_per_block", "regs_per_sm",
                                        "regs_per_block", "smem_per_sm", "smem_per_block", "smem_per_block_optin",
                                        "l2_bytes", "warp_size", "cc_major", "cc_minor", "cc", NULL,
                                        NULL /* the end */};
    for (int k = 0; words[k] || (builtins && words[k + 1]); k++)
        if (words[k] && strcmp(words[k], name) == 0)
            return true;
    return false;
}

bool t1_reserved(const char *name)
{
    return reserved(name, true);
}

bool t1_keyword(const char *name)
{
    return reserved(name, false);
}

const char *t1_quote(t1_state *s, const char *text, const char *path)
{
    t1_py_val v = {.kind = PV_STR, .s = text};
    const char *q = t1_py_text(s->c, &v);
    if (!q)
        t1_error(s->c, path, "\"%s\" holds a control character, which a spec's string cannot", text);
    return q;
}

const char *t1_expr(t1_state *s, json_t *v, const char *path, enum t1_type want)
{
    if (json_is_integer(v) && want == TR_INT)
        return arena_printf(s->c->a, "%lld", (long long)json_integer_value(v));
    if (!t1_want(s->c, v, path, T1_STRING | (want == TR_INT ? T1_INTEGER : 0), "an expression (a string)"))
        return NULL;
    t1_py_src src = {.c = s->c, .text = json_string_value(v), .path = path};
    return t1_translate(&src, &s->names, want);
}

/* ---- parameters ------------------------------------------------------------------------- */

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
    p->spec = p->name;
    while (t1_reserved(p->spec))
        p->spec = arena_printf(s->c->a, "%s_", p->spec);
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

/* comment_text: a single-line comment's text (control characters become blanks). */
static const char *comment_text(t1_state *s, const char *text)
{
    char *r = arena_strdup(s->c->a, text);
    for (char *p = r; p && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    return r ? r : "";
}

/* config_space: the params and the conditions, as statements in `out`. */
static void config_space(t1_state *s, strbuf *out)
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
        names[s->nparams] = (t1_name){.t1 = p->name, .spec = p->spec, .type = p->type};
        s->nparams++;
    }
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
        if (p->spec != p->name)
            sb_printf(out, " as option \"-D%s={}\"", p->name);
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
        sb_printf(out, "    require %s;    # %s\n", text, comment_text(s, expr));
    }
}

/* ---- settings, verification and the spec's text ----------------------------------------- */

/* settings: Budget (search), BenchmarkConfig.iterations (measure), and notes for what
 * has no counterpart (General's objective, Search, BAT's host-side settings). */
static void settings(t1_state *s, strbuf *out)
{
    json_t *budget = t1_member(s->c, s->root, "$", "Budget", false);
    strbuf search = STRBUF_INIT;
    if (budget) {
        size_t n = json_is_array(budget) ? json_array_size(budget) : 1;
        for (size_t i = 0; i < n; i++) {
            json_t *b = json_is_array(budget) ? json_array_get(budget, i) : budget;
            const char *at = json_is_array(budget) ? t1_index(s->c, "$.Budget", i) : "$.Budget";
            if (!t1_want(s->c, b, at, T1_OBJECT, "an object (a budget) or an array of them"))
                continue;
            static const char *const known[] = {"Type", "BudgetValue", NULL};
            t1_check_keys(s->c, b, at, known, NULL, NULL);
            const char *type = t1_string_member(s->c, b, at, "Type", true);
            json_t *value = t1_member(s->c, b, at, "BudgetValue", true);
            const char *vpath = t1_key(s->c, at, "BudgetValue");
            if (!type || !value || !t1_want(s->c, value, vpath, T1_NUMBER, "a number"))
                continue;
            double v = json_number_value(value);
            if (strcmp(type, "ConfigurationCount") == 0) {
                if (!json_is_integer(value) || v < 1)
                    t1_error(s->c, vpath, "a ConfigurationCount is an integer of at least 1");
                else
                    sb_printf(&search, "%sbudget = %lld", search.len ? ", " : "", (long long)json_integer_value(value));
            } else if (strcmp(type, "TuningDuration") == 0) {
                if (!(v > 0) || v > 1e9)
                    t1_error(s->c, vpath, "a TuningDuration is a number of seconds above 0");
                else
                    sb_printf(&search, "%stime = %.3fs", search.len ? ", " : "", v);
            } else if (strcmp(type, "ConfigurationFraction") == 0) {
                t1_note(s->c, at,
                        "a ConfigurationFraction of %g is not translated: a spec's budget is a count (on "
                        "the command line: cutune SPEC --budget %g%%)",
                        v, v * 100);
            } else {
                t1_error(s->c, t1_key(s->c, at, "Type"),
                         "\"%s\" is not a T1 budget type (ConfigurationCount, "
                         "TuningDuration, ConfigurationFraction)",
                         type);
            }
        }
    }
    if (search.len)
        sb_printf(out, "    search(%s);    # T1's Budget: auto, within it\n", sb_cstr(&search));
    sb_free(&search);
    json_t *bc = t1_member(s->c, s->root, "$", "BenchmarkConfig", false);
    if (bc && t1_want(s->c, bc, "$.BenchmarkConfig", T1_OBJECT, "an object")) {
        static const char *const known[] = {"iterations", NULL};
        static const char *const host[] = {"dataSize",          "PRECISION", "MAX_THREADS", "MAX_SHARED_MEMORY_BLOCK",
                                           "MAX_SHARED_MEMORY", NULL};
        t1_check_keys(s->c, bc, "$.BenchmarkConfig", known, host, "a setting of BAT's host code");
        json_t *it = t1_member(s->c, bc, "$.BenchmarkConfig", "iterations", false);
        const char *ipath = "$.BenchmarkConfig.iterations";
        long long n = 0;
        if (json_is_string(it)) {
            char *end;
            n = strtoll(json_string_value(it), &end, 10);
            if (*end || end == json_string_value(it))
                n = 0;
        } else if (json_is_integer(it)) {
            n = json_integer_value(it);
        }
        if (it && (n < 1 || n > 1000000))
            t1_error(s->c, ipath, "is not a number of runs from 1 to 1000000");
        else if (it)
            sb_printf(out, "    measure(repeat = %lld);    # T1's iterations: timed runs per variant\n", n);
    }
    json_t *general = t1_member(s->c, s->root, "$", "General", false);
    if (general && t1_want(s->c, general, "$.General", T1_OBJECT, "an object")) {
        static const char *const known[] = {"BenchmarkName", "OutputFormat", "FormatVersion",  "LoggingLevel",
                                            "TimeUnit",      "OutputFile",   "BenchmarksPath", NULL};
        static const char *const objective[] = {"Objective", "Minimize", NULL};
        t1_check_keys(s->c, general, "$.General", known, objective,
                      "the objective stays the time (for a fixed amount of work, a rate such as GFLOP/s ranks "
                      "the variants as their time does; a metric can be added: docs/language.md, section 15)");
    }
    if (t1_member(s->c, s->root, "$", "Search", false))
        t1_note(s->c, "$.Search",
                "not translated: strategy names and settings differ; the spec keeps cutune's "
                "search (exhaustive, or auto within a budget: docs/search.md)");
}

/* verify: outputs checked against the default configuration when every param has a
 * Default among its values and that configuration meets the conditions. */
static void verify(t1_state *s, strbuf *out)
{
    if (s->noutputs == 0)
        return;
    t1_py_env *env = NULL;
    for (int k = 0; k < s->nparams; k++) {
        if (!s->params[k].has_default) {
            t1_note(s->c, s->params[k].path,
                    "has no Default among its values: the outputs are not verified "
                    "(cutune verifies against a reference configuration)");
            return;
        }
        t1_py_env *e = arena_alloc(s->c->a, sizeof *e);
        if (!e) {
            s->c->oom = true;
            return;
        }
        *e = (t1_py_env){.name = s->params[k].name, .val = s->params[k].def, .next = env};
        env = e;
    }
    for (int k = 0; k < s->nconditions; k++) {
        t1_py_src src = {.c = s->c, .path = s->cond_paths[k], .text = ""};
        t1_py_val v;
        /* an error evaluating it at the defaults is Python's too: the configuration is
         * then no reference, and the error stays a note */
        t1_ctx quiet = *s->c;
        quiet.errors = NULL;
        quiet.nerrors = quiet.caperrors = 0;
        src.c = &quiet;
        if (t1_py_eval(&v, s->conditions[k], env, &src) || !t1_py_truthy(&v)) {
            t1_note(s->c, s->cond_paths[k],
                    "the default configuration does not meet this condition: the outputs "
                    "are not verified (cutune verifies against a reference configuration)");
            return;
        }
    }
    sb_add(out, "    verify ");
    for (int k = 0; k < s->noutputs; k++)
        sb_printf(out, "%s%s", k ? ", " : "", s->outputs[k]);
    sb_add(out, " against config(");
    for (int k = 0; k < s->nparams; k++)
        sb_printf(out, "%s%s = %s", k ? ", " : "", s->params[k].spec, t1_py_text(s->c, &s->params[k].def));
    sb_add(out, ")");
    if (s->float_output)
        sb_add(out, " atol 1e-6 rtol 1e-5");
    sb_add(out, ";    # T1's Output arguments against the Default configuration\n");
}

/* compiler_options: KernelSpecification.CompilerOptions (at kpath) as the quoted,
 * comma-separated list of an options statement, appended to `options`. */
static void compiler_options(t1_state *s, json_t *ks, const char *kpath, strbuf *options)
{
    t1_ctx *c = s->c;
    json_t *opts = t1_member(c, ks, kpath, "CompilerOptions", false);
    const char *opath = t1_key(c, kpath, "CompilerOptions");
    if (!opts || !t1_want(c, opts, opath, T1_ARRAY, "an array of options"))
        return;
    for (size_t i = 0; i < json_array_size(opts); i++) {
        const char *at = t1_index(c, opath, i);
        json_t *o = json_array_get(opts, i);
        if (!t1_want(c, o, at, T1_STRING, "a string"))
            continue;
        const char *text = json_string_value(o);
        if (text[0] != '-') {
            t1_error(c, at, "\"%s\" does not start with '-': cutune passes options to NVRTC as they are", text);
            continue;
        }
        const char *q = t1_quote(s, text, at);
        if (q)
            sb_printf(options, "%s%s", options->len ? ", " : "", q);
    }
}

/* translate: the whole file; the spec's text in *spec_text (NULL after errors). */
static void translate(t1_state *s, char **spec_text)
{
    t1_ctx *c = s->c;
    if (!t1_want(c, s->root, "$", T1_OBJECT, "an object (a T1 tuning problem)"))
        return;
    static const char *const known[] = {"General", "ConfigurationSpace", "KernelSpecification",
                                        "Budget",  "BenchmarkConfig",    "Search",
                                        NULL};
    t1_check_keys(c, s->root, "$", known, NULL, NULL);
    strbuf space = STRBUF_INIT, tail = STRBUF_INIT, spec = STRBUF_INIT;
    config_space(s, &space);
    const char *kpath = "$.KernelSpecification";
    json_t *ks = t1_member(c, s->root, "$", "KernelSpecification", true);
    const char *kernel = NULL, *file = NULL;
    strbuf options = STRBUF_INIT;
    if (ks && t1_want(c, ks, kpath, T1_OBJECT, "an object")) {
        static const char *const kknown[] = {"Language",
                                             "CompilerOptions",
                                             "KernelName",
                                             "KernelFile",
                                             "GlobalSizeType",
                                             "LocalSize",
                                             "GlobalSize",
                                             "GridDivX",
                                             "GridDivY",
                                             "GridDivZ",
                                             "ProblemSize",
                                             "SharedMemory",
                                             "Arguments",
                                             "BenchmarkName",
                                             "BenchmarkPath",
                                             "Stream",
                                             NULL};
        static const char *const host[] = {"Device", "Profiling", "SimulationInput", "ReferenceArguments",
                                           "Misc",   NULL};
        t1_check_keys(c, ks, kpath, kknown, host, "a setting of the tuner's host code");
        if (t1_member(c, ks, kpath, "Stream", false))
            t1_note(c, t1_key(c, kpath, "Stream"), "not translated: cutune launches on its own stream");
        const char *lang = t1_string_member(c, ks, kpath, "Language", true);
        if (lang && strcmp(lang, "CUDA") != 0)
            t1_error(c, t1_key(c, kpath, "Language"), "\"%s\" is not supported: cutune compiles CUDA (NVRTC)", lang);
        kernel = t1_string_member(c, ks, kpath, "KernelName", true);
        if (kernel && !t1_is_identifier(kernel)) {
            t1_error(c, t1_key(c, kpath, "KernelName"), "\"%s\" is not a kernel's name (an identifier)", kernel);
            kernel = NULL;
        } else if (kernel && t1_keyword(kernel)) { /* `kernel param from` does not parse */
            t1_error(c, t1_key(c, kpath, "KernelName"), "\"%s\" is a word a spec reserves: no kernel's name there",
                     kernel);
            kernel = NULL;
        }
        file = t1_string_member(c, ks, kpath, "KernelFile", true);
        compiler_options(s, ks, kpath, &options);
        if (file)
            s->kernel_path = file[0] == '/' || !s->base_dir[0] ? file : arena_printf(c->a, "%s/%s", s->base_dir, file);
        t1_geometry(s, ks, kpath);
        t1_arguments(s, ks, kpath);
    }
    verify(s, &tail);
    settings(s, &tail);
    const char *file_path = NULL;
    if (file) {
        const char *fpath = t1_key(c, kpath, "KernelFile");
        char *full = file[0] == '/' || !s->base_dir[0] ? arena_strdup(c->a, file)
                                                       : arena_printf(c->a, "%s/%s", s->base_dir, file);
        if (full && access(full, F_OK) != 0)
            t1_note(c, fpath, "\"%s\" does not exist (yet): cutune check refuses the spec until it does", full);
        const char *rel = file[0] == '/' ? file : full ? t1_relative(c, s->spec_dir, full) : NULL;
        file_path = rel ? t1_quote(s, rel, fpath) : NULL;
    }
    if (c->nerrors == 0 && !c->oom && kernel && file_path) {
        sb_printf(&spec, "# Imported by cutune import from the T1 tuning problem %s (docs/kernel-tuner.md).\n",
                  comment_text(s, c->file));
        for (int k = 0; k < c->nnotes; k++)
            sb_printf(&spec, "# note: %s\n", comment_text(s, c->notes[k]));
        sb_printf(&spec, "kernel %s from %s {\n", kernel, file_path);
        if (options.len)
            sb_printf(&spec, "    options %s;\n", sb_cstr(&options));
        sb_addn(&spec, sb_cstr(&space), space.len);
        sb_addn(&spec, sb_cstr(&s->body), s->body.len);
        sb_addn(&spec, sb_cstr(&tail), tail.len);
        sb_add(&spec, "}\n");
        if (!sb_ok(&spec) || !sb_ok(&space) || !sb_ok(&tail) || !sb_ok(&options) || !sb_ok(&s->body))
            c->oom = true;
        else
            *spec_text = sb_steal(&spec);
    }
    sb_free(&space);
    sb_free(&tail);
    sb_free(&spec);
    sb_free(&options);
}

/* copy_list: the arena's messages as heap strings for the result. */
static char **copy_list(char **items, int n, bool *oom)
{
    char **r = calloc((size_t)n + 1, sizeof *r);
    if (!r) {
        *oom = true;
        return NULL;
    }
    for (int k = 0; k < n; k++)
        if (!(r[k] = strdup(items[k])))
            *oom = true;
    return r;
}

int t1_import_text(t1_result **out, const char *text, size_t len, const char *name, const char *base_dir,
                   const char *spec_dir)
{
    *out = NULL;
    t1_ctx c = {.a = arena_new(), .file = name ? name : "<t1>"};
    t1_result *r = calloc(1, sizeof *r);
    if (!c.a || !r) {
        arena_free(c.a);
        free(r);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) {
        t1_error(&c, "$", "not JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
    } else {
        t1_state s = {.c = &c,
                      .root = root,
                      .base_dir = base_dir ? base_dir : "",
                      .spec_dir = spec_dir   ? spec_dir
                                  : base_dir ? base_dir
                                             : ""};
        translate(&s, &r->text);
        sb_free(&s.body);
        json_decref(root);
    }
    bool oom = c.oom;
    r->errors = copy_list(c.errors, c.nerrors, &oom);
    r->nerrors = c.nerrors;
    r->notes = copy_list(c.notes, c.nnotes, &oom);
    r->nnotes = c.nnotes;
    arena_free(c.a);
    if (oom) {
        t1_result_free(r);
        return err_set(CUTUNE_ENOMEM, "out of memory translating %s", name ? name : "a T1 file");
    }
    if (r->nerrors) {
        free(r->text);
        r->text = NULL;
    }
    *out = r;
    return 0;
}

int t1_import(t1_result **out, const char *path, const char *spec_path, const char *name)
{
    *out = NULL;
    size_t len;
    char *text = sys_read_file(path, SYS_LIMIT_SOURCE, &len);
    if (!text)
        return err_set(errno == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO, "cannot read %s: %s", path, sys_strerror(errno));
    char *base = strdup(path), *spec = strdup(spec_path ? spec_path : path);
    int rc = -1;
    if (base && spec) {
        char *slash = strrchr(base, '/');
        if (slash)
            slash[slash == base ? 1 : 0] = '\0';
        else
            base[0] = '\0';
        slash = strrchr(spec, '/');
        if (slash)
            slash[slash == spec ? 1 : 0] = '\0';
        else
            spec[0] = '\0';
        rc = t1_import_text(out, text, len, name ? name : path, base, spec);
    } else {
        err_set(CUTUNE_ENOMEM, "out of memory");
    }
    free(base);
    free(spec);
    free(text);
    return rc;
}

void t1_result_free(t1_result *r)
{
    if (!r)
        return;
    for (int k = 0; r->errors && k < r->nerrors; k++)
        free(r->errors[k]);
    for (int k = 0; r->notes && k < r->nnotes; k++)
        free(r->notes[k]);
    free(r->errors);
    free(r->notes);
    free(r->text);
    free(r);
}
