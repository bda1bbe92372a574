/* header_table.c - the best-config header's table (docs/header.md): the config struct
 * its entries are, each entry's initialiser, and the look-up functions that hold the
 * table: P_lookup (by device) and, for a run over problem sizes, P_lookup_size (by
 * device and size; header_sizes.c writes the size's fields). Part of the header module
 * (prefix hdr_, header_internal.h); writes into the hdr it is given, whose entries are
 * borrowed. */
#include <string.h>

#include "../compiler/cexpr.h"
#include "header_internal.h"

/* The generated loop that walks a and b to the end of their common prefix (the device
 * names compared without string.h). */
static const char common_prefix[] = "        while (*a && *a == *b) {\n"
                                    "            a++;\n"
                                    "            b++;\n"
                                    "        }\n";

/* config_type: writes the P_params and P_config structs (the table's rows) to h->out. */
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

/* entry_init: writes entry e's initialiser, a row of the table, to h->out (no comma). */
static void entry_init(hdr *h, const entry *e)
{
    strbuf *o = &h->out;
    const cutune_variant *v = e->v;
    sb_add(o, "        {");
    cexpr_string(e->r ? e->r->device.name : "", o);
    sb_printf(o, ", %d, %d, {", e->r ? e->r->device.cc : 0, h->tuned ? 1 : 0);
    for (int i = 0; i < h->nparams; i++) {
        sb_add(o, i ? ", " : "");
        hdr_literal(o, e->vals[i]);
    }
    if (h->nparams == 0)
        sb_add(o, "0");
    sb_printf(o, "}, {%lldu, %lldu, %lldu}, {%lldu, %lldu, %lldu}, %lldu, %ld,\n         ", (long long)v->block[0],
              (long long)v->block[1], (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1],
              (long long)v->grid[2], (long long)v->smem_bytes, hdr_maxrregcount(v));
    hdr_joined(o, v->options, e->ncommon, v->noptions);
    sb_add(o, ", ");
    hdr_joined(o, v->defines, 0, v->ndefines);
    sb_add(o, ", ");
    hdr_number(o, e->best ? e->best->median_ms : 0);
    sb_add(o, ", ");
    hdr_number(o, e->best ? e->best->objective : 0);
    sb_add(o, ", ");
    hdr_number(o, e->best && e->best->energy ? e->best->energy_j : 0);
    if (h->nsize_vars)
        hdr_sizes_init(h, e);
    sb_add(o, "}");
}

/* lookup_open: a look-up function's opening, after its comment, to h->out: the
 * signature P_<name>(device_name, compute_capability, and a long long per size variable
 * when by_size), then the static table of every entry. Both look-ups hold the same table. */
static void lookup_open(hdr *h, const char *name, bool by_size)
{
    strbuf *o = &h->out;
    sb_printf(o, "static inline const %s_config *%s_%s(const char *device_name, int compute_capability", h->P, h->P,
              name);
    for (int j = 0; by_size && j < h->nsize_vars; j++) {
        sb_add(o, ", long long ");
        cexpr_ident(h->size_vars[j], o);
    }
    sb_printf(o, ")\n{\n    static const %s_config table[%d] = {\n", h->P, h->n);
    for (int k = 0; k < h->n; k++) {
        entry_init(h, &h->e[k]);
        sb_add(o, k + 1 < h->n ? ",\n" : "\n");
    }
    sb_add(o, "    };\n");
}

/* lookup: writes P_lookup (by device name and compute capability) to h->out. */
static void lookup(hdr *h)
{
    strbuf *o = &h->out;
    sb_printf(o,
              "\n/* %s_lookup: the entry for a device (never NULL): the exact name and compute\n"
              " * capability, else the first entry of the same compute capability, else entry 0.\n"
              " * device_name may be NULL (then only the compute capability counts). */\n",
              h->P);
    lookup_open(h, "lookup", false);
    sb_printf(o,
              "    int i, same_cc = -1;\n"
              "    for (i = 0; i < %d; i++) {\n"
              "        const char *a = device_name, *b = table[i].device_name;\n"
              "        if (table[i].compute_capability != compute_capability)\n"
              "            continue;\n"
              "        if (same_cc < 0)\n"
              "            same_cc = i;\n"
              "        if (!a)\n"
              "            continue;\n",
              h->n);
    sb_add(o, common_prefix);
    sb_add(o, "        if (*a == *b)\n"
              "            return &table[i];\n"
              "    }\n"
              "    return &table[same_cc >= 0 ? same_cc : 0];\n"
              "}\n");
}

/* lookup_size: writes P_lookup_size (docs/header.md: the nearest size) to h->out; it
 * calls P_lookup, written before it. */
static void lookup_size(hdr *h)
{
    strbuf *o = &h->out;
    const char *P = h->P;
    sb_printf(o,
              "\n/* %s_lookup_size: the entry for a device and a problem size (never NULL). The\n"
              " * device as %s_lookup picks it (its name and compute capability, else the first\n"
              " * entry of the same compute capability, else entry 0's); among that device's\n"
              " * entries, the one tuned at this size, else the nearest: the least product over the\n"
              " * size variables of max(asked, tuned) / min(asked, tuned) -- the L1 distance in log\n"
              " * space, the doublings between the sizes summed over the variables. Ties go to the\n"
              " * larger tuned size (the larger product of its variables), then the earlier entry.\n"
              " * A size below 1 counts as 1. */\n",
              P, P);
    lookup_open(h, "lookup_size", true);
    sb_printf(o,
              "    const %s_config *dev = %s_lookup(device_name, compute_capability);\n"
              "    int i, best = -1;\n"
              "    double best_ratio = 0.0, best_work = 0.0;\n"
              "    for (i = 0; i < %d; i++) {\n"
              "        const char *a = dev->device_name, *b = table[i].device_name;\n"
              "        double ratio = 1.0, work = 1.0, asked, tuned;\n"
              "        if (table[i].compute_capability != dev->compute_capability)\n"
              "            continue;\n",
              P, P, h->n);
    sb_add(o, common_prefix);
    sb_add(o, "        if (*a != *b)\n"
              "            continue;\n");
    for (int j = 0; j < h->nsize_vars; j++) {
        sb_add(o, "        asked = (double)(");
        cexpr_ident(h->size_vars[j], o);
        sb_add(o, " < 1 ? 1 : ");
        cexpr_ident(h->size_vars[j], o);
        sb_add(o, ");\n        tuned = (double)table[i].size.");
        cexpr_ident(h->size_vars[j], o);
        sb_add(o, ";\n        ratio *= asked > tuned ? asked / tuned : tuned / asked;\n        work *= tuned;\n");
    }
    sb_add(o, "        if (best < 0 || ratio < best_ratio || (ratio == best_ratio && work > best_work)) {\n"
              "            best = i;\n"
              "            best_ratio = ratio;\n"
              "            best_work = work;\n"
              "        }\n"
              "    }\n"
              "    return best >= 0 ? &table[best] : dev;\n"
              "}\n");
}

void hdr_table(hdr *h)
{
    config_type(h);
    lookup(h);
    if (h->nsize_vars)
        lookup_size(h);
}
