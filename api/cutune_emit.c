/* cutune_emit.c - cutune/emit.h: the public emitters: argument checks over emit/ (the
 * header, the CSV table, Kernel Tuner's T4 format), and where a spec says to emit. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../emit/emit_csv.h"
#include "../emit/header.h"
#include "../emit/t4.h"
#include "../emit/emit_text.h"
#include "../emit/report.h"
#include "../base/num.h"
#include "../base/strbuf.h"
#include "../base/sys.h"
#include "internal.h"

/* Whether the block `spec` holds is of the kernel, block name (when recorded: files
 * before blocks had names record none) and params r records. */
static bool spec_matches(const cutune_spec *spec, const cutune_tune_result *r)
{
    const model *m = spec->model;
    if (strcmp(m->kernel, r->kernel) != 0 || m->nparams != r->nparams ||
        (r->block && strcmp(m->block_name, r->block) != 0))
        return false;
    for (int i = 0; i < r->nparams; i++)
        if (strcmp(m->params[i].name, r->param_names[i]) != 0 ||
            strcmp(vtype_name(m->params[i].dom.type), r->param_types[i]) != 0)
            return false;
    return true;
}

int cutune_spec_select_kernel_of(cutune_spec *spec, const cutune_tune_result *r)
{
    if (!spec || !r || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_select_kernel_of: no result, or no valid spec");
    for (int i = 0; i < cutune_spec_kernel_count(spec); i++)
        if (cutune_spec_select_kernel(spec, i) == CUTUNE_OK && spec_matches(spec, r))
            return CUTUNE_OK;
    if (r->block && strcmp(r->block, r->kernel) != 0)
        return err_set(CUTUNE_EINVAL, "%s has no kernel block '%s' of the kernel '%s' and params the results record",
                       cutune_spec_path(spec), r->block, r->kernel);
    return err_set(CUTUNE_EINVAL, "%s has no kernel block of the kernel '%s' and params the results record",
                   cutune_spec_path(spec), r->kernel);
}

int cutune_emit_header(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                       const cutune_header_options *opts)
{
    if (!out || nresults < 0 || (nresults > 0 && !results) || (nresults == 0 && !spec))
        return err_set(CUTUNE_EINVAL, "cutune_emit_header: no output, or neither results nor a spec");
    *out = NULL;
    int rc = api_options_ok(opts, CUTUNE_HEADER_OPTIONS_VERSION, "cutune_header_options");
    if (rc < 0)
        return rc;
    if (spec && !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_emit_header: the spec has errors");
    /* The spec's device attributes as entry 0's run had them (its functions of the
     * problem size are written with them). */
    rc = spec && nresults > 0 ? api_spec_recheck_recorded(spec, cutune_tune_device(results[0])) : CUTUNE_OK;
    if (rc < 0)
        return rc;
    return hdr_emit(out, spec, results, nresults, opts);
}

/* The names of the headers claimed so far, one list per header, in order, with what
 * to call each in a message. */
struct cutune_header_names {
    hn_list **lists;
    char **labels;
    int n;
};

int cutune_header_names_new(cutune_header_names **out)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_header_names_new: no output");
    *out = calloc(1, sizeof **out);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

void cutune_header_names_free(cutune_header_names *names)
{
    if (!names)
        return;
    for (int i = 0; i < names->n; i++) {
        hn_free(names->lists[i]);
        free(names->labels[i]);
    }
    free(names->lists);
    free(names->labels);
    free(names);
}

int cutune_header_names_claim(cutune_header_names *names, cutune_spec *spec, const cutune_tune_result *const *results,
                              int nresults, const cutune_header_options *opts)
{
    if (!names || nresults < 0 || (nresults > 0 && !results) || (nresults == 0 && !spec))
        return err_set(CUTUNE_EINVAL, "cutune_header_names_claim: no set, or neither results nor a spec");
    for (int k = 0; k < nresults; k++)
        if (!results[k])
            return err_set(CUTUNE_EINVAL, "cutune_header_names_claim: result %d is NULL", k);
    int rc = api_options_ok(opts, CUTUNE_HEADER_OPTIONS_VERSION, "cutune_header_options");
    if (rc < 0)
        return rc;
    hn_list *mine = NULL;
    rc = hdr_emit_names(&mine, spec, results, nresults, opts);
    if (rc != CUTUNE_OK)
        return rc == CUTUNE_ENOMEM ? err_set(rc, "out of memory") : rc;
    const char *kernel = nresults > 0 ? cutune_tune_block(results[0]) : spec->model->block_name;
    size_t size = strlen(kernel) + 40;
    char *label = malloc(size);
    hn_list **lists = realloc(names->lists, sizeof *lists * (size_t)(names->n + 1));
    if (lists)
        names->lists = lists;
    char **labels = lists ? realloc(names->labels, sizeof *labels * (size_t)(names->n + 1)) : NULL;
    if (labels)
        names->labels = labels;
    if (!label || !lists || !labels) {
        free(label);
        hn_free(mine);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    snprintf(label, size, nresults > 0 ? " of kernel '%s'" : " of kernel block '%s'", kernel);
    names->lists[names->n] = mine;
    names->labels[names->n] = label;
    hn_clash c;
    if (hn_clash_find((const hn_list *const *)names->lists, names->n + 1, &c)) {
        strbuf text = STRBUF_INIT;
        hn_clash_text(&text, &c, names->labels[c.la], names->labels[c.lb]);
        rc = err_set(CUTUNE_EINVAL, "%s", sb_ok(&text) ? sb_cstr(&text) : "two names of the headers clash");
        sb_free(&text);
        hn_free(mine);
        free(label);
        return rc;
    }
    names->n++;
    return CUTUNE_OK;
}

int cutune_emit_csv(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return CUTUNE_EINVAL;
    return emit_csv(out, r);
}

int cutune_emit_csv_file(char **out, const char *results_path)
{
    if (!out || !results_path)
        return err_set(CUTUNE_EINVAL, "cutune_emit_csv_file: no output or results file");
    *out = NULL;
    cutune_tune_result **results = NULL;
    int rc = cutune_results_load_all(&results, &results_path, 1, 0, NULL);
    if (rc == CUTUNE_OK && (rc = emit_csv(out, results[0])) != CUTUNE_OK)
        rc = err_set(rc, "%s: %s", results_path, cutune_status_text(rc));
    cutune_results_free_all(results, 1);
    return rc;
}

int cutune_emit_t4(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return CUTUNE_EINVAL;
    return t4_emit(out, r, cutune_version());
}

int cutune_emit_t4_to(const char *results_path, const char *output_path)
{
    if (!results_path || !output_path)
        return err_set(CUTUNE_EINVAL, "cutune_emit_t4_to: no results file or output");
    results_scan *scan = NULL;
    int rc = results_scan_open(&scan, results_path);
    if (rc != CUTUNE_OK)
        return rc; /* the scan's error, under its status */
    /* The output only once the results file has been read through: a file that is not
     * one leaves nothing behind. */
    bool to_stdout = strcmp(output_path, "-") == 0;
    sys_stream *out = NULL;
    if (to_stdout)
        fflush(stdout); /* what stdio holds goes first */
    if ((to_stdout ? sys_stream_fd(&out, STDOUT_FILENO) : sys_stream_open(&out, output_path, 0)) != 0) {
        rc = err_set(errno == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO, "cannot write '%s': %s",
                     to_stdout ? "standard output" : output_path, sys_strerror(errno));
        results_scan_close(scan);
        return rc;
    }
    const char *name = to_stdout ? "standard output" : output_path;
    rc = t4_emit_scan(scan, out, name, cutune_version());
    results_scan_close(scan);
    if (rc != CUTUNE_OK) {
        sys_stream_abort(out);
        return err_recode(rc);
    }
    if (sys_stream_commit(out) != 0)
        return err_set(CUTUNE_EIO, "cannot write '%s': %s", name, sys_strerror(errno));
    return CUTUNE_OK;
}

int cutune_emit_report(char **out, const cutune_tune_result *const *results, int nresults,
                       const cutune_report_options *opts)
{
    if (!out || nresults < 1 || !results)
        return err_set(CUTUNE_EINVAL, "cutune_emit_report: no output, or no results");
    *out = NULL;
    if (api_options_ok(opts, CUTUNE_REPORT_OPTIONS_VERSION, "cutune_report_options") < 0)
        return CUTUNE_EINVAL;
    const char **files = calloc((size_t)nresults, sizeof *files);
    if (!files)
        return err_set(CUTUNE_ENOMEM, "cutune_emit_report: out of memory");
    for (int k = 0; k < nresults; k++) {
        if (!results[k]) {
            free(files);
            return err_set(CUTUNE_EINVAL, "cutune_emit_report: result %d is NULL", k);
        }
        const char *name = opts && opts->names ? opts->names[k] : NULL;
        files[k] = name ? name : results[k]->summary.results_path ? results[k]->summary.results_path : "(not written)";
    }
    int rc = report_emit(out, results, files, nresults, opts ? opts->title : NULL, cutune_version());
    free(files);
    if (rc != CUTUNE_OK)
        err_set(rc, "cutune_emit_report: out of memory");
    return rc;
}

/* The spec's emit path of `kind` in the block in hand, and whether it leaves the
 * spec's folder; NULL for a kind it does not emit. */
static const char *emit_path(const cutune_spec *spec, const char *kind, bool *leaves)
{
    if (!spec || !spec->model || !kind)
        return NULL;
    const m_emit *em = &spec->model->emit;
    bool h = strcmp(kind, "header") == 0, r = strcmp(kind, "results") == 0, c = strcmp(kind, "csv") == 0;
    *leaves = h ? em->header_leaves : r ? em->results_leaves : c && em->csv_leaves;
    return h ? em->header_path : r ? em->results_path : c ? em->csv_path : NULL;
}

/* Whether the file `path` would be written inside `dir` (canonical): its folder,
 * resolved, is `dir` or below it. A folder that does not exist is not inside. */
static bool inside(const char *path, const char *dir)
{
    const char *slash = strrchr(path, '/');
    char *folder = slash == path ? strdup("/") : slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    char *canon = folder ? sys_canonical_path(folder) : NULL;
    size_t n = strlen(dir);
    bool in = canon && strncmp(canon, dir, n) == 0 && (canon[n] == '\0' || canon[n] == '/' || strcmp(dir, "/") == 0);
    free(canon);
    free(folder);
    return in;
}

/* Whether `path` (of the spec) may not be written: it leaves the spec's folder and
 * the caller's output folder does not hold it. */
static bool refused(const cutune_spec *spec, const char *path, bool leaves)
{
    return path && leaves && !(spec->emit_dir && inside(path, spec->emit_dir));
}

const char *cutune_spec_emit_refused(const cutune_spec *spec, const char *kind)
{
    bool leaves = false;
    const char *path = emit_path(spec, kind, &leaves);
    if (!refused(spec, path, leaves))
        return NULL;
    cutune_spec *s = (cutune_spec *)spec; /* the message lives in the spec's arena */
    const m_emit *em = &spec->model->emit;
    span loc = strcmp(kind, "header") == 0    ? em->header_loc
               : strcmp(kind, "results") == 0 ? em->results_loc
                                              : em->csv_loc;
    unsigned line = 0, col = 0;
    src_position(spec->src, loc.begin, &line, &col);
    s->emit_refusal =
        arena_printf(s->arena,
                     "%s:%u:%u: emit %s \"%s\" leaves the spec's folder, and %s: not "
                     "written (name its folder with --emit-dir DIR, or give the file with --%s FILE)",
                     spec->src->path, line, col, kind, path,
                     spec->emit_dir ? "the --emit-dir folder given does not hold it" : "no --emit-dir was given", kind);
    return s->emit_refusal ? s->emit_refusal : "an emit path leaves the spec's folder: not written";
}

const char *cutune_spec_emit_path(const cutune_spec *spec, const char *kind)
{
    bool leaves = false;
    const char *path = emit_path(spec, kind, &leaves);
    return refused(spec, path, leaves) ? NULL : path;
}

int cutune_spec_set_emit_dir(cutune_spec *spec, const char *dir)
{
    if (!spec)
        return err_set(CUTUNE_EINVAL, "cutune_spec_set_emit_dir: no spec");
    if (!dir) {
        spec->emit_dir = NULL;
        return CUTUNE_OK;
    }
    char *canon = sys_canonical_path(dir);
    struct stat st;
    if (!canon || stat(canon, &st) != 0 || !S_ISDIR(st.st_mode)) {
        int e = canon ? ENOTDIR : errno;
        free(canon);
        return err_set(CUTUNE_EINVAL, "output folder '%s': %s", dir, sys_strerror(e));
    }
    spec->emit_dir = arena_strdup(spec->arena, canon);
    free(canon);
    return spec->emit_dir ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

/* The error object for a writer's out-of-memory (emit/ sets none). */
static int text_made(int rc)
{
    return rc == CUTUNE_ENOMEM ? err_set(rc, "out of memory") : rc;
}

int cutune_variant_csv(char **out, const cutune_spec *spec, const cutune_variant *v)
{
    if (!out || !spec)
        return err_set(CUTUNE_EINVAL, "cutune_variant_csv: no output or spec");
    return text_made(emit_variant_csv(out, spec, v));
}

int cutune_variant_json(char **out, const cutune_spec *spec, const cutune_variant *v)
{
    if (!out || !spec || !v)
        return err_set(CUTUNE_EINVAL, "cutune_variant_json: no output, spec or variant");
    return text_made(emit_variant_json(out, spec, v));
}

int cutune_space_summary_json(char **out, const cutune_spec *spec, const cutune_space_size *size, double count_seconds)
{
    if (!out || !spec || !size || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_space_summary_json: no output, size or valid spec");
    return text_made(emit_space_json(out, spec, size, count_seconds));
}

int cutune_occupancy_json(char **out, const cutune_occupancy *occ, int device, int regs, int threads, int64_t smem)
{
    if (!out || !occ)
        return err_set(CUTUNE_EINVAL, "cutune_occupancy_json: no output or occupancy");
    return text_made(emit_occupancy_json(out, occ, device, regs, threads, smem));
}

int cutune_occupancy_text(char **out, const cutune_occupancy *occ, int regs, int threads, int64_t smem)
{
    if (!out || !occ || !occ->arch)
        return err_set(CUTUNE_EINVAL, "cutune_occupancy_text: no output or occupancy");
    return text_made(emit_occupancy_text(out, occ, regs, threads, smem));
}

int cutune_devices_text(char **out, const cutune_device *devs, int n)
{
    if (!out || n < 0 || (n > 0 && !devs))
        return err_set(CUTUNE_EINVAL, "cutune_devices_text: no output or devices");
    return text_made(emit_devices_text(out, devs, n));
}

int cutune_devices_json(char **out, const cutune_device *devs, int n)
{
    if (!out || n < 0 || (n > 0 && !devs))
        return err_set(CUTUNE_EINVAL, "cutune_devices_json: no output or devices");
    return text_made(emit_devices_json(out, devs, n));
}

/* ---- the text of `cutune check` -------------------------------------------------- */

int cutune_spec_device_text(char **out, const cutune_spec *spec)
{
    if (!out || !spec)
        return err_set(CUTUNE_EINVAL, "cutune_spec_device_text: no output or spec");
    strbuf sb = STRBUF_INIT;
    for (int i = 0; i < cutune_device_attr_count(); i++)
        if (cutune_spec_device_attr_used(spec, i))
            sb_printf(&sb, "%s%s %lld", sb.len ? ", " : "", cutune_device_attr_name(i),
                      cutune_spec_device_attr_value(spec, i));
    if (sb.len && cutune_spec_device_assumed(spec))
        sb_printf(&sb, "  (assumed, no GPU read: %s; --arch picks another)", cutune_spec_device_source(spec));
    else if (sb.len)
        sb_printf(&sb, "  (read from %s)", cutune_spec_device_source(spec));
    *out = sb_steal(&sb);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_spec_block_heading(char **out, const cutune_spec *spec)
{
    if (!out || !spec || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_block_heading: no output or valid spec");
    int n = cutune_spec_kernel_count(spec), i = cutune_spec_kernel_selected(spec);
    const char *kernel = cutune_spec_kernel(spec), *block = cutune_spec_block_name(spec);
    strbuf sb = STRBUF_INIT;
    if (n > 1)
        sb_printf(&sb, "%skernel %s%s%s (block %d of %d)\n", i ? "\n" : "", kernel, strcmp(block, kernel) ? " as " : "",
                  strcmp(block, kernel) ? block : "", i + 1, n);
    *out = sb_steal(&sb);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_spec_size_heading(char **out, const cutune_spec *spec, int k)
{
    if (!out || !spec || !cutune_spec_ok(spec) || k < 0 || k >= cutune_spec_size_count(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_size_heading: no output or valid spec, or no size %d", k);
    strbuf sb = STRBUF_INIT;
    for (int j = 0; cutune_spec_size_count(spec) > 1 && j < cutune_spec_size_var_count(spec); j++)
        sb_printf(&sb, "%s %s=%lld", j ? "" : "\nsize", cutune_spec_size_var(spec, j),
                  (long long)cutune_spec_size_value(spec, k, j));
    if (sb.len)
        sb_printf(&sb, ":\n");
    *out = sb_steal(&sb);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

/* param_line: param i's line: name (in `width`), how many values, its route and up to
 * eight values (strings quoted). */
static void param_line(strbuf *sb, const cutune_spec *spec, int i, int width)
{
    uint64_t n = cutune_spec_param_value_count(spec, i);
    bool quoted = strcmp(cutune_spec_param_type(spec, i), "string") == 0;
    char count[40], vals[160] = "";
    size_t len = 0;
    for (uint64_t k = 0; k < n && k < 8; k++) {
        char v[64];
        cutune_spec_param_value(v, sizeof v, spec, i, k);
        int w = snprintf(vals + len, sizeof vals - len, "%s%s%s%s", k ? ", " : "", quoted ? "\"" : "", v,
                         quoted ? "\"" : "");
        if (w < 0 || (size_t)w >= sizeof vals - len)
            break;
        len += (size_t)w;
    }
    if (n > 8 && len + 8 < sizeof vals)
        snprintf(vals + len, sizeof vals - len, ", ...");
    sb_printf(sb, "  %-*s %6s value%s  as %-12s %s\n", width, cutune_spec_param_name(spec, i),
              num_format_count(n, count, sizeof count), n == 1 ? " " : "s", cutune_spec_param_route(spec, i), vals);
}

int cutune_space_summary_text(char **out, const cutune_spec *spec, const cutune_space_size *size, double count_seconds,
                              const char *search)
{
    if (!out || !spec || !size)
        return err_set(CUTUNE_EINVAL, "cutune_space_summary_text: no output, size or spec");
    strbuf sb = STRBUF_INIT;
    int nparams = cutune_spec_param_count(spec), width = 4;
    sb_printf(&sb, "spec         %s\n", cutune_spec_path(spec));
    sb_printf(&sb, "kernel       %s  (%s)\n", cutune_spec_kernel(spec), cutune_spec_kernel_file(spec));
    sb_printf(&sb, "params       %d\n", nparams);
    for (int i = 0; i < nparams; i++)
        if ((int)strlen(cutune_spec_param_name(spec, i)) > width)
            width = (int)strlen(cutune_spec_param_name(spec, i));
    for (int i = 0; i < nparams; i++)
        param_line(&sb, spec, i, width);
    sb_printf(&sb, "constraints  %d\n", cutune_spec_constraint_count(spec));
    char *device = NULL;
    if (cutune_spec_device_text(&device, spec) == CUTUNE_OK && *device)
        sb_printf(&sb, "device       %s\n", device);
    free(device);
    char raw[40], valid[40], least[40], samples[40];
    num_format_count(size->raw, raw, sizeof raw);
    num_format_count(size->valid, valid, sizeof valid);
    double share = size->raw ? 100.0 * (double)size->valid / (double)size->raw : 0.0;
    if (size->valid_estimated)
        sb_printf(&sb,
                  "space        %s%s raw, ~%.3g valid (%.3g%%), estimated: too large to count exactly in %.1f s; "
                  "from %s random combinations, and at least %s\n",
                  size->raw_saturated ? ">= " : "", raw, (double)size->valid, share, count_seconds,
                  num_format_count(size->samples, samples, sizeof samples),
                  num_format_count(size->valid_at_least, least, sizeof least));
    else
        sb_printf(&sb, "space        %s%s raw, %s%s valid (%.3g%%), counted in %.3f s\n",
                  size->raw_saturated ? ">= " : "", raw, size->valid_saturated ? ">= " : "", valid, share,
                  count_seconds);
    sb_printf(&sb, "search       %s\n", search ? search : cutune_spec_strategy(spec));
    int nv = cutune_spec_size_var_count(spec), n = cutune_spec_size_count(spec);
    if (nv)
        sb_printf(&sb, "sizes        %d, tuned one after the other (the space above is the first's; --set picks one)\n",
                  n);
    for (int k = 0; k < n && nv; k++) {
        sb_add(&sb, " ");
        for (int j = 0; j < nv; j++)
            sb_printf(&sb, " %s=%lld", cutune_spec_size_var(spec, j), (long long)cutune_spec_size_value(spec, k, j));
        sb_add(&sb, "\n");
    }
    *out = sb_steal(&sb);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}
