/* t1_settings.c - the tail of a translated T1 file (t1.h; docs/kernel-tuner.md): verify
 * (the outputs against the default configuration, when it is one) and the settings
 * (Budget as search, BenchmarkConfig.iterations as measure; notes for General's
 * objective, Search and BAT's host-side settings, which have no counterpart). Each
 * appends statements to the spec text it is given; messages go to the context. */
#include <stdlib.h>
#include <string.h>

#include "t1_internal.h"

void t1_verify(t1_state *s, strbuf *out)
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

void t1_settings(t1_state *s, strbuf *out)
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
