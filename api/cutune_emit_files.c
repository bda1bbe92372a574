/* cutune_emit_files.c - cutune/emit.h: what `cutune emit header` and a finished run
 * decide around the emitters, so that an application decides it the same way: the
 * spec of one kernel's results (a spec file named by the caller, loaded anew for each
 * kernel, else the one the results record), the results of one kernel block among
 * several files, the CSV, header and report a tuning run writes when it ends, and the
 * header of a run of a process per GPU.
 *
 * Who owns what: the caller owns the results, the specs it passes in and the arrays;
 * a spec this file loads is handed to the caller (cutune_spec_free); the texts made
 * for the files after a run are this file's and freed before it returns. Nothing here
 * prints (standard output is written only as a file asked for: "-"): a failure is in
 * the error object, a spec's problems in its diagnostics. */
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../base/sys.h"
#include "internal.h"

/* results_name: what to call r in a message: the path it was read from, as given. */
static const char *results_name(const cutune_tune_result *r)
{
    const char *path = cutune_tune_summary_of(r)->results_path;
    return path ? path : "the results";
}

int cutune_header_spec_load(cutune_spec **out, const char *spec_path, const cutune_tune_result *const *results,
                            int nresults, const cutune_load_options *load)
{
    if (!out || nresults < 1 || !results)
        return err_set(CUTUNE_EINVAL, "cutune_header_spec_load: no output, or no results");
    *out = NULL;
    for (int k = 0; k < nresults; k++)
        if (!results[k])
            return err_set(CUTUNE_EINVAL, "cutune_header_spec_load: result %d is NULL", k);
    int rc = api_options_ok(load, CUTUNE_LOAD_OPTIONS_VERSION, "cutune_load_options");
    if (rc != CUTUNE_OK)
        return rc;
    if (!spec_path) {
        /* The recorded spec, even when its kernel file moved: the header needs its
         * expressions, not its source. */
        cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
        if (load)
            opts = *load;
        opts.skip_file_checks = 1;
        rc = cutune_results_spec(out, results[0], &opts);
        return rc == CUTUNE_OK ? rc
                               : err_set(rc,
                                         "%s %s; the header has no functions of the problem size (no "
                                         "*_grid_dim_*, *_block_dim_* or *_config_* functions: give the spec with "
                                         "--spec)",
                                         results_name(results[0]), cutune_last_error());
    }
    rc = cutune_spec_load_file(out, spec_path, load);
    for (int k = 0; rc == CUTUNE_OK && k < nresults; k++)
        if (cutune_spec_select_kernel_of(*out, results[k]) != CUTUNE_OK)
            rc = err_set(CUTUNE_EINVAL, "%s is not of this spec: its kernel or params differ from %s's",
                         results_name(results[k]), spec_path);
    return rc;
}

/* of_block: whether r is of the kernel block `block` of the kernel `kernel`. */
static int of_block(const cutune_tune_result *r, const char *kernel, const char *block)
{
    return strcmp(cutune_tune_kernel(r), kernel) == 0 && strcmp(cutune_tune_block(r), block) == 0;
}

/* no_such_block: CUTUNE_EINVAL, the message naming `name` and each block results[0 ..
 * n) are of, once, in the order first given. */
static int no_such_block(const cutune_tune_result *const *results, int n, const char *name)
{
    strbuf sb = STRBUF_INIT;
    for (int k = 0; k < n; k++) {
        const char *kernel = cutune_tune_kernel(results[k]), *block = cutune_tune_block(results[k]);
        int seen = 0;
        for (int q = 0; q < k && !seen; q++)
            seen = of_block(results[q], kernel, block);
        if (seen)
            continue;
        sb_printf(&sb, "%s %s", sb.len ? "," : "", block);
        if (strcmp(block, kernel) != 0)
            sb_printf(&sb, " (kernel %s)", kernel);
    }
    int rc = err_set(CUTUNE_EINVAL, "no results of a kernel block named '%s' (the results are of:%s)", name,
                     sb_ok(&sb) ? sb_cstr(&sb) : " ...");
    sb_free(&sb);
    return rc;
}

int cutune_results_of_kernel(const cutune_tune_result **out, int *nout, const cutune_tune_result *const *results,
                             int nresults, const char *name)
{
    if (!out || !nout || nresults < 0 || (nresults > 0 && !results))
        return err_set(CUTUNE_EINVAL, "cutune_results_of_kernel: no output or results");
    for (int k = 0; k < nresults; k++)
        if (!results[k])
            return err_set(CUTUNE_EINVAL, "cutune_results_of_kernel: result %d is NULL", k);
    if (!name) { /* every kernel's */
        memcpy(out, results, (size_t)nresults * sizeof *out);
        *nout = nresults;
        return CUTUNE_OK;
    }
    /* A block's name first, then a kernel's (its first block given), as a spec's
     * --kernel NAME is found (cutune_spec_select_block). */
    const cutune_tune_result *first = NULL;
    for (int pass = 0; pass < 2 && !first; pass++)
        for (int k = 0; k < nresults && !first; k++)
            if (strcmp(pass ? cutune_tune_kernel(results[k]) : cutune_tune_block(results[k]), name) == 0)
                first = results[k];
    if (!first)
        return no_such_block(results, nresults, name);
    int m = 0;
    for (int k = 0; k < nresults; k++)
        if (of_block(results[k], cutune_tune_kernel(first), cutune_tune_block(first)))
            out[m++] = results[k];
    *nout = m;
    return CUTUNE_OK;
}

