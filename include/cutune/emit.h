/* cutune/emit.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * What is made of results: the best-config header, CSV, T4, the HTML report, and
 * where a spec's `emit` may write (api/cutune_emit.c; the headers of one file:
 * api/cutune_headers.c; what a command decides around them: api/cutune_emit_files.c). */
#ifndef CUTUNE_EMIT_H
#define CUTUNE_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"
#include "space.h"
#include "device.h"
#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cutune_spec_emit_path: where the spec's `emit KIND "PATH"` asks for output ("header",
 * "results" or "csv"), resolved against the spec's folder; NULL when it does not, and
 * NULL when the path leaves the spec's folder (absolute, or climbing out with "..")
 * outside the folder cutune_spec_set_emit_dir allowed: a spec must not write where it
 * likes (cutune_spec_emit_refused says why). */
const char *cutune_spec_emit_path(const cutune_spec *spec, const char *kind);

/* cutune_spec_emit_refused: why the spec's emit KIND path is not written (its place in
 * the spec, the path, and what would allow it), or NULL when it may be written or the
 * spec has none. The text is owned by the spec (valid until the next call). */
const char *cutune_spec_emit_refused(const cutune_spec *spec, const char *kind);

/* cutune_spec_set_emit_dir: allows the spec's emit paths that leave its folder to
 * write into `dir` or below it (a folder that exists; NULL allows none again). An
 * application sets it from what its user named, never from the spec. CUTUNE_OK, or
 * CUTUNE_EINVAL when `dir` is not a folder. */
int cutune_spec_set_emit_dir(cutune_spec *spec, const char *dir);

/* cutune_spec_select_kernel_of: holds the first kernel block of `spec` (a file may have
 * several) whose kernel, block name (`as NAME`; when r records one: files written before
 * blocks had names do not) and params (names and types, in order) are those `r` records,
 * as a header of r with the spec needs. CUTUNE_OK; CUTUNE_EINVAL (NULL arguments, a spec
 * with errors, or no block matches: the block held is then the last). */
int cutune_spec_select_kernel_of(cutune_spec *spec, const cutune_tune_result *r);

#define CUTUNE_HEADER_OPTIONS_VERSION 1

typedef struct cutune_header_options {
    unsigned int version;       /* CUTUNE_HEADER_OPTIONS_VERSION (cutune/common.h, "Options") */
    const char *prefix;         /* names' prefix; NULL: the spec's `emit header ... prefix`, else the
                                      kernel's name upper-cased */
    const char *const *sources; /* NULL, or what to call each results file in the comment */
    const char *file_name;      /* NULL, or the header's own name for its first line */
} cutune_header_options;

/* Every field's default: the spec's prefix (else the kernel's name), results files
 * called by their paths, no file name on the first line. */
#define CUTUNE_HEADER_OPTIONS_INIT \
    { \
        .version = CUTUNE_HEADER_OPTIONS_VERSION \
    }
int cutune_header_options_init(cutune_header_options *opts, unsigned int version);

/* cutune_emit_header: the best-config header (docs/header.md) as a NUL-terminated string
 * in *out (free it with cutune_free). With nresults >= 1: the winners of results[0 ..
 * nresults), one entry per device; entry 0 is the default of the look-up and the one
 * the plain macros hold. `spec` may then be NULL (no functions of the problem size);
 * when given it must be of the same kernel and params. With nresults == 0: the spec's
 * default configuration (each param's default, else its first value), marked not
 * tuned. `opts` may be NULL (every default). Returns CUTUNE_OK; CUTUNE_EINVAL (options of
 * another version, a result has no winner,
 * results or spec of different kernels or params, two results of one device (and
 * problem size), a name the header cannot define or two of its names that clash:
 * cutune_last_error says which); CUTUNE_ESPEC (the default configuration violates a
 * `require`: a diagnostic on the spec names it); CUTUNE_EEVAL (a diagnostic on the
 * spec); CUTUNE_ENOMEM. */
int cutune_emit_header(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                       const cutune_header_options *opts);

