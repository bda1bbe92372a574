/* forest.h - random-forest regression, the surrogate model of the auto strategy
 * (prefix forest_).
 *
 * Small and deterministic: every tree is grown on a bootstrap sample of the
 * observations, each split the best reduction of squared error over a random subset of
 * the features (threshold halfway between two neighbouring observed values), and all
 * randomness comes from the search stage's own generator (rng.h) seeded by the caller,
 * so the same data and seed give the same forest on every platform. Written here rather
 * than taken from a library: the search needs a few hundred observations and some tens
 * of features, a fit takes milliseconds, and no library in reach promised the same
 * numbers for the same seed everywhere.
 *
 * Ownership: forest_fit copies what it needs; the forest owns its trees. */
#ifndef CUTUNE_SEARCH_FOREST_H
#define CUTUNE_SEARCH_FOREST_H

#include <stdint.h>

#include "rng.h"

typedef struct forest forest;

typedef struct forest_options {
    int trees;            /* trees to grow (0: 32) */
    int min_split;        /* the fewest samples a node needs to be split (0: 3) */
    int min_leaf;         /* the fewest samples in a leaf (0: 1) */
    double feature_share; /* features tried per split, as a share of all (0: 5/6) */
} forest_options;

/* forest_fit: a forest over n observations (n >= 1) of nf features (nf >= 1): x holds
 * n rows of nf values (row-major), y the n targets (finite). `opts` NULL: the defaults. Non-finite
 * features are read as 0. *out NULL on failure. Returns 0, or -1 out of memory or with
 * bad sizes. */
int forest_fit(forest **out, const double *x, const double *y, int n, int nf, const forest_options *opts,
               uint64_t seed);

/* forest_predict: the forest's mean prediction at the feature row x (nf values) and
 * its standard deviation by the law of total variance over the trees (the spread of the
 * trees' leaf means plus the mean of their leaves' own variances). */
void forest_predict(const forest *f, const double *x, double *mean, double *sd);

/* forest_predict_some: the mean prediction of k trees drawn at random (with
 * replacement) with r: one draw from the forest's own spread, a Thompson-like sample. */
double forest_predict_some(const forest *f, const double *x, int k, rng *r);

/* forest_predict_trees: the mean prediction of the k trees numbered idx[0..k) (each below
 * forest_trees): one coherent function drawn from the forest, a Thompson sample. */
double forest_predict_trees(const forest *f, const double *x, const int *idx, int k);

/* forest_trees: the number of trees. */
int forest_trees(const forest *f);

/* forest_importance: each feature's share (out[0 .. nf), summing to 1, or all 0 when no
 * tree split) of the squared error that the splits on it removed, over all trees. */
void forest_importance(const forest *f, double *out);

/* forest_features: the number of features the forest was fitted on. */
int forest_features(const forest *f);

/* forest_free: NULL is a no-op. */
void forest_free(forest *f);

#endif