/* tell: the file's outcome to the caller's callback (NULL: nobody asked); returns
 * status. */
static int tell(cutune_emitted_fn told, void *user, const char *kind, const char *path, int written, int status)
{
    if (told) {
        cutune_emitted file = {kind, path, written, status};
        told(user, &file);
    }
    return status;
}

/* after_csv: every variant of r as CSV into `path`, told. */
static int after_csv(const cutune_tune_result *r, const char *path, cutune_emitted_fn told, void *user)
{
    char *text = NULL;
    int rc = cutune_emit_csv(&text, r);
    if (rc != CUTUNE_OK)
        rc = err_wrap(rc, "no CSV");
    else
        rc = cutune_write_file(path, text);
    cutune_free(text);
    return tell(told, user, "csv", path, rc == CUTUNE_OK, rc);
}

/* appended: `text` after what the file `path` holds, a blank line between (each
 * section its own guard), in place of text; as it was when the file cannot be read. */
static void appended(char **text, const char *path)
{
    char *before = sys_read_file(path, SYS_LIMIT_SOURCE, NULL);
    if (!before)
        return;
    strbuf both = STRBUF_INIT;
    sb_printf(&both, "%s\n%s", before, *text);
    free(before);
    char *joined = sb_ok(&both) ? sb_steal(&both) : NULL;
    sb_free(&both);
    if (joined) {
        cutune_free(*text);
        *text = joined;
    }
}

/* after_header: r's winner as the header at `path` (after what it holds with
 * `append`), told; a run without a winner writes none, and that is no failure. */
static int after_header(cutune_spec *spec, const cutune_tune_result *r, const char *path, int append,
                        cutune_emitted_fn told, void *user)
{
    if (!cutune_tune_best(r) && cutune_tune_size_count(r) == 0)
        return tell(told, user, "header", path, 0, CUTUNE_OK);
    const char *base = strrchr(path, '/');
    cutune_header_options opts = CUTUNE_HEADER_OPTIONS_INIT;
    opts.file_name = base ? base + 1 : path;
    char *text = NULL;
    int rc = cutune_emit_header(&text, spec, &r, 1, &opts);
    if (rc != CUTUNE_OK) {
        rc = err_wrap(rc, "no header");
    } else {
        if (append)
            appended(&text, path);
        rc = cutune_write_file(path, text);
    }
    cutune_free(text);
    return tell(told, user, "header", path, rc == CUTUNE_OK, rc);
}

int cutune_emit_after_tune(cutune_spec *spec, const cutune_tune_result *r, const char *header_path,
                           const char *csv_path, int header_append, cutune_emitted_fn told, void *user)
{
    if (!spec || !r)
        return err_set(CUTUNE_EINVAL, "cutune_emit_after_tune: no spec or result");
    if (!header_path)
        header_path = cutune_spec_emit_path(spec, "header");
    if (!csv_path)
        csv_path = cutune_spec_emit_path(spec, "csv");
    int rc = csv_path ? after_csv(r, csv_path, told, user) : CUTUNE_OK;
    int hc = header_path ? after_header(spec, r, header_path, header_append, told, user) : CUTUNE_OK;
    return rc != CUTUNE_OK ? rc : hc;
}

int cutune_report_after_tune(const cutune_tune_result *r, const char *spec_path, const char *path,
                             cutune_emitted_fn told, void *user)
{
    if (!r || !path)
        return err_set(CUTUNE_EINVAL, "cutune_report_after_tune: no result or path");
    const char *results = cutune_tune_summary_of(r)->results_path;
    const char *names[] = {results ? results : spec_path};
    cutune_report_options opts = CUTUNE_REPORT_OPTIONS_INIT;
    opts.names = names[0] ? names : NULL;
    char *page = NULL;
    int rc = cutune_emit_report(&page, &r, 1, &opts);
    rc = rc != CUTUNE_OK ? err_wrap(rc, "no report") : cutune_write_file(path, page);
    cutune_free(page);
    return tell(told, user, "report", path, rc == CUTUNE_OK, rc);
}

int cutune_device_runs_header(char **out, char **notes, cutune_spec *spec, const cutune_device_run *runs, int n,
                              const char *path)
{
    if (out)
        *out = NULL;
    if (notes)
        *notes = NULL;
    if (!out || !runs || n < 0 || !path)
        return err_set(CUTUNE_EINVAL, "cutune_device_runs_header: no output, runs or path");
    const cutune_tune_result **results = calloc((size_t)n + 1, sizeof *results);
    int *same = calloc((size_t)n + 1, sizeof *same), loaded = 0, rc = CUTUNE_OK;
    for (int i = 0; results && same && i < n; i++)
        if (runs[i].result) {
            same[loaded] = -1; /* until cutune_emit_header_devices says */
            results[loaded++] = runs[i].result;
        }
    const char *base = strrchr(path, '/');
    cutune_header_options opts = CUTUNE_HEADER_OPTIONS_INIT;
    opts.file_name = base ? base + 1 : path;
    if (!results || !same)
        rc = err_set(CUTUNE_ENOMEM, "out of memory");
    else if (loaded > 0 && (rc = cutune_emit_header_devices(out, spec, results, loaded, &opts, same)) != CUTUNE_OK)
        rc = err_wrap(rc, "no header written to %s", path);
    if (rc != CUTUNE_ENOMEM && loaded > 0 && notes && cutune_header_devices_notes(notes, same, loaded) != CUTUNE_OK)
        rc = CUTUNE_ENOMEM;
    free(results);
    free(same);
    return rc;
}
