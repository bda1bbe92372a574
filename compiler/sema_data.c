/* sema_data.c - the data and checking statements and clauses: inputs from files (`file("a.npy")`),
 * the range of an integer `random()`, `reset` (launch hooks) and verify's checkers
 * (`l2`, `ulp`, `check kernel`); see sema_internal.h. Everything lives in s->a. */
#include "sema_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/err.h"
#include "../base/npy.h"
#include "../base/suggest.h"
#include "../base/sys.h"
#include "plan.h"

/* ---- inputs from files ------------------------------------------------------------ */

/* npy_matches: 0 when an .npy file described by `info` can fill elements of type t
 * (dtype, byte order, layout), else -1 with the reason in why. */
static int npy_matches(ast_ctype t, const npy_info *info, char *why, size_t size);

/* The .npy kind and size of each element type ('\0': none; bf16 has no NumPy dtype). */
static void npy_kind_of(ast_ctype t, char *kind, int *size)
{
    static const struct {
        char kind;
        int size;
    } map[] = {
        [CT_HALF] = {'f', 2}, [CT_BF16] = {'\0', 2}, [CT_FLOAT] = {'f', 4}, [CT_DOUBLE] = {'f', 8},
        [CT_INT8] = {'i', 1}, [CT_UINT8] = {'u', 1}, [CT_INT16] = {'i', 2}, [CT_UINT16] = {'u', 2},
        [CT_INT] = {'i', 4},  [CT_UINT] = {'u', 4},  [CT_INT64] = {'i', 8}, [CT_UINT64] = {'u', 8},
    };
    t = ast_ctype_component(t); /* a vector's file holds its lanes, one after the other */
    *kind = map[t].kind;
    *size = map[t].size;
}

static int npy_matches(ast_ctype t, const npy_info *info, char *why, size_t size)
{
    char kind;
    int bytes;
    npy_kind_of(t, &kind, &bytes);
    if (!kind) {
        snprintf(why, size, "%s has no NumPy dtype; give a raw file of its 2-byte elements", ast_ctype_name(t));
        return -1;
    }
    bool kind_ok = info->kind == kind || (t == CT_UINT8 && info->kind == 'b');
    if (!kind_ok || info->itemsize != bytes) {
        snprintf(why, size, "its elements are '%s', and %s needs '%c%c%d'", info->descr, ast_ctype_name(t),
                 bytes == 1 ? '|' : '<', kind, bytes);
        return -1;
    }
    if (info->byteorder == '>' && bytes > 1) {
        snprintf(why, size, "its elements are big-endian ('%s'); save it little-endian (arr.astype('<%c%d'))",
                 info->descr, kind, bytes);
        return -1;
    }
    if (!npy_layout_is_c(info)) {
        char shape[160];
        npy_shape_text(info, shape, sizeof shape);
        snprintf(why, size, "it is in Fortran order with shape %s; save it in C order (np.ascontiguousarray)", shape);
        return -1;
    }
    return 0;
}

/* file("PATH"): the path resolved, the file read as far as its header, its type and
 * element count compared with the arg's (the count only when it is a constant: a count
 * that depends on params is compared per configuration, in the GPU worker). */