/* Names across the headers of one file. Several kernel blocks' headers may be written
 * one after the other into one file; each defines macros, functions and types with its
 * prefix, and two can meet: with the prefixes K and K_A, K's param a_x and K_A's param
 * x both make the macro K_A_X (docs/header.md, "Names"). cutune_emit_header refuses a
 * clash within one header; a cutune_header_names set refuses one across headers. Make
 * it with cutune_header_names_new (CUTUNE_OK or CUTUNE_ENOMEM), free it with
 * cutune_header_names_free (NULL is a no-op). */
typedef struct cutune_header_names cutune_header_names;
int cutune_header_names_new(cutune_header_names **out);
void cutune_header_names_free(cutune_header_names *names);

/* cutune_header_names_claim: the names the header cutune_emit_header would make of the
 * same arguments, checked against the headers claimed before it in `names` and then
 * added. Claim each header of a file before writing it. CUTUNE_OK; CUTUNE_EINVAL when
 * a name clashes (cutune_last_error names both sides; `names` is unchanged) or for the
 * reasons cutune_emit_header gives; its other errors. */
int cutune_header_names_claim(cutune_header_names *names, cutune_spec *spec, const cutune_tune_result *const *results,
                              int nresults, const cutune_header_options *opts);

/* The headers of one file (`cutune emit header`): results of several kernels (the blocks
 * of one spec file) each make a section, in the order their kernels are first given,
 * the sections one after the other with a blank line between, every name claimed in one
 * cutune_header_names set; without results, a section of defaults per kernel block of
 * the spec. */
#define CUTUNE_HEADERS_OPTIONS_VERSION 1

/* The spec of one kernel's results (results[0 .. nresults), all of one kernel): *spec
 * set to it with the block of that kernel selected (cutune_spec_select_kernel_of), or
 * to NULL (its section then has no functions of the problem size). The spec is the
 * callback's: it must stay valid until the next call or until cutune_emit_headers
 * returns. CUTUNE_OK, or any status, which stops cutune_emit_headers and is returned
 * unchanged (the error object as the callback left it). */
typedef int (*cutune_header_spec_fn)(void *user, cutune_spec **spec, const cutune_tune_result *const *results,
                                     int nresults);

typedef struct cutune_headers_options {
    unsigned int version;          /* CUTUNE_HEADERS_OPTIONS_VERSION (cutune/common.h, "Options") */
    const char *prefix;            /* every section's prefix (NULL: each its spec's, else its kernel's name);
                                   refused when there are several sections */
    const char *const *sources;    /* NULL, or what to call each results file (in results' order) */
    const char *file_name;         /* NULL, or the file's name for each section's first line */
    int selected_only;             /* without results: 1: only the block the spec has selected; 0: every
                                   block of the spec file, each its section */
    cutune_header_spec_fn spec_of; /* the spec of each kernel's results; NULL: the spec given to
                                      cutune_emit_headers (may be NULL), its kernel's block selected */
    void *user;                    /* for spec_of */
} cutune_headers_options;

/* Every field's default: the prefixes of the specs, results called by their paths, no
 * file name, every block of the spec, the spec given for every kernel. */
#define CUTUNE_HEADERS_OPTIONS_INIT \
    { \
        .version = CUTUNE_HEADERS_OPTIONS_VERSION \
    }
int cutune_headers_options_init(cutune_headers_options *opts, unsigned int version);

/* cutune_header_sections: how many sections the file of cutune_emit_headers' same
 * arguments has, in *out: with results, how many kernels they are of; without, 1 with
 * selected_only, else the spec file's kernel blocks. CUTUNE_OK, or CUTUNE_EINVAL
 * (neither results nor a spec, a NULL result). */
int cutune_header_sections(int *out, const cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                           int selected_only);

/* cutune_header_prefix_check: whether one `prefix` can name the file of
 * cutune_emit_headers' same arguments: CUTUNE_OK when prefix is NULL or there is one
 * section (cutune_header_sections); else CUTUNE_EINVAL, cutune_last_error saying why
 * in the command's words ("results of 2 kernels: one --prefix cannot name them all
 * (...)"), the refusal cutune_emit_headers makes. Or cutune_header_sections' error. */
int cutune_header_prefix_check(const cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                               int selected_only, const char *prefix);

