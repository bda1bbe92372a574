/* header.c - the best-config header (hdr_emit, for the public emitter; docs/header.md): the
 * winner of one or more tuning runs (one per device), or a spec's default
 * configuration, as C macros, a configuration struct with a look-up by device, and
 * the launch geometry as inline functions of the problem size. The text is plain
 * C11 and C++ and compiles cleanly under -Wall -Wextra -pedantic and with nvcc. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler/cexpr.h"
#include "../compiler/hnames.h"
#include "../compiler/space.h"
#include "../base/err.h"
#include "../base/escape.h"
#include "../compiler/spec.h"
#include "../session/session.h"
#include "header.h"
#include "header_internal.h"

/* ---- small writers ----------------------------------------------------------------- */

/* Text safe inside a C comment (base/escape.h). */
static void comment_text(strbuf *out, const char *s)
{
    esc_c_comment(out, s);
}

static void upper(strbuf *out, const char *s)
{
    for (; *s; s++)
        sb_addc(out, (char)toupper((unsigned char)*s));
}

/* A param value as a C literal: ints and floats as cexpr writes them, bools as 1/0,
 * strings as C strings. */
static void literal(strbuf *out, value v)
{
    switch (v.type) {
    case VT_BOOL: sb_add(out, v.u.b ? "1" : "0"); break;
    case VT_STRING: cexpr_string(v.u.s, out); break;
    default: cexpr_value(v, out); break;
    }
}

void hdr_literal(strbuf *out, value v)
{
    literal(out, v);
}
void hdr_upper(strbuf *out, const char *s)
{
    upper(out, s);
}
void hdr_comment(strbuf *out, const char *s)
{
    comment_text(out, s);
}

static void joined(strbuf *out, const char *const *items, int from, int to)
{
    strbuf s = STRBUF_INIT;
    for (int i = from; i < to; i++)
        sb_printf(&s, "%s%s", i > from ? " " : "", items[i]);
    cexpr_string(sb_cstr(&s), out);
    sb_free(&s);
}

/* The register cap among the options (the last one wins, as for NVRTC); 0 when none. */
static long maxrregcount(const cutune_variant *v)
{
    long cap = 0;
    for (int i = 0; i < v->noptions; i++) {
        const char *o = v->options[i];
        while (*o == '-')
            o++;
        if (strncmp(o, "maxrregcount", 12) != 0)
            continue;
        if (o[12] == '=')
            cap = strtol(o + 13, NULL, 10);
        else if (o[12] == '\0' && i + 1 < v->noptions)
            cap = strtol(v->options[i + 1], NULL, 10);
    }
    return cap;
}

static void format_number(strbuf *out, double d)
{
    if (!isfinite(d)) {
        sb_add(out, "0.0");
        return;
    }
    cexpr_value(value_float(d), out);
}

/* ---- the entries ---------------------------------------------------------------------- */

static bool better(const cutune_measurement *a, const cutune_measurement *b, int maximize)
{
    return maximize ? a->objective > b->objective : a->objective < b->objective;
}

/* The best complete measurement other than the winner. */
static const cutune_measurement *runner_up(const cutune_tune_result *r, const cutune_measurement *best)
{
    const cutune_measurement *ru = NULL;
    int maximize = r->summary.maximize;
    for (uint64_t i = 0; i < r->n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        if (m == best || !record_can_win(r->records[i]))
            continue;
        if (!ru || better(m, ru, maximize))
            ru = m;
    }
    return ru;
}

