/* rng.h - the search stage's random numbers: xoshiro256** seeded through splitmix64.
 *
 * Small, fast and the same on every platform, so a seed gives the same sequence of
 * configurations everywhere (the C library's rand() does not promise that). Each
 * search owns its generator: no global state. */
#ifndef CUTUNE_SEARCH_RNG_H
#define CUTUNE_SEARCH_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

/* rng_seed: the generator for `seed` (any value, 0 included). */
static inline void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = z ^ (z >> 31);
    }
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* rng_next: the next 64 random bits. */
static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* rng_below: uniform in [0, n) (n >= 1), without modulo bias. */
static inline uint64_t rng_below(rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng_next(r);
    while (x >= limit);
    return x % n;
}

/* rng_unit: uniform in [0, 1). */
static inline double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