/* cutune_emit_headers: the headers of one file as a NUL-terminated string in *out
 * (free it with cutune_free): with nresults >= 1, a section per kernel of results[0 ..
 * nresults) (cutune_emit_header of that kernel's results, in the order given, with
 * opts->spec_of's spec or `spec`), each section's names claimed against the sections
 * before it; with nresults == 0, the default configuration of `spec`'s blocks (every
 * block, or the selected one with opts->selected_only), the last one visited staying
 * selected. `opts` may be NULL (every default). CUTUNE_OK; CUTUNE_EINVAL (no output,
 * neither results nor a spec, options of another version, one prefix for several
 * sections, `spec` without a block of a kernel's results, and cutune_emit_header's and
 * cutune_header_names_claim's reasons: cutune_last_error says which); CUTUNE_ESPEC and
 * CUTUNE_EEVAL (a diagnostic on the section's spec); CUTUNE_ENOMEM; spec_of's status. */
int cutune_emit_headers(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                        const cutune_headers_options *opts);

/* cutune_header_has_winner: CUTUNE_OK when r has a winner to put in a header (at some
 * problem size), else CUTUNE_EINVAL, cutune_last_error saying "PATH: no variant ran
 * correctly, so there is no winner to put in a header". cutune_header_sources: what
 * cutune_headers_options.sources should call results[0 .. n) so that the header is the
 * same from any working folder: each one's results path made canonical (as recorded
 * when it cannot be resolved; NULL for a result with none), in *out, n entries and a
 * NULL in one block (free with cutune_free). CUTUNE_OK, CUTUNE_EINVAL (NULL arguments)
 * or CUTUNE_ENOMEM. */
int cutune_header_has_winner(const cutune_tune_result *r);
int cutune_header_sources(const char ***out, const cutune_tune_result *const *results, int n);

/* cutune_emit_header_devices: the header of one kernel's results on several GPUs (a
 * process per GPU: cutune --per-device), an entry per GPU model: of results of one
 * model (name and compute capability) the first given holds the entry (a header refuses
 * two of one device: its look-up would never reach the second). same_as (NULL, or room
 * for nresults): for each result, -1 when it holds its entry, else the index of the
 * earlier result whose entry it shares. Otherwise as cutune_emit_header (nresults >= 1).
 * CUTUNE_OK, or cutune_emit_header's status. */
int cutune_emit_header_devices(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                               const cutune_header_options *opts, int *same_as);

/* What `cutune emit header` and a finished run decide around the emitters
 * (api/cutune_emit_files.c). */

/* cutune_header_spec_load: the spec for the header of one kernel's results[0 ..
 * nresults) (a cutune_header_spec_fn's work), in *out (free with cutune_spec_free). With
 * `spec_path`: that spec file, loaded anew with `load` (NULL: every default), the block
 * of the results' kernel held (cutune_spec_select_kernel_of, for each result); *out is
 * set whenever cutune_spec_load_file gives a spec, also on failure, for its diagnostics.
 * Without: the spec results[0] records (cutune_results_spec with `load`, its kernel
 * file not required), or *out NULL. CUTUNE_OK; with spec_path, cutune_spec_load_file's
 * status (the spec's diagnostics say why), or CUTUNE_EINVAL when a result is not of the
 * spec ("R.json is not of this spec: its kernel or params differ from SPEC's": *out is
 * the spec, loaded without errors); without, CUTUNE_EINVAL when the recorded spec cannot
 * be used ("R.json records a spec that cannot be loaded now: PATH", and the other
 * reasons cutune_results_spec gives, after the results file's path, then "; the header
 * has no functions of the problem size (...)"): a header can still be made, without
 * those functions. CUTUNE_EINVAL for bad arguments. */
int cutune_header_spec_load(cutune_spec **out, const char *spec_path, const cutune_tune_result *const *results,
                            int nresults, const cutune_load_options *load);