/* The default configuration: checked against every constraint, then planned. */
int hdr_default_entry(hdr *h, arena *a, entry *e)
{
    cutune_spec *spec = h->spec;
    const model *m = h->m;
    value *vals = arena_alloc(a, sizeof(value) * (size_t)(m->nparams + 1));
    cutune_variant *cv = arena_alloc(a, sizeof *cv);
    const char **texts = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    char *types = arena_alloc(a, (size_t)m->nparams + 1);
    if (!vals || !cv || !texts || !types)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < m->nparams; i++) {
        const m_param *p = &m->params[i];
        vals[i] = model_domain_at(&p->dom, p->has_default ? p->default_index : 0);
        types[i] = vtype_name(p->dom.type)[0];
    }
    eval_env env = {m, vals, false, 0.0, NULL, false, 0.0, 0.0};
    eval_error err;
    for (int k = 0; k < m->nrequires; k++) {
        bool ok;
        if (m->requires[k].pin)
            continue; /* --config narrowed the run, not the header's defaults */
        if (eval_bool(m->requires[k].expr, &env, &ok, &err) < 0)
            return spec_eval_failed(spec, &err);
        if (!ok) {
            strbuf s = STRBUF_INIT;
            space_describe_config(m, vals, ~(param_set)0, &s);
            diag_error(&spec->diags, m->requires[k].loc,
                       "the default configuration (%s) violates this constraint; give the params defaults that "
                       "satisfy it (param x in [...] default v)",
                       sb_cstr(&s));
            sb_free(&s);
            return CUTUNE_ESPEC;
        }
    }
    int st = session_variant_of(spec->model, &spec->diags, vals, a, texts, types, 0, cv);
    if (st < 0)
        return st;
    e->v = cv;
    e->ncommon = cv->ncommon_options;
    e->vals = vals;
    h->types = types;
    return CUTUNE_OK;
}

/* ---- the text -------------------------------------------------------------------------- */

static void describe_config(strbuf *out, const hdr *h, const cutune_variant *v)
{
    for (int i = 0; i < h->nparams; i++) {
        sb_add(out, i ? " " : "");
        comment_text(out, h->names[i]);
        sb_addc(out, '=');
        comment_text(out, v->values[i]);
    }
}

static void describe_measurement(strbuf *out, const hdr *h, const cutune_tune_result *r, const char *label,
                                 const cutune_measurement *m)
{
    const cutune_tune_summary *s = &r->summary;
    sb_printf(out, " *   %-9s #%llu ", label, (unsigned long long)m->variant->ordinal);
    describe_config(out, h, m->variant);
    sb_printf(out, "\n *             median %.6g ms, ", m->median_ms);
    comment_text(out, s->objective_name);
    sb_printf(out, " %.6g (%s)\n", m->objective, s->maximize ? "maximize" : "minimize");
    if (m->energy) /* measured when asked for (measure(energy = true), --energy) */
        sb_printf(out, " *             energy %.6g J per launch at %.4g W (the board's, NVML)\n", m->energy_j,
                  m->power_w);
}

