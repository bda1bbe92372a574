/* suggest.h - "did you mean" look-ups by edit distance. */
#ifndef CUTUNE_BASE_SUGGEST_H
#define CUTUNE_BASE_SUGGEST_H

#include <stddef.h>

/* suggest_distance: the optimal-string-alignment edit distance between a and b
 * (insertions, deletions, substitutions and adjacent transpositions each cost 1). */
size_t suggest_distance(const char *a, const char *b);

/* suggest_best: of the n candidates, the one closest to `word`, or NULL when none is
 * close enough to be a plausible typo (distance at most a third of the longer name,
 * and at least 1 allowed). Case differences count as a distance of 0.5 rounded up. */
const char *suggest_best(const char *word, const char *const *candidates, size_t n);

#endif