/* cutune_results_of_kernel: of results[0 .. nresults), those of the kernel block named
 * `name` (cutune_tune_block), else, when none is, those of the first block given of the
 * kernel `name` (cutune_tune_kernel): the block a spec's `--kernel NAME` selects
 * (cutune_spec_select_block); with `name` NULL, every one. Into out (room for
 * nresults), in the order given, *nout how many. CUTUNE_OK; CUTUNE_EINVAL when none is (cutune_last_error names `name` and the
 * blocks the results are of) or for bad arguments. */
int cutune_results_of_kernel(const cutune_tune_result **out, int *nout, const cutune_tune_result *const *results,
                             int nresults, const char *name);

/* What cutune_emit_after_tune (or cutune_report_after_tune) did with one file (its
 * strings borrowed for the call). */
typedef struct cutune_emitted {
    const char *kind; /* "csv", "header" or "report" */
    const char *path; /* where ("-": standard output) */
    int written;      /* 1: written */
    int status;       /* not written: CUTUNE_OK when there was nothing to write (a run without a winner has
                         no header), else why (cutune_last_error says; CUTUNE_ESPEC and CUTUNE_EEVAL: a
                         diagnostic on the spec) */
} cutune_emitted;
typedef void (*cutune_emitted_fn)(void *user, const cutune_emitted *file);

/* cutune_emit_after_tune: the files a tuning run of `spec` writes of its result r: the
 * CSV (cutune_emit_csv) to `csv_path`, else to the spec's `emit csv` path, then the
 * header (cutune_emit_header of r and the spec) to `header_path`, else to the spec's
 * `emit header` path; NULL, and no such path in the spec: that file is not written. With
 * header_append, the header goes after what its file holds, a blank line between
 * (another kernel block of the spec file wrote it in this run: cutune_block). A run
 * without a winner (at any problem size) writes no header. "-" is standard output.
 * told(user, file) (NULL: nobody is told) after each file, as it went, while
 * cutune_last_error still says why one was not written. Returns CUTUNE_OK when every
 * file asked for was written or had nothing to write; else the first failure's status
 * (CUTUNE_EIO: a file could not be written; CUTUNE_ESPEC, CUTUNE_EEVAL, CUTUNE_EINVAL,
 * CUTUNE_ENOMEM: cutune_emit_header's or cutune_emit_csv's); CUTUNE_EINVAL for NULL
 * arguments. */
int cutune_emit_after_tune(cutune_spec *spec, const cutune_tune_result *r, const char *header_path,
                           const char *csv_path, int header_append, cutune_emitted_fn told, void *user);

/* cutune_emit_csv: every variant of `r` as one CSV row (RFC 4180; the columns are in
 * docs/results-format.md), in *out (free with cutune_free). CUTUNE_OK or CUTUNE_ENOMEM. */
int cutune_emit_csv(char **out, const cutune_tune_result *r);

/* cutune_emit_csv_file: the CSV of the results file at `results_path` (read with
 * cutune_results_load_all, its errors as that gives them), in *out (free with
 * cutune_free; NULL on failure). CUTUNE_OK, the load's status, CUTUNE_EINVAL (NULL
 * arguments) or CUTUNE_ENOMEM. */
int cutune_emit_csv_file(char **out, const char *results_path);

/* cutune_variant_csv: the configuration `v` of `spec` (from cutune_configs_next) as one
 * CSV row, the row `cutune list --format csv` prints: index, a value per param,
 * block.x .. z, grid.x .. z, smem_bytes, kernel, defines, options (space-separated);
 * v NULL: the header row, the params named by `spec`. Fields are quoted as
 * cutune_emit_csv's (RFC 4180, formula-safe); no line end. cutune_variant_json: `v` as
 * the compact JSON object `list --format json` prints, params typed (docs/cli.md). In
 * *out (free with cutune_free). CUTUNE_OK; CUTUNE_EINVAL (NULL arguments);
 * CUTUNE_ENOMEM. */
int cutune_variant_csv(char **out, const cutune_spec *spec, const cutune_variant *v);
int cutune_variant_json(char **out, const cutune_spec *spec, const cutune_variant *v);