static void provenance(hdr *h, const cutune_header_options *opts)
{
    strbuf *o = &h->out;
    sb_add(o, "/* ");
    if (opts && opts->file_name) {
        comment_text(o, opts->file_name);
        sb_add(o, " - ");
    }
    sb_add(o, h->tuned ? "the tuned configuration of kernel " : "the DEFAULT configuration of kernel ");
    comment_text(o, h->kernel);
    if (h->block && strcmp(h->block, h->kernel) != 0) {
        sb_add(o, " as ");
        comment_text(o, h->block);
    }
    sb_printf(o, ", generated by cutune %s\n * (`cutune emit header`). Do not edit: generate it again.\n *\n",
              CUTUNE_VERSION);
    const char *spec_path = h->spec ? h->spec->path : h->n && h->e[0].r ? h->e[0].r->spec_path : NULL;
    if (spec_path) {
        sb_add(o, " * spec: ");
        comment_text(o, spec_path);
        sb_add(o, "\n");
    }
    if (!h->tuned) {
        sb_add(o, " *\n * NOT TUNED: default config. Each param has its `default`, else its first value;\n"
                  " * nothing was measured. Tune the spec (cutune SPEC) and emit the header from its\n"
                  " * results for a measured choice.\n *\n * configuration: ");
        describe_config(o, h, h->e[0].v);
        sb_add(o, "\n */\n");
        return;
    }
    for (int k = 0; k < h->n; k++) {
        const entry *e = &h->e[k];
        const cutune_tune_result *r = e->r;
        const cutune_tune_summary *s = &r->summary;
        const cutune_device *d = &r->device;
        sb_printf(o, " *\n * entry %d%s: ", k, k == 0 ? " (the default)" : "");
        comment_text(o, d->name);
        hdr_sizes_describe(o, h, e);
        sb_printf(o, ", ");
        comment_text(o, d->arch);
        sb_printf(o, " (compute capability %d.%d), driver %d.%d\n", d->cc / 10, d->cc % 10, d->driver_version / 1000,
                  d->driver_version % 1000 / 10);
        if (h->m && h->m->device_used) { /* the device attributes the spec reads, as this run had them */
            dev_values dv;
            dev_values_from_device(&dv, d);
            sb_add(o, " *   device attributes read by the spec:");
            if (d->warp_size == 0) /* a results file from before they were recorded */
                sb_add(o, " not recorded in these results");
            for (int i = 0, n = 0; d->warp_size && i < DA_COUNT; i++)
                if (h->m->device_used >> i & 1)
                    sb_printf(o, "%s %s %lld", n++ ? "," : "", dev_attr_name((dev_attr)i), (long long)dv.v[i]);
            sb_add(o, "\n");
        }
        sb_add(o, " *   tuned ");
        comment_text(o, r->date ? r->date : "");
        if (e->source) {
            sb_add(o, ", results ");
            comment_text(o, e->source);
        }
        sb_printf(o, "\n *   %llu configurations measured: %llu timed, %llu wrong, %llu failed, %llu cannot launch%s\n",
                  (unsigned long long)s->variants, (unsigned long long)s->timed, (unsigned long long)s->wrong,
                  (unsigned long long)s->failed, (unsigned long long)s->unlaunchable,
                  s->interrupted ? " (interrupted: part of the space)" : "");
        describe_measurement(o, h, r, "winner", e->best);
        if (e->runner_up)
            describe_measurement(o, h, r, "runner-up", e->runner_up);
        else
            sb_add(o, " *   runner-up none\n");
    }
    sb_printf(o,
              " *\n * The macros hold entry 0. %s_lookup(device_name, compute_capability) picks an\n"
              " * entry: the exact device name and compute capability, else the first entry of\n"
              " * the same compute capability, else entry 0. The dimensions are at the problem\n"
              " * size tuned.%s\n */\n",
              h->P,
              h->nsize_vars ? "\n * The entries are per device and problem size: the _lookup_size function picks,\n"
                              " * among a device's entries, the one tuned at a size or the nearest (docs/header.md)."
                            : "");
}

static void macros(hdr *h)
{
    strbuf *o = &h->out;
    const entry *e = &h->e[0];
    const cutune_variant *v = e->v;
    const char *P = h->P;
    sb_printf(o, "#define %s_TUNED %d\n", P, h->tuned ? 1 : 0);
    sb_printf(o, "#define %s_DEVICE_NAME ", P);
    cexpr_string(e->r ? e->r->device.name : "", o);
    sb_printf(o, "\n#define %s_COMPUTE_CAPABILITY %d\n\n/* the params */\n", P, e->r ? e->r->device.cc : 0);
    for (int i = 0; i < h->nparams; i++) {
        sb_printf(o, "#define %s_", P);
        upper(o, h->names[i]);
        sb_addc(o, ' ');
        literal(o, e->vals[i]);
        sb_addc(o, '\n');
    }
    if (h->nsize_vars)
        hdr_sizes_macros(h);
    sb_add(o, "\n/* the launch (at the problem size tuned) */\n");
    const char *axes = "XYZ";
    for (int i = 0; i < 3; i++)
        sb_printf(o, "#define %s_BLOCK_DIM_%c %lld\n", P, axes[i], (long long)v->block[i]);
    for (int i = 0; i < 3; i++)
        sb_printf(o, "#define %s_GRID_DIM_%c %lld\n", P, axes[i], (long long)v->grid[i]);
    sb_printf(o, "#define %s_SMEM_BYTES %lld\n\n/* how it was compiled */\n", P, (long long)v->smem_bytes);
    sb_printf(o, "#define %s_MAXRREGCOUNT %ld\n#define %s_COMPILE_OPTIONS ", P, maxrregcount(v), P);
    joined(o, v->options, e->ncommon, v->noptions);
    sb_printf(o, "\n#define %s_DEFINES ", P);
    joined(o, v->defines, 0, v->ndefines);
    sb_add(o, "\n");
}

