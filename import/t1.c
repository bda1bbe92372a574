/* t1.c - a T1 tuning problem translated into a cutune spec (t1.h): the file read, its
 * top level and KernelSpecification checked (language, kernel name and file, compiler
 * options), the sections translated in turn (the configuration space: t1_space.c; the
 * geometry and the arguments: t1_args.c; verify and the settings: t1_settings.c), and
 * the spec's text assembled; also the names and quoting every section uses.
 *
 * What the spec holds, in order: a comment naming the T1 file and every note; the
 * kernel block with the compiler options, one param per tuning parameter (its values
 * as a range where they are one, else listed; `default` from Default), one require per
 * condition (the Python text beside it as a comment), the geometry, the arguments,
 * verify, search and measure.
 *
 * Ownership: a translation's work lives in its context's arena, freed when it ends; the
 * t1_result (text, errors, notes) is the caller's, released by t1_result_free. */
#include <errno.h>
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

const char *t1_comment(t1_state *s, const char *text)
{
    char *r = arena_strdup(s->c->a, text);
    for (char *p = r; p && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    return r ? r : "";
}

/* ---- the kernel specification and the spec's text ------------------------------------ */

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
    t1_config_space(s, &space);
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
    t1_verify(s, &tail);
    t1_settings(s, &tail);
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
                  t1_comment(s, c->file));
        for (int k = 0; k < c->nnotes; k++)
            sb_printf(&spec, "# note: %s\n", t1_comment(s, c->notes[k]));
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