/* The JSON of `cutune check`, `occupancy` and `devices` (docs/cli.md), indented, no line
 * end, in *out (free with cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL arguments) or
 * CUTUNE_ENOMEM. cutune_space_summary_json: the spec's params, constraints, the counts
 * `size` (from cutune_space_count, which took `count_seconds`), search, the device
 * attributes it reads and its problem sizes. cutune_occupancy_json: `occ` (from
 * cutune_occupancy_for_arch/_device) with the figures asked: GPU `device` (-1: an
 * architecture was asked), `regs`, `threads`, `smem` bytes. cutune_devices_json: devs[0
 * .. n) (from cutune_device_get) as an array. */
int cutune_space_summary_json(char **out, const cutune_spec *spec, const cutune_space_size *size, double count_seconds);
int cutune_occupancy_json(char **out, const cutune_occupancy *occ, int device, int regs, int threads, int64_t smem);
int cutune_devices_json(char **out, const cutune_device *devs, int n);

/* The same as the text `cutune occupancy` and `devices` print (docs/cli.md), each line
 * ending in a line feed, in *out (free with cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL
 * arguments, n < 0) or CUTUNE_ENOMEM. cutune_occupancy_text: `occ` for a block of
 * `threads` threads x `regs` registers and `smem` bytes: the blocks per SM and what
 * each limit allows, the active warps, the occupancy, the limiter (or why it cannot
 * launch) and what is allocated. cutune_devices_text: a line per GPU of devs[0 .. n)
 * (ordinal, name, architecture, SMs, L2 MiB, driver version; "" for none). */
/* cutune_space_summary_text: the summary `cutune check` prints for `spec` (loaded; one
 * with errors too: what it holds) and the counts `size` from cutune_space_count (which
 * took `count_seconds`): its path, kernel, a line per param (count, route, its first
 * eight values), constraints, the device attributes it reads, the space (counted or
 * estimated), the search (`search`, NULL: the spec's) and its problem sizes.
 * cutune_spec_device_text: the device attributes the spec's expressions read, with
 * their values and where they come from ("sm_count 132  (read from ...)"; "" when it
 * reads none), no line end. In *out (free with cutune_free); CUTUNE_OK, CUTUNE_EINVAL
 * (NULL arguments) or CUTUNE_ENOMEM. */
int cutune_space_summary_text(char **out, const cutune_spec *spec, const cutune_space_size *size, double count_seconds,
                              const char *search);
int cutune_spec_device_text(char **out, const cutune_spec *spec);

/* cutune_spec_block_heading: the line the commands print before the selected block I of
 * a spec of several kernel blocks: "kernel KERNEL (block I of N)", or
 * "kernel KERNEL as BLOCK (block I of N)" when the block has a name of its own; an empty
 * line before it after the first block; "" when the spec has one block. In *out (free
 * with cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL arguments, a spec with errors) or
 * CUTUNE_ENOMEM. */
int cutune_spec_block_heading(char **out, const cutune_spec *spec);

/* cutune_spec_size_heading: the line before problem size k (0 up) of a spec of several
 * sizes, after an empty line: "size n=1024 m=8:"; "" when the spec has one size (or
 * none). In *out (free with cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL arguments, a
 * spec with errors, no size k) or CUTUNE_ENOMEM. */
int cutune_spec_size_heading(char **out, const cutune_spec *spec, int k);
int cutune_occupancy_text(char **out, const cutune_occupancy *occ, int regs, int threads, int64_t smem);
int cutune_devices_text(char **out, const cutune_device *devs, int n);
/* cutune_devices_note: what `--devices all` does with the n GPUs devs[0 .. n), the
 * line `cutune devices` ends with: all of one model measure at once into one result,
 * of several models each tunes every configuration (as --per-device); "" for fewer
 * than two. cutune_header_devices_notes: a line for each k with same_as[k] >= 0
 * (cutune_emit_header_devices' list of n): results k+1 are of the GPU model of results
 * same_as[k]+1, and the header holds the first one's winner ("" when none). In *out
 * (free with cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL arguments) or CUTUNE_ENOMEM. */
int cutune_devices_note(char **out, const cutune_device *devs, int n);
int cutune_header_devices_notes(char **out, const int *same_as, int n);

/* cutune_emit_t4: `r` in Kernel Tuner's T4 results format (JSON, schema version 1.0.0;
 * the mapping is in docs/results-format.md), in *out (free with cutune_free).
 * CUTUNE_OK or CUTUNE_ENOMEM. */
