/* cutune_spec.c - cutune/spec.h: a spec loaded (lang/ parses, compiler/ checks), its
 * diagnostics, what it says, its problem sizes and kernel blocks; the device attributes
 * it reads are cutune_spec_device.c's. A cutune_spec owns one arena holding the source, the
 * syntax tree, the model and the diagnostics. */
#include "cutune.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../base/sys.h"
#include "../compiler/sema.h"
#include "../compiler/space.h"
#include "../lang/parse.h"
#include "../session/constants.h"
#include "internal.h"

static int spec_alloc(cutune_spec **out)
{
    cutune_spec *spec = calloc(1, sizeof *spec);
    if (!spec)
        return CUTUNE_ENOMEM;
    spec->arena = arena_new();
    if (!spec->arena) {
        free(spec);
        return CUTUNE_ENOMEM;
    }
    diag_init(&spec->diags, spec->arena, NULL);
    *out = spec;
    return CUTUNE_OK;
}

/* Splits "NAME=VALUE" overrides; a malformed one becomes a diagnostic. */
static int parse_overrides(cutune_spec *spec, const cutune_load_options *opts, sema_override **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (!opts || opts->nset <= 0)
        return CUTUNE_OK;
    sema_override *ov = arena_alloc(spec->arena, sizeof *ov * (size_t)opts->nset);
    if (!ov)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < opts->nset; i++) {
        const char *eq = opts->set[i] ? strchr(opts->set[i], '=') : NULL;
        if (!eq || eq == opts->set[i]) {
            diag_error_noloc(&spec->diags, "--set %s: expected NAME=VALUE", opts->set[i] ? opts->set[i] : "(null)");
            continue;
        }

        ov[*n].name = arena_strndup(spec->arena, opts->set[i], (size_t)(eq - opts->set[i]));
        ov[*n].text = arena_strdup(spec->arena, eq + 1); /* kept: each size is checked again later */
        if (!ov[*n].name || !ov[*n].text)
            return CUTUNE_ENOMEM;
        (*n)++;
    }
    *out = ov;
    return CUTUNE_OK;
}

/* Parses and checks the source already in spec->src. */
static int spec_compile(cutune_spec *spec, const cutune_load_options *opts)
{
    spec->diags.src = spec->src;
    if (lang_parse(&spec->ast, spec->arena, spec->src, &spec->diags) < 0) {
        if (!spec->ast || spec->diags.out_of_memory)
            return CUTUNE_ENOMEM;
        return CUTUNE_ESPEC;
    }
    if (!spec->ast->has_kernel)
        return CUTUNE_ESPEC;
    sema_options so;
    memset(&so, 0, sizeof so);
    sema_override *ov;
    int rc = parse_overrides(spec, opts, &ov, &so.noverrides);
    if (rc < 0)
        return rc;
    so.overrides = ov;
    so.skip_file_checks = opts && opts->skip_file_checks;
    dev_values dv; /* the device attributes' values: the device given, else the arch's table */
    if (opts && opts->device) {
        dev_values_from_device(&dv, opts->device);
    } else if (api_device_values_for_arch(&dv, opts ? opts->arch : NULL) < 0) {
        strbuf known = STRBUF_INIT;
        for (const char *const *n = cutune_arch_list(); *n; n++)
            sb_printf(&known, "%s%s", n == cutune_arch_list() ? "" : ", ", *n);
        diag_error_noloc(&spec->diags, "unknown architecture '%s' (known: %s)", opts->arch, sb_cstr(&known));
        sb_free(&known);
        return CUTUNE_EINVAL;
    }
    spec->device = dv;
    so.device = &spec->device;
    spec->sema_opts = so;
    if (sema_check(&spec->model, spec->arena, spec->ast, &so, &spec->diags) < 0)
        return spec->diags.out_of_memory ? CUTUNE_ENOMEM : CUTUNE_ESPEC;
    /* A malformed --set is an error too, though the spec itself checked. */
    if (spec->diags.errors)
        return CUTUNE_ESPEC;
    spec->loaded_ok = true;
    /* Every kernel block of the file, and every problem size of each, must check: a
     * domain or a constant may fail at one size only. */
    if ((rc = spec_check_kernels(spec)) < 0) {
        spec->loaded_ok = false;
        return rc;
    }
    for (int i = spec_kernel_count(spec) - 1; i >= 0; i--) {
        spec_select_kernel(spec, i);
        for (int k = 1; k < spec_size_count(spec); k++) {
            int src = spec_select_size(spec, k);
            if (src < 0) {
                spec->loaded_ok = false;
                return src;
            }
        }
        if ((rc = spec_select_size(spec, 0)) < 0)
            return rc;
    }
    XXH3_state_t *h = XXH3_createState();
    if (h) {
        XXH3_64bits_reset(h);
        XXH3_64bits_update(h, spec->src->text, spec->src->len);
        for (int i = 0; opts && i < opts->nset; i++)
            XXH3_64bits_update(h, opts->set[i], strlen(opts->set[i]) + 1);
        spec->text_hash = XXH3_64bits_digest(h);
        XXH3_freeState(h);
    }
    return CUTUNE_OK;
}

