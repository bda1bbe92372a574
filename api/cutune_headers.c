/* cutune_headers.c - cutune/emit.h: the headers of one file (`cutune emit header`).
 *
 * The policy: results are grouped by kernel, in the order each kernel is first given;
 * each group is one section (cutune_emit_header of that kernel's results and spec), and
 * its names are claimed against the sections before it (a cutune_header_names set:
 * two sections must not define one macro). Without results, each kernel block of the
 * spec gives a section of its defaults (the spec's own check has compared their
 * names). One prefix cannot name several sections. Sections are joined with a blank
 * line. The caller owns the results and the spec; spec_of's specs are its own.
 * Also the header of one kernel tuned on several GPUs: an entry per GPU model; and
 * what a header needs of its results files: a winner, and their names. */
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../base/sys.h"
#include "internal.h"

/* kernel_groups: group[k] = the index of results[k]'s kernel block among the blocks of
 * results[0 .. n) (by the block's name: two blocks of one kernel are two sections),
 * numbered in order of first appearance; returns how many. */
static int kernel_groups(int *group, const cutune_tune_result *const *results, int n)
{
    int ngroups = 0;
    for (int k = 0; k < n; k++) {
        group[k] = -1;
        for (int q = 0; q < k && group[k] < 0; q++)
            if (strcmp(cutune_tune_kernel(results[q]), cutune_tune_kernel(results[k])) == 0 &&
                strcmp(cutune_tune_block(results[q]), cutune_tune_block(results[k])) == 0)
                group[k] = group[q];
        if (group[k] < 0)
            group[k] = ngroups++;
    }
    return ngroups;
}

/* arguments_ok: the checks cutune_header_sections and cutune_emit_headers share. */
static int arguments_ok(const char *who, const cutune_spec *spec, const cutune_tune_result *const *results,
                        int nresults)
{
    if (nresults < 0 || (nresults > 0 && !results) || (nresults == 0 && !spec))
        return err_set(CUTUNE_EINVAL, "%s: neither results nor a spec", who);
    for (int k = 0; k < nresults; k++)
        if (!results[k])
            return err_set(CUTUNE_EINVAL, "%s: result %d is NULL", who, k);
    return CUTUNE_OK;
}

int cutune_header_sections(int *out, const cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                           int selected_only)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_header_sections: no output");
    int rc = arguments_ok("cutune_header_sections", spec, results, nresults);
    if (rc < 0)
        return rc;
    if (nresults == 0) {
        *out = selected_only ? 1 : cutune_spec_kernel_count(spec);
        return CUTUNE_OK;
    }
    int *group = calloc((size_t)nresults, sizeof *group);
    if (!group)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    *out = kernel_groups(group, results, nresults);
    free(group);
    return CUTUNE_OK;
}

/* section: one section's text after what `all` holds (a blank line between):
 * cutune_emit_header of the arguments. CUTUNE_OK or its status. */
static int section(strbuf *all, cutune_spec *spec, const cutune_tune_result *const *results, int n,
                   const cutune_header_options *ho)
{
    char *text = NULL;
    int rc = cutune_emit_header(&text, spec, results, n, ho);
    if (rc != CUTUNE_OK)
        return rc;
    if (all->len)
        sb_addc(all, '\n');
    sb_add(all, text);
    cutune_free(text);
    return sb_ok(all) ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

/* defaults: the default configuration of each block (only the selected one with
 * selected_only) into `all`. */
static int defaults(strbuf *all, cutune_spec *spec, int blocks, const cutune_headers_options *opts,
                    const cutune_header_options *ho)
{
    cutune_header_names *names = NULL; /* two blocks' names may meet in the one file */
    int rc = cutune_header_names_new(&names);
    for (int b = 0; rc == CUTUNE_OK && b < blocks; b++) {
        if (!opts->selected_only)
            cutune_spec_select_kernel(spec, b);
        rc = cutune_header_names_claim(names, spec, NULL, 0, ho);
        if (rc == CUTUNE_OK)
            rc = section(all, spec, NULL, 0, ho);
    }
    cutune_header_names_free(names);
    return rc;
}

/* group_spec: the spec of one kernel's results: spec_of's, else `spec` with the block
 * of their kernel selected (NULL stays NULL). */
static int group_spec(cutune_spec **out, cutune_spec *spec, const cutune_tune_result *const *results, int n,
                      const cutune_headers_options *opts)
{
    *out = NULL;
    if (opts->spec_of)
        return opts->spec_of(opts->user, out, results, n);
    for (int k = 0; spec && k < n; k++) {
        int rc = cutune_spec_select_kernel_of(spec, results[k]);
        if (rc != CUTUNE_OK)
            return rc;
    }
    *out = spec;
    return CUTUNE_OK;
}

/* kernels: a section per kernel of results[0 .. n) into `all`; `group` from
 * kernel_groups, sub and sources room for n. */
static int kernels(strbuf *all, cutune_spec *spec, const cutune_tune_result *const *results, int n, const int *group,
                   int ngroups, const cutune_tune_result **sub, const char **sources,
                   const cutune_headers_options *opts, cutune_header_options *ho)
{
    cutune_header_names *names = NULL;
    int rc = cutune_header_names_new(&names);
    for (int g = 0; rc == CUTUNE_OK && g < ngroups; g++) {
        int m = 0;
        for (int k = 0; k < n; k++)
            if (group[k] == g) {
                sources[m] = opts->sources ? opts->sources[k] : NULL;
                sub[m++] = results[k];
            }
        ho->sources = opts->sources ? sources : NULL;
        cutune_spec *s = NULL;
        rc = group_spec(&s, spec, sub, m, opts);
        if (rc == CUTUNE_OK)
            rc = cutune_header_names_claim(names, s, sub, m, ho);
        if (rc == CUTUNE_OK)
            rc = section(all, s, sub, m, ho);
    }
    cutune_header_names_free(names);
    return rc;
}

/* prefix_refused: CUTUNE_EINVAL, saying why one prefix cannot name `count` sections (of
 * results when nresults > 0, else of a spec's kernel blocks) and what to do instead. */
static int prefix_refused(int count, int nresults)
{
    if (nresults)
        return err_set(CUTUNE_EINVAL,
                       "results of %d kernels: one --prefix cannot name them all (each kernel's prefix comes "
                       "from its spec)",
                       count);
    return err_set(CUTUNE_EINVAL,
                   "the spec has %d kernel blocks: one --prefix cannot name them all (pick one with --kernel NAME)",
                   count);
}

int cutune_header_prefix_check(const cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                               int selected_only, const char *prefix)
{
    int count = 1;
    int rc = prefix ? cutune_header_sections(&count, spec, results, nresults, selected_only) : CUTUNE_OK;
    return rc == CUTUNE_OK && count > 1 ? prefix_refused(count, nresults) : rc;
}

int cutune_emit_headers(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                        const cutune_headers_options *opts)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_emit_headers: no output");
    *out = NULL;
    cutune_headers_options defaults_opts = CUTUNE_HEADERS_OPTIONS_INIT;
    int rc = api_options_ok(opts, CUTUNE_HEADERS_OPTIONS_VERSION, "cutune_headers_options");
    int count = 0;
    if (rc == CUTUNE_OK)
        rc = cutune_header_sections(&count, spec, results, nresults, opts ? opts->selected_only : 0);
    if (rc < 0)
        return rc;
    if (!opts)
        opts = &defaults_opts;
    if (opts->prefix && count > 1)
        return prefix_refused(count, nresults);
    cutune_header_options ho = CUTUNE_HEADER_OPTIONS_INIT;
    ho.prefix = opts->prefix;
    ho.file_name = opts->file_name;
    strbuf all = STRBUF_INIT;
    if (nresults == 0) {
        rc = defaults(&all, spec, count, opts, &ho);
    } else {
        int *group = calloc((size_t)nresults, sizeof *group);
        const cutune_tune_result **sub = calloc((size_t)nresults, sizeof *sub);
        const char **sources = calloc((size_t)nresults, sizeof *sources);
        rc = group && sub && sources ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
        if (rc == CUTUNE_OK)
            rc = kernels(&all, spec, results, nresults, group, kernel_groups(group, results, nresults), sub, sources,
                         opts, &ho);
        free(group);
        free(sub);
        free(sources);
    }
    if (rc == CUTUNE_OK && !(*out = sb_steal(&all)))
        rc = err_set(CUTUNE_ENOMEM, "out of memory");
    sb_free(&all);
    return rc;
}

