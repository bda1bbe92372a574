/* auto.h - the auto strategy's state and the parts its three files share (search/ only;
 * prefix auto_). The strategy itself is described in auto.c; auto_feat.c describes
 * configurations to the model, auto_pick.c fits the model and picks by it.
 *
 * Ownership: auto_state owns every array in it; auto.c creates and frees them. */
#ifndef CUTUNE_SEARCH_AUTO_H
#define CUTUNE_SEARCH_AUTO_H

#include "../compiler/eval.h"
#include "forest.h"
#include "strategy.h"

/* Tuned on the development landscapes (docs/search.md; docs/results/2026-11-27-search.md). */
enum {
    AUTO_WHOLE_LIMIT = 32768, /* expected improvement over every configuration up to this many */
    AUTO_SAMPLES = 4096,      /* larger spaces: random candidates per pick ... */
    AUTO_TOP_LARGE = 8,       /* ... and the neighbours of this many best */
    AUTO_TOP_LOCAL = 4,       /* a local pass: the neighbours of this many best ... */
    AUTO_TOP_APART = 3,       /* ... each differing from every better one in at least this many params */
    AUTO_LOCAL_EVERY = 3,     /* every 3rd model pick a local pass */
    AUTO_COND_EVERY = 5,      /* every 5th a conditional pass */
    AUTO_SPREAD_EVERY = 4,    /* every 4th a spread pick (before the passes) */
    AUTO_YOUNG = 5,           /* fewer outcomes than this: spread picks, not the model's */
    AUTO_DESIGN_DRAWS = 16,   /* a spread pick: the most distant of this many draws */
    AUTO_DESIGN_MIN = 4,
    AUTO_DESIGN_MAX = 10,
    AUTO_REFIT_SHARE = 20, /* refit when more than n / 20 outcomes are new */
    AUTO_TREES = 32,       /* in each forest */
    AUTO_TS_PENDING = 4,   /* a global pick with this many in flight: a Thompson sample */
};

typedef enum auto_feat_kind {
    AUTO_F_PARAM,   /* a param's value */
    AUTO_F_ODD,     /* an int param's odd part */
    AUTO_F_EXPR,    /* a let or a launch dimension that depends on params */
    AUTO_F_THREADS, /* threads per block */
    AUTO_F_LANES,   /* the share of warp lanes used */
    AUTO_F_BX32,    /* block_x modulo 32 */
    AUTO_F_PRIOR,   /* the prior's score */
} auto_feat_kind;

/* Where a feature comes from. */
typedef struct auto_feat {
    auto_feat_kind kind;
    int param;      /* AUTO_F_PARAM, AUTO_F_ODD */
    const texpr *e; /* AUTO_F_EXPR (borrowed from the model) */
} auto_feat;

typedef struct auto_state {
    const sspace *sp;
    const model *m;
    int np, nf;
    auto_feat *src; /* nf: what each feature is */
    value *vals;    /* scratch: a configuration's values */
    uint64_t *vec;  /* scratch: 3 x np domain indices */
    uint64_t *nb;   /* scratch: neighbours */
    bool whole;     /* picks scan every configuration (listed, small) */
    uint64_t count;
    uint64_t *keys;       /* whole: every configuration's key, ascending (its place: the index) */
    double *fx;           /* whole: count rows of nf features, by place */
    unsigned char *taken; /* whole: proposed or known, by place */
    double *mu, *sd;      /* whole: the cost model's predictions, by place */
    double *pok;          /* whole: the chance that it runs, by place */
    /* What is known: keys, costs (+inf: failed) and feature rows, in the order told;
     * y: scratch for the targets of a fit. */
    uint64_t *okeys;
    double *ocost, *ox, *y;
    int nobs, cap;
    forest *model; /* the cost model: log(cost) of the configurations that ran */
    forest *fails; /* the feasibility model, 0 ran / 1 failed; NULL: none failed */
    int fitted_at; /* nobs at the last fit */
    double best_t; /* the best target at the last fit */
    int sign;      /* the targets' transform: 1 log(cost), -1 -log(-cost), 0 cost */
    /* The initial design. */
    int design, designed;
    uint64_t *chosen;         /* its points so far */
    search_prior *prior_best; /* the prior's entries, best first */
    uint64_t nprior, prior_at;
    int prior_picks;
    uint64_t picks; /* model picks so far (the passes' rhythm) */
    /* Switch picks: the incumbent (the best outcome that ran) with one switch (a param of
     * two values) flipped, queued when it became the incumbent, asked before other model
     * picks. */
    bool have_inc;
    double inc_cost;
    uint64_t flips[MODEL_MAX_PARAMS];
    int nflips;
    double *cx; /* scratch: one feature row */
    /* Spread picks' prior: each param's domain indices whose values are ints of 2 or more
     * and powers of two, ascending by value: p2idx[p2at[i] .. p2at[i + 1]) (p2val: the
     * values). */
    int *p2at;
    uint64_t *p2idx;
    int64_t *p2val;
    /* This batch's proposals (larger spaces: not yet pending in the driver). */
    const uint64_t *batch;
    int nbatch;
} auto_state;

/* ---- auto_feat.c ---- */

/* auto_plan_features: the features of a->m's configurations into a->src, a->nf (at least
 * one); `prior`: the prior's score is one. 0, or -1 out of memory. */
int auto_plan_features(auto_state *a, bool prior);

/* auto_features: the feature row of a valid `key` into x (a->nf values; NaN where an
 * expression fails to evaluate). Uses a->vals and a->vec as scratch. */
void auto_features(auto_state *a, const search_settings *set, uint64_t key, double *x);

/* ---- auto.c ---- */

/* auto_place: the place of a valid key among a->keys (whole spaces only). */
uint64_t auto_place(const auto_state *a, uint64_t key);

/* auto_is_taken: `key` is known, in flight, or in the batch in hand. */
bool auto_is_taken(const auto_state *a, const strat_ctx *c, uint64_t key);

/* auto_spread_pick: the unseen configuration most distant from what is chosen or known,
 * of AUTO_DESIGN_DRAWS random draws, into *key; false when none is left. */
bool auto_spread_pick(auto_state *a, strat_ctx *c, uint64_t *key);

/* auto_switch_pick: the next of the incumbent's switch flips not yet taken, into *key;
 * false when none is left. */
bool auto_switch_pick(auto_state *a, strat_ctx *c, uint64_t *key);

/* ---- auto_pick.c ---- */

/* auto_model_pick: the next configuration after the design (refitting the models when
 * enough is new) into *key; false when none is left or out of memory. */
bool auto_model_pick(auto_state *a, strat_ctx *c, uint64_t *key);

#endif
