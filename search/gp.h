/* gp.h - a Gaussian-process regression over configurations given as domain indices (the
 * auto strategy's experimental surrogate; search/ only; prefix gp_).
 *
 * The kernel is an overlap (Hamming) kernel with one shared weight w:
 *   k(x, y) = s2 * exp(-w * #{p : x_p != y_p}),
 * so a configuration's predicted uncertainty grows with how many params differ from
 * what was measured. The mean is the targets' mean; s2 is its maximum-likelihood value
 * for each w, and w is chosen from a caller's grid by the marginal likelihood.
 *
 * Ownership: a gp owns copies of its inputs; gp_free frees it. */
#ifndef CUTUNE_SEARCH_GP_H
#define CUTUNE_SEARCH_GP_H

#include <stdint.h>

typedef struct gp gp;

/* gp_cholesky: the lower Cholesky factor L (a = L L^T) of the n x n symmetric row-major
 * matrix `a`, in place (the upper triangle set to 0). 0, or -1 when `a` is not positive
 * definite (a is then partly overwritten). */
int gp_cholesky(double *a, int n);

/* gp_fit: a GP fitted to n >= 1 points x (n rows of np domain indices) with targets y,
 * the weight the best by marginal likelihood of ws[0..nw-1] (nw >= 1, each > 0), with
 * `nugget` (> 0, relative to s2) added to the diagonal, into *out. 0, or -1 out of memory
 * or when no weight gives a positive definite matrix (*out NULL). */
int gp_fit(gp **out, const uint64_t *x, const double *y, int n, int np, const double *ws, int nw, double nugget);

/* gp_predict: the posterior mean and standard deviation of the latent function at x (np
 * domain indices) into *mean and *sd. Uses the gp's scratch: one caller at a time. */
void gp_predict(const gp *g, const uint64_t *x, double *mean, double *sd);

/* gp_weight: the weight w that gp_fit chose. */
double gp_weight(const gp *g);

/* gp_free: frees g (NULL: a no-op). */
void gp_free(gp *g);

#endif