static void config_type(hdr *h)
{
    strbuf *o = &h->out;
    const char *P = h->P;
    sb_printf(o, "\n/* one entry per device%s */\ntypedef struct %s_params {\n",
              h->nsize_vars ? " and problem size" : "", P);
    for (int i = 0; i < h->nparams; i++) {
        vtype t = h->types[i] == 'i'   ? VT_INT
                  : h->types[i] == 'f' ? VT_FLOAT
                  : h->types[i] == 'b' ? VT_BOOL
                                       : VT_STRING;
        const char *ct = cexpr_type(t);
        sb_printf(o, "    %s%s", ct, ct[strlen(ct) - 1] == '*' ? "" : " ");
        cexpr_ident(h->names[i], o);
        sb_add(o, ";\n");
    }
    if (h->nparams == 0)
        sb_add(o, "    char none; /* the spec has no params */\n");
    sb_printf(o, "} %s_params;\n\n", P);
    sb_printf(o,
              "typedef struct %s_config {\n"
              "    const char *device_name;       /* \"\" when not tuned */\n"
              "    int compute_capability;        /* 90 for sm_90; 0 when not tuned */\n"
              "    int tuned;                     /* 0: the spec's default configuration */\n"
              "    %s_params params;\n"
              "    unsigned int block_dim[3];     /* at the problem size tuned */\n"
              "    unsigned int grid_dim[3];\n"
              "    unsigned int smem_bytes;       /* dynamic shared memory */\n"
              "    int maxrregcount;              /* 0: no cap */\n"
              "    const char *compile_options;   /* the per-variant options */\n"
              "    const char *defines;           /* \"-DNAME=value ...\" */\n"
              "    double time_ms;                /* the median time measured; 0 when not tuned */\n"
              "    double objective;              /* the objective's value; 0 when not tuned */\n"
              "    double energy_j;               /* joules per launch, the board's; 0 when not measured */\n",
              P, P);
    if (h->nsize_vars)
        hdr_sizes_fields(h);
    sb_printf(o, "} %s_config;\n", P);
}

static void entry_init(hdr *h, const entry *e)
{
    strbuf *o = &h->out;
    const cutune_variant *v = e->v;
    sb_add(o, "        {");
    cexpr_string(e->r ? e->r->device.name : "", o);
    sb_printf(o, ", %d, %d, {", e->r ? e->r->device.cc : 0, h->tuned ? 1 : 0);
    for (int i = 0; i < h->nparams; i++) {
        sb_add(o, i ? ", " : "");
        literal(o, e->vals[i]);
    }
    if (h->nparams == 0)
        sb_add(o, "0");
    sb_printf(o, "}, {%lldu, %lldu, %lldu}, {%lldu, %lldu, %lldu}, %lldu, %ld,\n         ", (long long)v->block[0],
              (long long)v->block[1], (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1],
              (long long)v->grid[2], (long long)v->smem_bytes, maxrregcount(v));
    joined(o, v->options, e->ncommon, v->noptions);
    sb_add(o, ", ");
    joined(o, v->defines, 0, v->ndefines);
    sb_add(o, ", ");
    format_number(o, e->best ? e->best->median_ms : 0);
    sb_add(o, ", ");
    format_number(o, e->best ? e->best->objective : 0);
    sb_add(o, ", ");
    format_number(o, e->best && e->best->energy ? e->best->energy_j : 0);
    if (h->nsize_vars)
        hdr_sizes_init(h, e);
    sb_add(o, "}");
}

void hdr_table_rows(hdr *h)
{
    for (int k = 0; k < h->n; k++) {
        entry_init(h, &h->e[k]);
        sb_add(&h->out, k + 1 < h->n ? ",\n" : "\n");
    }
}