int cutune_spec_load_string(cutune_spec **out, const char *name, const char *text, size_t len,
                            const cutune_load_options *opts)
{
    if (!out || !name || (!text && len))
        return CUTUNE_EINVAL;
    *out = NULL;
    int rc = api_options_ok(opts, CUTUNE_LOAD_OPTIONS_VERSION, "cutune_load_options");
    cutune_spec *spec;
    if (rc < 0 || (rc = spec_alloc(&spec)) < 0)
        return rc;
    spec->path = arena_strdup(spec->arena, name);
    spec->src = src_new(spec->arena, name, opts && opts->base_dir ? opts->base_dir : ".", text ? text : "", len);
    if (!spec->src || !spec->path) {
        cutune_spec_free(spec);
        return CUTUNE_ENOMEM;
    }
    *out = spec;
    return spec_compile(spec, opts);
}

int cutune_spec_load_file(cutune_spec **out, const char *path, const cutune_load_options *opts)
{
    if (!out || !path)
        return CUTUNE_EINVAL;
    *out = NULL;
    int rc = api_options_ok(opts, CUTUNE_LOAD_OPTIONS_VERSION, "cutune_load_options");
    cutune_spec *spec;
    if (rc < 0 || (rc = spec_alloc(&spec)) < 0)
        return rc;
    *out = spec;
    spec->path = arena_strdup(spec->arena, path);
    size_t len;
    char *text = sys_read_file(path, SYS_LIMIT_SOURCE, &len);
    if (!text) {
        diag_error_noloc(&spec->diags, "cannot read spec '%s': %s", path, sys_strerror(errno));
        return errno == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO;
    }
    spec->src = src_new(spec->arena, path, NULL, text, len);
    free(text);
    if (!spec->src)
        return CUTUNE_ENOMEM;
    return spec_compile(spec, opts);
}

void cutune_spec_free(cutune_spec *spec)
{
    if (!spec)
        return;
    sb_free(&spec->rendered);
    arena_free(spec->arena);
    free(spec);
}

int cutune_spec_ok(const cutune_spec *spec)
{
    return spec && spec->model && spec->loaded_ok;
}

int cutune_spec_error_count(const cutune_spec *spec)
{
    return spec->diags.errors;
}
int cutune_spec_warning_count(const cutune_spec *spec)
{
    return spec->diags.warnings;
}
int cutune_spec_diagnostic_count(const cutune_spec *spec)
{
    return spec->diags.len;
}

const char *cutune_spec_diagnostics(cutune_spec *spec, int from, int color)
{
    return spec_render(spec, from, color != 0);
}

const char *cutune_spec_path(const cutune_spec *spec)
{
    return spec->path;
}
const char *cutune_spec_kernel(const cutune_spec *spec)
{
    return spec->model->kernel;
}
const char *cutune_spec_block_name(const cutune_spec *spec)
{
    return spec->model->block_name;
}
const char *cutune_spec_kernel_file(const cutune_spec *spec)
{
    return spec->model->kernel_file;
}
const char *cutune_spec_strategy(const cutune_spec *spec)
{
    return model_strategy_name(spec->model->search.strategy);
}

int cutune_spec_constraint_count(const cutune_spec *spec)
{
    return spec->model->nrequires;
}
int cutune_spec_param_count(const cutune_spec *spec)
{
    return spec->model->nparams;
}

static const m_param *param_at(const cutune_spec *spec, int i)
{
    if (!cutune_spec_ok(spec) || i < 0 || i >= spec->model->nparams)
        return NULL;
    return &spec->model->params[i];
}

const char *cutune_spec_param_name(const cutune_spec *spec, int i)
{
    const m_param *p = param_at(spec, i);
    return p ? p->name : NULL;
}

const char *cutune_spec_param_route(const cutune_spec *spec, int i)
{
    static const char *const names[] = {
        [ROUTE_DEFINE] = "define", [ROUTE_TEMPLATE] = "template",
        [ROUTE_OPTION] = "option", [ROUTE_MAXRREGCOUNT] = "maxrregcount",
        [ROUTE_SMEM] = "smem",     [ROUTE_NONE] = "none",
    };
    const m_param *p = param_at(spec, i);
    return p ? names[p->route] : NULL;
}

const char *cutune_spec_param_type(const cutune_spec *spec, int i)
{
    const m_param *p = param_at(spec, i);
    return p ? vtype_name(p->dom.type) : NULL;
}

