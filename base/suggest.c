/* suggest.c - edit distance for "did you mean" hints. */
#include "suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    /* Three rolling rows are enough for optimal string alignment. */
    size_t *rows = malloc(3 * (m + 1) * sizeof *rows);
    if (!rows)
        return (size_t)-1;
    size_t *prev2 = rows, *prev = rows + (m + 1), *cur = rows + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (prev[j - 1] + cost < best)
                best = prev[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[m];
    free(rows);
    return d;
}

static int same_ignoring_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const char *suggest_best(const char *word, const char *const *candidates, size_t n)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        const char *c = candidates[i];
        if (!c || strcmp(c, word) == 0)
            continue;
        size_t d = same_ignoring_case(c, word) ? 1 : suggest_distance(word, c);
        size_t longer = strlen(word) > strlen(c) ? strlen(word) : strlen(c);
        size_t allowed = longer / 3 ? longer / 3 : 1;
        if (d <= allowed && d < best_d) {
            best = c;
            best_d = d;
        }
    }
    return best;
}