static void check_file_input(sema *s, const ast_expr *init, m_arg *arg)
{
    const ast_arg_list *args = &init->u.call.args;
    if (init->kind != EX_CALL || args->len != 1 || args->items[0].name || args->items[0].value->kind != EX_STRING) {
        diag_error(s->dl, init->loc, "file() takes one path, a string: file(\"a.npy\") or file(\"a.bin\")");
        return;
    }
    const ast_expr *p = args->items[0].value;
    arg->init = INIT_FILE;
    arg->file_loc = p->loc;
    arg->file = sema_resolve_path(s, p->u.sval);
    size_t n = strlen(p->u.sval);
    arg->file_npy = n >= 4 && strcmp(p->u.sval + n - 4, ".npy") == 0;
    if (arg->dir == DIR_OUT)
        return; /* sema_check_arg warns that the contents are not used */
    if (!arg->file || (s->opts && s->opts->skip_file_checks))
        return;
    unsigned char head[4096];
    size_t got, file_size;
    if (sys_read_part(arg->file, 0, head, sizeof head, &got, &file_size) < 0) {
        diag_error(s->dl, p->loc, "cannot read input file '%s': %s", arg->file, sys_strerror(errno));
        return;
    }
    int64_t count = -1;
    if (arg->count && arg->count->kind == TX_CONST && arg->count->type == VT_INT)
        count = arg->count->u.k.u.i;
    int elem = ast_ctype_size(arg->type);
    int64_t bytes = 0;
    if (count > 0 && !plan_buffer_bytes(count, arg->type, &bytes))
        return; /* the count's own error says its bytes overflow (sema_arg.c) */
    if (!arg->file_npy) {
        if (count > 0 && (uint64_t)file_size != (uint64_t)bytes)
            diag_error(s->dl, p->loc,
                       "raw input file '%s' holds %zu bytes; arg '%s' needs %lld (%lld %s elements "
                       "of %d bytes)",
                       arg->file, file_size, arg->name, (long long)bytes, (long long)count, ast_ctype_name(arg->type),
                       elem);
        else if (file_size % (size_t)elem)
            diag_error(s->dl, p->loc,
                       "raw input file '%s' holds %zu bytes, not a whole number of %s elements of "
                       "%d bytes",
                       arg->file, file_size, ast_ctype_name(arg->type), elem);
        return;
    }
    npy_info info;
    char why[256];
    if (npy_parse(head, got, &info) < 0) {
        diag_error(s->dl, p->loc, "input file '%s': %s", arg->file, err_last()->message);
        return;
    }
    if (npy_matches(arg->type, &info, why, sizeof why) < 0) {
        diag_error(s->dl, p->loc, "input file '%s' cannot fill arg '%s': %s", arg->file, arg->name, why);
        return;
    }
    char shape[160];
    npy_shape_text(&info, shape, sizeof shape);
    int lanes = ast_ctype_lanes(arg->type);
    if (count > 0 && info.count != (uint64_t)count * (uint64_t)lanes) {
        diag_error(s->dl, p->loc, "input file '%s' has shape %s: %llu elements; arg '%s' has %lld%s", arg->file, shape,
                   (unsigned long long)info.count, arg->name, (long long)count,
                   lanes > 1 ? " vectors (their lanes count: the file needs count x lanes elements)" : "");
        return;
    }
    if (info.count % (uint64_t)lanes) {
        diag_error(s->dl, p->loc, "input file '%s' has shape %s: %llu elements, not a whole number of %s (%d lanes)",
                   arg->file, shape, (unsigned long long)info.count, ast_ctype_name(arg->type), lanes);
        return;
    }
    uint64_t need = info.data_bytes; /* npy_parse refuses a product that overflows */
    if (file_size < info.data_offset || file_size - info.data_offset < need)
        diag_error(s->dl, p->loc, "input file '%s' is truncated: shape %s needs %llu bytes of data, it holds %zu",
                   arg->file, shape, (unsigned long long)need,
                   file_size > info.data_offset ? file_size - info.data_offset : 0);
}

/* An integer random(): whole numbers from ceil(min) to floor(max), both included, which
 * must exist and fit the element type (a value outside would wrap). */