static void lookup(hdr *h)
{
    strbuf *o = &h->out;
    const char *P = h->P;
    sb_printf(o,
              "\n/* %s_lookup: the entry for a device (never NULL): the exact name and compute\n"
              " * capability, else the first entry of the same compute capability, else entry 0.\n"
              " * device_name may be NULL (then only the compute capability counts). */\n"
              "static inline const %s_config *%s_lookup(const char *device_name, int compute_capability)\n"
              "{\n    static const %s_config table[%d] = {\n",
              P, P, P, P, h->n);
    hdr_table_rows(h);
    sb_printf(o,
              "    };\n"
              "    int i, same_cc = -1;\n"
              "    for (i = 0; i < %d; i++) {\n"
              "        const char *a = device_name, *b = table[i].device_name;\n"
              "        if (table[i].compute_capability != compute_capability)\n"
              "            continue;\n"
              "        if (same_cc < 0)\n"
              "            same_cc = i;\n"
              "        if (!a)\n"
              "            continue;\n"
              "        while (*a && *a == *b) {\n"
              "            a++;\n"
              "            b++;\n"
              "        }\n"
              "        if (*a == *b)\n"
              "            return &table[i];\n"
              "    }\n"
              "    return &table[same_cc >= 0 ? same_cc : 0];\n"
              "}\n",
              h->n);
}

/* One function of the problem size for expression `e` (NULL or reading no let: none).
 * config_form: the params are read from a configuration; else entry 0's values. */
static int function(hdr *h, const texpr *e, const char *name, bool config_form)
{
    if (!e)
        return CUTUNE_OK;
    const model *m = h->m;
    bool *used = calloc((size_t)m->nlets + 1, sizeof(bool));
    const char **texts = calloc((size_t)m->nparams + 1, sizeof(char *));
    strbuf fields = STRBUF_INIT, body = STRBUF_INIT;
    int rc = CUTUNE_OK;
    if (!used || !texts) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    /* Param texts, NUL-separated in one buffer: "config->params.block_x". */
    size_t *offs = calloc((size_t)m->nparams + 1, sizeof(size_t));
    if (!offs) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (int i = 0; i < m->nparams; i++) {
        offs[i] = fields.len;
        sb_add(&fields, "config->params.");
        cexpr_ident(m->params[i].name, &fields);
        sb_addc(&fields, '\0');
    }
    for (int i = 0; i < m->nparams && sb_ok(&fields); i++)
        texts[i] = fields.data + offs[i];
    free(offs);
    cexpr_ctx ctx = {m, h->spec->ast, config_form ? NULL : h->e[0].vals, texts, used, false, false, h->P, 0};
    if (!cexpr_reads_lets(&ctx, e))
        goto done;
    eval_error err;
    if (cexpr_print(&ctx, e, &body, &err) < 0) {
        rc = spec_eval_failed(h->spec, &err);
        goto done;
    }
    h->needs_math |= ctx.needs_math;
    h->needs_string |= ctx.needs_string;
    h->helpers |= ctx.helpers;
    strbuf *o = config_form ? &h->cfuncs : &h->funcs;
    sb_printf(o, "static inline long long %s_%s%s(", h->P, config_form ? "config_" : "", name);
    bool first = true;
    if (config_form) {
        sb_printf(o, "const %s_config *config", h->P);
        first = false;
    }
    for (int i = 0; i < m->nlets; i++) {
        if (!used[i])
            continue;
        const char *ct = cexpr_type(m->lets[i].type);
        sb_printf(o, "%s%s%s", first ? "" : ", ", ct, ct[strlen(ct) - 1] == '*' ? "" : " ");
        cexpr_ident(m->lets[i].name, o);
        first = false;
    }
    if (first)
        sb_add(o, "void");
    sb_add(o, ")\n{\n");
    if (config_form)
        sb_add(o, "    (void)config;\n");
    sb_printf(o, "    return %s;\n}\n", sb_cstr(&body));
done:
    free(used);
    free(texts);
    sb_free(&fields);
    sb_free(&body);
    return rc;
}

