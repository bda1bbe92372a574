/* gp.c - Gaussian-process regression with an overlap (Hamming) kernel over domain indices
 * (gp.h): a Cholesky factor written here (n is at most some hundreds), the weight chosen
 * from a grid by the marginal likelihood with s2 profiled out.
 *
 * Ownership: gp_fit allocates the gp and its arrays; gp_free frees them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp.h"

struct gp {
    int n, np;
    uint64_t *x; /* n rows of np */
    double *l;   /* n x n: the Cholesky factor of R + nugget I */
    double *alpha;
    double *r; /* np + 1: exp(-w d) by Hamming distance d */
    double *k; /* scratch: n */
    double mean, s2, w;
};

int gp_cholesky(double *a, int n)
{
    for (int j = 0; j < n; j++) {
        double d = a[(size_t)j * n + j];
        for (int k = 0; k < j; k++)
            d -= a[(size_t)j * n + k] * a[(size_t)j * n + k];
        if (!(d > 0))
            return -1;
        d = sqrt(d);
        a[(size_t)j * n + j] = d;
        for (int i = j + 1; i < n; i++) {
            double s = a[(size_t)i * n + j];
            for (int k = 0; k < j; k++)
                s -= a[(size_t)i * n + k] * a[(size_t)j * n + k];
            a[(size_t)i * n + j] = s / d;
        }
        for (int i = 0; i < j; i++)
            a[(size_t)i * n + j] = 0;
    }
    return 0;
}

/* Solves L z = b in place (b becomes z); l lower triangular n x n. */
static void forward(const double *l, int n, double *b)
{
    for (int i = 0; i < n; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= l[(size_t)i * n + k] * b[k];
        b[i] = s / l[(size_t)i * n + i];
    }
}

/* Solves L^T z = b in place. */
static void backward(const double *l, int n, double *b)
{
    for (int i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (int k = i + 1; k < n; k++)
            s -= l[(size_t)k * n + i] * b[k];
        b[i] = s / l[(size_t)i * n + i];
    }
}

/* The number of params in which rows a and b (np each) differ. */
static int hamming(const uint64_t *a, const uint64_t *b, int np)
{
    int d = 0;
    for (int p = 0; p < np; p++)
        d += a[p] != b[p];
    return d;
}

/* Factors R + nugget I for weight w into g->l and solves alpha; the log marginal
 * likelihood (s2 profiled) into *ll. 0, or -1 not positive definite. */
static int fit_weight(gp *g, const double *yc, double w, double nugget, double *ll)
{
    int n = g->n, np = g->np;
    for (int d = 0; d <= np; d++)
        g->r[d] = exp(-w * d);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double v = g->r[hamming(g->x + (size_t)i * np, g->x + (size_t)j * np, np)];
            g->l[(size_t)i * n + j] = v + (i == j ? nugget : 0);
            g->l[(size_t)j * n + i] = v + (i == j ? nugget : 0);
        }
    if (gp_cholesky(g->l, n) < 0)
        return -1;
    memcpy(g->alpha, yc, sizeof(double) * (size_t)n);
    forward(g->l, n, g->alpha);
    double q = 0, logdet = 0;
    for (int i = 0; i < n; i++) {
        q += g->alpha[i] * g->alpha[i];
        logdet += log(g->l[(size_t)i * n + i]);
    }
    backward(g->l, n, g->alpha);
    g->s2 = q / n > 1e-12 ? q / n : 1e-12;
    *ll = -0.5 * n * log(g->s2) - logdet;
    g->w = w;
    return 0;
}

int gp_fit(gp **out, const uint64_t *x, const double *y, int n, int np, const double *ws, int nw, double nugget)
{
    *out = NULL;
    gp *g = calloc(1, sizeof *g);
    double *yc = malloc(sizeof(double) * (size_t)n);
    if (!g || !yc || !(g->x = malloc(sizeof(uint64_t) * (size_t)n * (size_t)np + 1)) ||
        !(g->l = malloc(sizeof(double) * (size_t)n * (size_t)n)) || !(g->alpha = malloc(sizeof(double) * (size_t)n)) ||
        !(g->r = malloc(sizeof(double) * ((size_t)np + 1))) || !(g->k = malloc(sizeof(double) * (size_t)n))) {
        free(yc);
        gp_free(g);
        return -1;
    }
    g->n = n;
    g->np = np;
    memcpy(g->x, x, sizeof(uint64_t) * (size_t)n * (size_t)np);
    double m = 0;
    for (int i = 0; i < n; i++)
        m += y[i];
    g->mean = m / n;
    for (int i = 0; i < n; i++)
        yc[i] = y[i] - g->mean;
    /* the grid: the best weight's likelihood, then refitted with it (the factor in hand
     * is the last one tried) */
    double best = -INFINITY, bw = -1, ll;
    for (int i = 0; i < nw; i++)
        if (fit_weight(g, yc, ws[i], nugget, &ll) == 0 && ll > best) {
            best = ll;
            bw = ws[i];
        }
    int rc = bw > 0 ? fit_weight(g, yc, bw, nugget, &ll) : -1;
    free(yc);
    if (rc < 0) {
        gp_free(g);
        return -1;
    }
    *out = g;
    return 0;
}

void gp_predict(const gp *g, const uint64_t *x, double *mean, double *sd)
{
    int n = g->n;
    double mu = g->mean;
    for (int i = 0; i < n; i++) {
        g->k[i] = g->r[hamming(x, g->x + (size_t)i * g->np, g->np)];
        mu += g->k[i] * g->alpha[i];
    }
    forward(g->l, n, g->k);
    double v = 1.0;
    for (int i = 0; i < n; i++)
        v -= g->k[i] * g->k[i];
    *mean = mu;
    *sd = v > 0 ? sqrt(g->s2 * v) : 0;
}

double gp_weight(const gp *g)
{
    return g->w;
}

void gp_free(gp *g)
{
    if (!g)
        return;
    free(g->x);
    free(g->l);
    free(g->alpha);
    free(g->r);
    free(g->k);
    free(g);
}