static void check_int_random(sema *s, const ast_expr *init, const m_arg *arg)
{
    double lo = ceil(arg->lo), hi = floor(arg->hi);
    if (lo > hi) {
        diag_error(s->dl, init->loc,
                   "random(min = %g, max = %g) holds no whole number for %s arg '%s' (an integer "
                   "random() draws the whole numbers from min to max, both included)",
                   arg->lo, arg->hi, ast_ctype_name(arg->type), arg->name);
        return;
    }
    static const struct {
        ast_ctype type;
        double lo, hi;
    } ranges[] = {
        {CT_INT8, -128, 127},
        {CT_UINT8, 0, 255},
        {CT_INT16, -32768, 32767},
        {CT_UINT16, 0, 65535},
        {CT_INT, -2147483648.0, 2147483647.0},
        {CT_UINT, 0, 4294967295.0},
        {CT_INT64, -9007199254740992.0, 9007199254740992.0},
        {CT_UINT64, 0, 9007199254740992.0},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if (ranges[i].type == ast_ctype_component(arg->type) && (lo < ranges[i].lo || hi > ranges[i].hi))
            diag_error(s->dl, init->loc, "random(min = %g, max = %g) does not fit %s arg '%s' (%.0f to %.0f%s)",
                       arg->lo, arg->hi, ast_ctype_name(arg->type), arg->name, ranges[i].lo, ranges[i].hi,
                       arg->type == CT_INT64 || arg->type == CT_UINT64 ? ": random values are exact up to 2^53" : "");
}

void sema_check_data_init(sema *s, const ast_expr *init, m_arg *arg)
{
    if (arg->init == INIT_RANDOM && !ast_ctype_is_float(arg->type))
        check_int_random(s, init, arg);
    else if (init->kind == EX_CALL && strcmp(init->u.call.name, "file") == 0)
        check_file_input(s, init, arg);
}

/* ---- reset -------------------------------------------------------------------------- */

/* The arg `n` names, or -1 after reporting (with a hint). */
static int find_buffer(sema *s, const ast_name *n, const char *owner)
{
    model *m = s->m;
    char why[64];
    snprintf(why, sizeof why, "%s names buffer arguments", owner);
    int k = sema_arg_named(s, n, why);
    if (k < 0)
        return -1;
    if (!m->args[k].is_buffer) {
        diag_error(s->dl, n->loc, "'%s' is a scalar argument; %s sets buffers", n->name, owner);
        return -1;
    }
    if (m->args[k].dir == DIR_CONSTANT) {
        diag_error(s->dl, n->loc,
                   "'%s' is a constant argument: no kernel can write a __constant__ symbol, so it needs no %s "
                   "(%s sets buffers)",
                   n->name, owner, owner);
        return -1;
    }
    return k;
}

void sema_check_reset(sema *s, const ast_item *it)
{
    model *m = s->m;
    if (it->u.reset.kernel.is_kernel) {
        m_reset r;
        memset(&r, 0, sizeof r);
        r.loc = it->loc;
        r.kind = RESET_KERNEL;
        sema_lower_kernel_ref(s, &it->u.reset.kernel, "reset kernel", true, &r.kernel);
        if (ARENA_PUSH(s->a, m->resets, m->nresets, s->caps[CAP_RESETS], r) < 0)
            s->oom = true;
        return;
    }
    const ast_expr *v = it->u.reset.value;
    reset_kind kind = RESET_INPUT;
    const ast_expr *constant = NULL;
    const char *fname = !v ? NULL : v->kind == EX_NAME ? v->u.name : v->kind == EX_CALL ? v->u.call.name : NULL;
    if (!v || (v->kind == EX_NAME && strcmp(fname, "input") == 0)) {
        kind = RESET_INPUT;
    } else if (fname && strcmp(fname, "zeros") == 0) {
        kind = RESET_ZEROS;
        if (v->kind == EX_CALL && v->u.call.args.len)
            diag_error(s->dl, v->loc, "zeros takes no settings");
    } else if (fname && v->kind == EX_CALL && strcmp(fname, "constant") == 0) {
        if (v->u.call.args.len != 1 || v->u.call.args.items[0].name) {
            diag_error(s->dl, v->loc, "constant() takes one value: constant(7)");
            return;
        }
        kind = RESET_CONSTANT;
        constant = v->u.call.args.items[0].value;
    } else if ((v->kind == EX_NAME && !sema_find_sym(s, fname) &&
                suggest_best(fname, (const char *const[]){"zeros", "constant", "input"}, 3)) ||
               (v->kind == EX_CALL &&
                (strcmp(fname, "input") == 0 || strcmp(fname, "random") == 0 || strcmp(fname, "ramp") == 0 ||
                 strcmp(fname, "normal") == 0 || strcmp(fname, "file") == 0 ||
                 suggest_best(fname, (const char *const[]){"zeros", "constant"}, 2)))) {
        /* a word that is no value here; a let or an expression is a constant (below) */
        static const char *const words[] = {"zeros", "constant", "input"};
        const char *best = fname ? suggest_best(fname, words, 3) : NULL;
        span at = v->kind == EX_CALL ? v->u.call.name_loc : v->loc;
        if (best && strcmp(best, fname) != 0)
            diag_error(s->dl, at, "unknown reset value '%s'; did you mean '%s'?", fname, best);
        else
            diag_error(s->dl, at,
                       "a reset sets a buffer to zeros, constant(v), a number, or input (its initial "
                       "contents: to reset to random(), normal(), ramp() or file() contents, give the arg those and "
                       "reset it "
                       "to input)");
        return;
    } else {
        kind = RESET_CONSTANT; /* reset bins = 0; */
        constant = v;
    }
    const ast_name_list *targets = &it->u.reset.targets;
    for (int i = 0; i < targets->len; i++) {
        int k = find_buffer(s, &targets->items[i], "reset");
        if (k < 0)
            continue;
        const m_arg *a = &m->args[k];
        m_reset r;
        memset(&r, 0, sizeof r);
        r.kind = kind;
        r.loc = targets->items[i].loc;
        r.arg = k;
        if (kind == RESET_INPUT && (a->init == INIT_NONE || a->init == INIT_SCALAR || a->dir == DIR_OUT)) {
            diag_error(s->dl, targets->items[i].loc,
                       "'%s' has no initial contents to restore; reset it to zeros or "
                       "constant(v), or give it contents (arg %s : inout ... = zeros)",
                       a->name, a->name);
            continue;
        }
        if (kind == RESET_CONSTANT) {
            value val;
            bool is_float = ast_ctype_is_float(a->type);
            if (!sema_lower_const(s, constant, is_float ? VT_FLOAT : VT_INT, "a reset value", &val))
                return;
            /* The value must fit the element type, as a constant() fill must. */
            if (!is_float && !sema_int_fits(s, val.u.i, a->type, constant->loc))
                return;
            r.constant = value_as_double(val);
            if (r.constant == 0.0 && !signbit(r.constant))
                r.kind = RESET_ZEROS;
        }
        for (int j = 0; j < m->nresets; j++)
            if (m->resets[j].kind != RESET_KERNEL && m->resets[j].arg == k)
                diag_warning(s->dl, r.loc, "'%s' is reset twice before each launch; only the later reset counts",
                             a->name);
        if (ARENA_PUSH(s->a, m->resets, m->nresets, s->caps[CAP_RESETS], r) < 0)
            s->oom = true;
    }
}

/* ---- verify's checker ----------------------------------------------------------- */

void sema_check_checker(sema *s, const ast_item *it)
{
    m_verify *v = &s->m->verify;
    static const char *const names[] = {"l2", "ulp", "tol"};
    const ast_arg *found[3] = {NULL, NULL, NULL};
    const ast_arg_list *checks = &it->u.verify.checks;
    for (int i = 0; i < checks->len; i++) {
        const ast_arg *c = &checks->items[i];
        int k = 0;
        while (k < 3 && strcmp(names[k], c->name) != 0)
            k++;
        if (k == 3) {
            const char *best = suggest_best(c->name, names, 3);
            if (best)
                diag_error(s->dl, c->name_loc, "unknown clause '%s' of verify; did you mean '%s'?", c->name, best);
            else
                diag_error(s->dl, c->name_loc,
                           "unknown clause '%s' of verify (it takes atol, rtol, l2, ulp, or "
                           "check kernel NAME with tol)",
                           c->name);
            continue;
        }
        if (found[k]) {
            diag_error(s->dl, c->name_loc, "%s is given twice", c->name);
            continue;
        }
        found[k] = c;
    }
    const ast_reference *ck = it->u.verify.checker;
    /* One checker: the element-wise tolerance (atol, rtol), l2, ulp or a kernel. */
    const char *chosen = NULL;
    span chosen_at = {0, 0};
    struct {
        bool present;
        const char *name;
        span at;
    } kinds[] = {
        {it->u.verify.atol || it->u.verify.rtol, it->u.verify.atol ? "atol" : "rtol",
         it->u.verify.atol   ? it->u.verify.atol->loc
         : it->u.verify.rtol ? it->u.verify.rtol->loc
                             : chosen_at},
        {found[0] != NULL, "l2", found[0] ? found[0]->name_loc : chosen_at},
        {found[1] != NULL, "ulp", found[1] ? found[1]->name_loc : chosen_at},
        {ck != NULL, "check kernel", ck ? it->u.verify.checker_word_loc : chosen_at},
    };
    for (int i = 0; i < 4; i++) {
        if (!kinds[i].present)
            continue;
        if (chosen) {
            diag_error(s->dl, kinds[i].at,
                       "verify takes one checker, and '%s' is already given: %s cannot go "
                       "with it",
                       chosen, kinds[i].name);
            return;
        }
        chosen = kinds[i].name;
        chosen_at = kinds[i].at;
        v->check = i == 0 ? CHECK_ELEMENTWISE : i == 1 ? CHECK_L2 : i == 2 ? CHECK_ULP : CHECK_KERNEL;
        v->check_loc = kinds[i].at;
    }
    if (found[2] && v->check != CHECK_KERNEL) {
        diag_error(s->dl, found[2]->name_loc,
                   "tol is the most score a checker kernel may give (check kernel NAME "
                   "tol S); for the built-in checkers use atol/rtol, l2 or ulp");
        return;
    }
    value val;
    const ast_arg *limit = v->check == CHECK_L2 ? found[0] : v->check == CHECK_ULP ? found[1] : found[2];
    if (limit) {
        vtype want = v->check == CHECK_ULP ? VT_INT : VT_FLOAT;
        char what[64];
        snprintf(what, sizeof what, "the %s bound", limit->name);
        if (!sema_lower_const(s, limit->value, want, what, &val))
            return;
        double d = value_as_double(val);
        if (!(d >= 0)) {
            diag_error(s->dl, limit->value->loc, "%s must be 0 or more, not %g", limit->name, d);
            return;
        }
        v->check_tol = d;
    }
    for (int k = 0; k < v->noutputs; k++) {
        const m_arg *a = &s->m->args[v->outputs[k]];
        if (v->check == CHECK_ULP && !ast_ctype_is_float(a->type)) {
            diag_error(s->dl, v->check_loc,
                       "ulp compares floating-point outputs, and '%s' is %s (use atol for "
                       "integers)",
                       a->name, ast_ctype_name(a->type));
            return;
        }
        if (v->check == CHECK_KERNEL && a->type != s->m->args[v->outputs[0]].type) {
            diag_error(s->dl, v->check_loc,
                       "a checker kernel takes one element type, and '%s' is %s while '%s' "
                       "is %s (verify them in two specs, or give them one type)",
                       a->name, ast_ctype_name(a->type), s->m->args[v->outputs[0]].name,
                       ast_ctype_name(s->m->args[v->outputs[0]].type));
            return;
        }
    }
    if (!ck)
        return;
    sema_lower_kernel_ref(s, ck, "checker kernel", false, &v->checker);
}