int cutune_emit_t4(char **out, const cutune_tune_result *r);

#define CUTUNE_REPORT_OPTIONS_VERSION 1

typedef struct cutune_report_options {
    unsigned int version;     /* CUTUNE_REPORT_OPTIONS_VERSION (cutune/common.h, "Options") */
    const char *const *names; /* NULL, or what to call each result on the page (e.g. its file's path);
                                      NULL entries and NULL: the results path it was read from */
    const char *title;        /* the page's title; NULL: "cutune report" */
} cutune_report_options;

/* Every field's default: results called by the paths they were read from, the title
 * "cutune report". */
#define CUTUNE_REPORT_OPTIONS_INIT \
    { \
        .version = CUTUNE_REPORT_OPTIONS_VERSION \
    }
int cutune_report_options_init(cutune_report_options *opts, unsigned int version);

/* cutune_emit_report: results[0 .. nresults) (nresults >= 1) as one self-contained HTML
 * page (docs/report.md): the winner beside the median variant, heatmaps of the objective
 * over pairs of params, the objective against occupancy and registers, its
 * distribution, each param's effect, failures by cause, a search's best so far, and
 * several results side by side; a section per problem size. Charts are inline SVG;
 * nothing is fetched. The same results give the same bytes. In *out (free with
 * cutune_free). `opts` may be NULL (every default). Returns CUTUNE_OK; CUTUNE_EINVAL (no
 * output or no results, options of another version); CUTUNE_ENOMEM. */
int cutune_emit_report(char **out, const cutune_tune_result *const *results, int nresults,
                       const cutune_report_options *opts);

/* cutune_report_after_tune: the report page of a tuning run's result r (cutune_emit_report,
 * the run named by r's results path, else by `spec_path`; both NULL: the default name)
 * written to `path` ("-": standard output), then told(user, file) (NULL: nobody is
 * told) with kind "report", while cutune_last_error still says why it was not written.
 * CUTUNE_OK; the page's failure (its message "no report: ...": CUTUNE_EINVAL,
 * CUTUNE_ENOMEM); CUTUNE_EIO (the page could not be written: the message names the
 * path); CUTUNE_EINVAL for r or path NULL. */
int cutune_report_after_tune(const cutune_tune_result *r, const char *spec_path, const char *path,
                             cutune_emitted_fn told, void *user);

/* cutune_emitted_text: what `cutune SPEC` says on stderr of one file it wrote or not
 * after a run (`file`, as told by cutune_emit_after_tune or cutune_report_after_tune,
 * called while cutune_last_error still says why), a line in *out (free with cutune_free;
 * "" when there is nothing to say): "KIND: PATH" when written ("" when `brief`);
 * "cutune: no KIND written to PATH: there is no winner" when there was nothing to write;
 * "" for a failure that is a diagnostic on the spec (CUTUNE_ESPEC, CUTUNE_EEVAL: the
 * spec's diagnostics say it); else "cutune: WHY" (the report's page that could not be
 * written: "cutune report: WHY", as `cutune report` says it). CUTUNE_OK, CUTUNE_EINVAL
 * (NULL arguments) or CUTUNE_ENOMEM. */
int cutune_emitted_text(char **out, const cutune_emitted *file, int brief);

/* cutune_emit_t4_to: the results file at `results_path` in Kernel Tuner's T4 format (the
 * bytes cutune_emit_t4 gives for it), written to the file `output_path` ("-": standard
 * output) as the results are read, one entry at a time: memory stays near one entry's
 * (and the run's names), however large the file, which is read twice. The output
 * replaces `output_path` atomically when complete (as every file cutune writes); on any
 * failure it is left as it was. Returns CUTUNE_OK; CUTUNE_EIO (the results file cannot
 * be read or is not one, or the output cannot be written: cutune_last_error says which,
 * naming the file); CUTUNE_EINVAL (NULL arguments); CUTUNE_ENOMEM. */
int cutune_emit_t4_to(const char *results_path, const char *output_path);

#ifdef __cplusplus
}
#endif

#endif