static int functions(hdr *h)
{
    const model *m = h->m;
    static const char *const block_names[] = {"block_dim_x", "block_dim_y", "block_dim_z"};
    static const char *const grid_names[] = {"grid_dim_x", "grid_dim_y", "grid_dim_z"};
    for (int form = 0; form < 2; form++) {
        int rc = CUTUNE_OK;
        for (int i = 0; rc == CUTUNE_OK && i < m->block_dims; i++)
            rc = function(h, m->block[i], block_names[i], form == 1);
        for (int i = 0; rc == CUTUNE_OK && i < m->grid_dims; i++)
            rc = function(h, m->grid[i], grid_names[i], form == 1);
        if (rc == CUTUNE_OK)
            rc = function(h, m->smem, "smem_bytes", form == 1);
        if (rc != CUTUNE_OK)
            return rc;
    }
    return CUTUNE_OK;
}

static void assemble(hdr *h, const cutune_header_options *opts)
{
    provenance(h, opts);
    strbuf *o = &h->out;
    sb_printf(o, "#ifndef CUTUNE_%s_H\n#define CUTUNE_%s_H\n\n", h->P, h->P);
    if (h->needs_math)
        sb_add(o, "#include <math.h>\n");
    if (h->needs_string)
        sb_add(o, "#include <string.h>\n");
    if (h->needs_math || h->needs_string)
        sb_add(o, "\n");
    macros(h);
    if (h->helpers) {
        sb_printf(o, "\n/* the language's integer //, %%, cdiv, << and >> (docs/header.md, \"Arithmetic\"): what\n"
                     " * cutune computes, for every sign; 0 where cutune refuses (a zero divisor, an overflow,\n"
                     " * a shift count outside 0..63), never C's undefined behaviour */\n");
        cexpr_helpers(o, h->P, h->helpers);
    }
    if (h->funcs.len) {
        sb_add(o, "\n/* the launch for other problem sizes: the spec's expressions with entry 0's params\n"
                  " * (arguments: the spec's `let`s they read) */\n");
        sb_add(o, sb_cstr(&h->funcs));
    }
    config_type(h);
    lookup(h);
    if (h->nsize_vars)
        hdr_sizes_lookup(h);
    if (h->cfuncs.len) {
        sb_printf(o, "\n/* the same for any entry (e.g. %s_lookup's) */\n", h->P);
        sb_add(o, sb_cstr(&h->cfuncs));
    }
    sb_printf(o, "\n#endif /* CUTUNE_%s_H */\n", h->P);
}

/* ---- the entry point ------------------------------------------------------------------- */