int cutune_emit_header_devices(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                               const cutune_header_options *opts, int *same_as)
{
    if (!out || nresults < 1 || !results)
        return err_set(CUTUNE_EINVAL, "cutune_emit_header_devices: no output or results");
    *out = NULL;
    const cutune_tune_result **distinct = calloc((size_t)nresults, sizeof *distinct);
    int *first = calloc((size_t)nresults, sizeof *first); /* distinct[i] is results[first[i]] */
    if (!distinct || !first) {
        free(distinct);
        free(first);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    int nd = 0;
    for (int k = 0; k < nresults; k++) {
        const cutune_device *d = cutune_tune_device(results[k]);
        int same = -1;
        for (int q = 0; q < nd && same < 0; q++)
            if (strcmp(cutune_tune_device(distinct[q])->name, d->name) == 0 &&
                cutune_tune_device(distinct[q])->cc == d->cc)
                same = first[q];
        if (same_as)
            same_as[k] = same;
        if (same < 0) {
            first[nd] = k;
            distinct[nd++] = results[k];
        }
    }
    int rc = cutune_emit_header(out, spec, distinct, nd, opts);
    free(distinct);
    free(first);
    return rc;
}

int cutune_header_has_winner(const cutune_tune_result *r)
{
    if (!r)
        return err_set(CUTUNE_EINVAL, "cutune_header_has_winner: no result");
    if (cutune_tune_best(r) || cutune_tune_size_count(r) > 0)
        return CUTUNE_OK;
    const char *path = cutune_tune_summary_of(r)->results_path;
    return err_set(CUTUNE_EINVAL, "%s: no variant ran correctly, so there is no winner to put in a header",
                   path ? path : "the results");
}

int cutune_header_sources(const char ***out, const cutune_tune_result *const *results, int n)
{
    if (!out || n < 0 || (!results && n > 0))
        return err_set(CUTUNE_EINVAL, "cutune_header_sources: no output or results");
    *out = NULL;
    char **canon = calloc((size_t)n + 1, sizeof *canon);
    size_t room = ((size_t)n + 1) * sizeof(char *);
    for (int k = 0; canon && k < n; k++) {
        const char *path = cutune_tune_summary_of(results[k])->results_path;
        canon[k] = path ? sys_canonical_path(path) : NULL;
        room += strlen(canon[k] ? canon[k] : path ? path : "") + 1;
    }
    const char **names = canon ? malloc(room) : NULL; /* the pointers, then the strings */
    char *at = names ? (char *)(names + n + 1) : NULL;
    for (int k = 0; names && k < n; k++) {
        const char *path = cutune_tune_summary_of(results[k])->results_path;
        const char *name = canon[k] ? canon[k] : path;
        names[k] = name ? strcpy(at, name) : NULL;
        at += name ? strlen(name) + 1 : 1;
    }
    if (names)
        names[n] = NULL;
    for (int k = 0; canon && k < n; k++)
        free(canon[k]);
    free(canon);
    *out = names;
    return names ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}