uint64_t cutune_spec_param_value_count(const cutune_spec *spec, int i)
{
    const m_param *p = param_at(spec, i);
    return p ? p->dom.size : 0;
}

int cutune_spec_param_value(char *buf, size_t size, const cutune_spec *spec, int i, uint64_t k)
{
    const m_param *p = param_at(spec, i);
    if (!p || k >= p->dom.size)
        return CUTUNE_EINVAL;
    strbuf sb = STRBUF_INIT;
    value_format(model_domain_at(&p->dom, k), &sb, false);
    if (!sb_ok(&sb))
        return CUTUNE_ENOMEM;
    int n = (int)sb.len;
    if (buf && size)
        snprintf(buf, size, "%s", sb_cstr(&sb));
    sb_free(&sb);
    return n;
}

/* ---- problem sizes (compiler/spec.c selects them) ---------------------------------- */

int cutune_spec_size_count(const cutune_spec *spec)
{
    return cutune_spec_ok(spec) ? spec_size_count(spec) : 0;
}

int cutune_spec_size_var_count(const cutune_spec *spec)
{
    return cutune_spec_ok(spec) ? spec->model->sizes.nvars : 0;
}

const char *cutune_spec_size_var(const cutune_spec *spec, int j)
{
    if (!cutune_spec_ok(spec) || j < 0 || j >= spec->model->sizes.nvars)
        return NULL;
    return spec->model->lets[spec->model->sizes.lets[j]].name;
}

int64_t cutune_spec_size_value(const cutune_spec *spec, int k, int j)
{
    if (!cutune_spec_ok(spec))
        return 0;
    const m_sizes *sz = &spec->model->sizes;
    return k >= 0 && k < sz->count && j >= 0 && j < sz->nvars ? sz->values[k * sz->nvars + j] : 0;
}

int cutune_spec_size_selected(const cutune_spec *spec)
{
    return cutune_spec_ok(spec) ? spec->model->sizes.selected : 0;
}

int cutune_spec_select_size(cutune_spec *spec, int k)
{
    if (!cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_select_size: the spec has errors");
    if (k < 0 || k >= spec_size_count(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_select_size: size %d is out of range (the spec has %d)", k,
                       spec_size_count(spec));
    return spec_select_size(spec, k);
}

/* ---- several kernel blocks (compiler/spec.c selects them) --------------------------- */

int cutune_spec_kernel_count(const cutune_spec *spec)
{
    return cutune_spec_ok(spec) ? spec_kernel_count(spec) : 0;
}

int cutune_spec_kernel_selected(const cutune_spec *spec)
{
    return cutune_spec_ok(spec) ? spec->kernel : 0;
}

int cutune_spec_select_kernel(cutune_spec *spec, int i)
{
    if (!cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_select_kernel: the spec has errors");
    if (i < 0 || i >= spec_kernel_count(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_select_kernel: kernel %d is out of range (the spec has %d)", i,
                       spec_kernel_count(spec));
    return spec_select_kernel(spec, i);
}

int cutune_spec_check_constants(cutune_spec *spec)
{
    if (!cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_check_constants: the spec has errors");
    return constants_check(spec);
}

int cutune_spec_select_block(cutune_spec *spec, const char *name)
{
    if (!name || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_select_block: no name, or the spec has errors");
    int n = spec_kernel_count(spec), held = cutune_spec_kernel_selected(spec);
    for (int pass = 0; pass < 2; pass++) /* a block's name first, then a kernel's */
        for (int i = 0; i < n; i++)
            if (spec_select_kernel(spec, i) == CUTUNE_OK &&
                strcmp(pass ? cutune_spec_kernel(spec) : cutune_spec_block_name(spec), name) == 0)
                return CUTUNE_OK;
    spec_select_kernel(spec, held);
    strbuf sb = STRBUF_INIT;
    api_spec_blocks(&sb, spec);
    int rc = err_set(CUTUNE_EINVAL, "%s has no kernel block named '%s' (its blocks:%s)", spec->path, name,
                     sb_ok(&sb) ? sb_cstr(&sb) : " ...");
    sb_free(&sb);
    return rc;
}

void api_spec_blocks(strbuf *out, cutune_spec *spec)
{
    int n = spec_kernel_count(spec), held = cutune_spec_kernel_selected(spec);
    for (int i = 0; i < n; i++) {
        spec_select_kernel(spec, i);
        sb_printf(out, "%s %s", i ? "," : "", cutune_spec_block_name(spec));
        if (strcmp(cutune_spec_block_name(spec), cutune_spec_kernel(spec)) != 0)
            sb_printf(out, " (kernel %s)", cutune_spec_kernel(spec));
    }
    spec_select_kernel(spec, held);
}