static int prepare(hdr *h, arena *a, const cutune_tune_result *const *results, int nresults,
                   const cutune_header_options *opts)
{
    const cutune_tune_result **flat;
    const char **srcs;
    int rc = hdr_flatten(h, a, results, nresults, opts, &flat, &srcs);
    if (rc != CUTUNE_OK)
        return rc;
    int n = h->n;
    for (int k = 0; k < n; k++) {
        const cutune_tune_result *r = flat[k];
        const char *src = srcs[k];
        if (h->nsize_vars) { /* the same size variables everywhere */
            bool same = r->nsize_vars == h->nsize_vars && r->size_values;
            for (int j = 0; same && j < h->nsize_vars; j++)
                same = strcmp(r->size_vars[j], h->size_vars[j]) == 0;
            if (!same)
                return hdr_fail("results over different size variables cannot share a header (%s)",
                                src ? src : "a results file");
        }
        if (!result_best(r)) {
            if (r->size_values) {
                strbuf d = STRBUF_INIT;
                entry tmp = {.size = r->size_values};
                hdr_sizes_describe(&d, h, &tmp);
                int f = hdr_fail("%s: no variant ran correctly%s, so there is no winner to write",
                                 src ? src : "the results", sb_ok(&d) ? sb_cstr(&d) : "");
                sb_free(&d);
                return f;
            }
            return hdr_fail("%s: no variant ran correctly, so there is no winner to write", src ? src : "the results");
        }
        if (k == 0) {
            h->kernel = r->kernel;
            h->block = r->block;
            h->nparams = r->nparams;
            h->names = r->param_names;
            h->types = arena_alloc(a, (size_t)r->nparams + 1);
            if (!h->types)
                return CUTUNE_ENOMEM;
            for (int i = 0; i < r->nparams; i++)
                h->types[i] = r->param_types[i][0] == 'b'   ? 'b'
                              : r->param_types[i][0] == 'f' ? 'f'
                              : r->param_types[i][0] == 's' ? 's'
                                                            : 'i';
        } else {
            if (strcmp(r->kernel, h->kernel) != 0)
                return hdr_fail("results of different kernels ('%s' and '%s') cannot share a header", h->kernel,
                                r->kernel);
            if (h->block && r->block && strcmp(r->block, h->block) != 0)
                return hdr_fail("results of different kernel blocks ('%s' and '%s') cannot share a header", h->block,
                                r->block);
            bool same = r->nparams == h->nparams;
            for (int i = 0; same && i < h->nparams; i++)
                same = strcmp(r->param_names[i], h->names[i]) == 0 &&
                       strcmp(r->param_types[i], flat[0]->param_types[i]) == 0;
            if (!same)
                return hdr_fail("results with different params cannot share a header (%s)",
                                src ? src : "a results file");
        }
        entry *e = &h->e[k];
        e->r = r;
        e->best = result_best(r);
        e->runner_up = runner_up(r, e->best);
        e->v = e->best->variant;
        e->vals = result_record_of(e->best)->vals; /* the typed configuration: never its text read back */
        if (!e->vals)
            return hdr_fail("%s holds a winner without its configuration's values", src ? src : "a result");
        e->ncommon = e->v->ncommon_options;
        e->source = src;
        e->size = r->size_values;
    }
    for (int k = 0; k < n; k++) /* one entry per device (and size): the look-up would never reach a second */
        for (int q = 0; q < k; q++) {
            const entry *e = &h->e[k], *f = &h->e[q];
            bool same = strcmp(e->r->device.name, f->r->device.name) == 0 && e->r->device.cc == f->r->device.cc;
            for (int j = 0; same && j < h->nsize_vars; j++)
                same = e->size[j] == f->size[j];
            if (!same)
                continue;
            strbuf d = STRBUF_INIT, at = STRBUF_INIT;
            esc_c_string(&d, e->r->device.name); /* as a C string's contents: printable, whatever the file held */
            hdr_sizes_describe(&at, h, e);
            rc =
                hdr_fail("%s and %s are both of device \"%s\" (compute capability %d)%s: the look-up would never reach "
                         "the second's entry; give one results file per device%s",
                         f->source ? f->source : "a results file", e->source ? e->source : "another",
                         sb_ok(&d) ? sb_cstr(&d) : "", e->r->device.cc, sb_ok(&at) ? sb_cstr(&at) : "",
                         h->nsize_vars ? " and size" : "");
            sb_free(&d);
            sb_free(&at);
            return rc;
        }
    if (h->m) {
        rc = hdr_check_spec(h);
        if (rc != CUTUNE_OK)
            return rc;
        for (int k = 0; k < n; k++)
            h->e[k].ncommon = h->m->noptions + h->m->nincludes;
    }
    return h->nsize_vars ? hdr_sizes_prepare(h) : CUTUNE_OK;
}

/* The header's entries, prefix and names, checked (everything before its text): into h,
 * its allocations in `a` and `prefix`. CUTUNE_OK, or an error with the error object set
 * (or a diagnostic on the spec). */
static int setup(hdr *h, arena *a, strbuf *prefix, cutune_spec *spec, const cutune_tune_result *const *results,
                 int nresults, const cutune_header_options *opts)
{
    memset(h, 0, sizeof *h);
    h->spec = spec;
    h->m = spec ? spec->model : NULL;
    h->n = nresults > 0 ? nresults : 1;
    h->tuned = nresults > 0;
    h->e = arena_alloc(a, sizeof(entry) * (size_t)h->n); /* prepare() makes room for every size */
    if (!h->e)
        return CUTUNE_ENOMEM;
    int rc;
    if (nresults > 0) {
        rc = prepare(h, a, results, nresults, opts);
    } else {
        h->kernel = h->m->kernel;
        h->block = h->m->block_name;
        h->nparams = h->m->nparams;
        const char **names = arena_alloc(a, sizeof(char *) * (size_t)(h->m->nparams + 1));
        for (int i = 0; names && i < h->m->nparams; i++)
            names[i] = h->m->params[i].name;
        h->names = names;
        rc = names ? hdr_default_entry(h, a, &h->e[0]) : CUTUNE_ENOMEM;
        if (rc == CUTUNE_OK && h->m->sizes.nvars > 0)
            rc = hdr_sizes_defaults(h, a); /* one default entry per size: the same code compiles */
    }
    if (rc != CUTUNE_OK)
        return rc;
    for (int k = 0; k < h->n; k++) { /* the config struct holds them as unsigned int */
        const cutune_variant *v = h->e[k].v;
        for (int d = 0; d < 3; d++)
            if (v->block[d] < 1 || v->block[d] > UINT32_MAX || v->grid[d] < 1 || v->grid[d] > UINT32_MAX)
                return hdr_fail("entry %d's launch dimensions are out of the range a launch takes", k);
        if (v->smem_bytes < 0 || v->smem_bytes > UINT32_MAX)
            return hdr_fail("entry %d's shared memory is out of the range a launch takes", k);
    }
    h->P = opts && opts->prefix ? opts->prefix : h->m && h->m->emit.header_prefix ? h->m->emit.header_prefix : NULL;
    if (!h->P) {
        const char *name = h->block ? h->block : h->kernel; /* the block's name, as the spec's default */
        if (!esc_c_name(name))
            return hdr_fail("the kernel's name is not a C identifier: it cannot make the header's prefix");
        upper(prefix, name);
        h->P = sb_cstr(prefix);
    }
    if (!esc_c_name(h->P))
        return hdr_fail("the prefix '%s' is not a C identifier", h->P);
    return hdr_check_names(h);
}

/* The arguments as the public functions take them (the facade, api/cutune_emit.c, has checked
 * them; a caller inside the library that breaks them gets the same refusal). */
static int check_args(cutune_spec *spec, const cutune_tune_result *const *results, int nresults)
{
    if (nresults < 0 || (nresults > 0 && !results) || (nresults == 0 && !spec))
        return hdr_fail("neither results nor a spec");
    if (spec && (!spec->loaded_ok || !spec->model))
        return hdr_fail("the spec has errors");
    return CUTUNE_OK;
}

/* begin: the arguments checked and h set up over a new arena (*a, freed by the caller
 * with arena_free, NULL-safe) for hdr_emit and hdr_emit_names. CUTUNE_OK, or the
 * error (with *a possibly NULL). */
static int begin(hdr *h, arena **a, strbuf *prefix, cutune_spec *spec, const cutune_tune_result *const *results,
                 int nresults, const cutune_header_options *opts)
{
    memset(h, 0, sizeof *h); /* the caller frees h's buffers whatever happens */
    int rc = check_args(spec, results, nresults);
    if (rc != CUTUNE_OK)
        return rc;
    if (!(*a = arena_new()))
        return CUTUNE_ENOMEM;
    return setup(h, *a, prefix, spec, results, nresults, opts);
}

int hdr_emit(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
             const cutune_header_options *opts)
{
    if (!out)
        return hdr_fail("no output");
    *out = NULL;
    hdr h;
    strbuf prefix = STRBUF_INIT;
    arena *a = NULL;
    int rc = begin(&h, &a, &prefix, spec, results, nresults, opts);
    if (rc == CUTUNE_OK && h.m)
        rc = functions(&h);
    if (rc == CUTUNE_OK) {
        assemble(&h, opts);
        if (!sb_ok(&h.out) || !sb_ok(&h.funcs) || !sb_ok(&h.cfuncs))
            rc = CUTUNE_ENOMEM;
        else
            *out = sb_steal(&h.out);
    }
    sb_free(&h.out);
    sb_free(&h.funcs);
    sb_free(&h.cfuncs);
    sb_free(&prefix);
    arena_free(a);
    return rc;
}

int hdr_emit_names(hn_list **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                   const cutune_header_options *opts)
{
    *out = NULL;
    hdr h;
    strbuf prefix = STRBUF_INIT;
    arena *a = NULL;
    int rc = begin(&h, &a, &prefix, spec, results, nresults, opts);
    if (rc == CUTUNE_OK)
        rc = hdr_names_of(&h, out);
    sb_free(&prefix);
    arena_free(a);
    return rc;
}
