/* phases.h - a phase account (prefix phases_): where a stretch of wall time went, each
 * moment counted in exactly one phase, so the phases add up to the time measured and
 * never to more.
 *
 * The clock is monotonic (sys_seconds, or the caller's, for tests). At any moment the
 * account is in one phase: its `base` phase (phases_enter), except while something is
 * busy (phases_busy) in the base phase named by phases_overlay, when the overlay's
 * phase counts instead (a run's loop: waiting for compiles while no GPU works, the GPU
 * work while one does). Each change counts the time since the last one into the phase
 * it was in. Time measured elsewhere (another process's set-up, before the clock began)
 * joins through phases_split, phases_add and phases_move, which keep the sum honest.
 *
 * Knows nothing of what the phases are: their number and meaning are the caller's.
 * Ownership: plain memory, the caller's; nothing to free. Not thread-safe: one thread
 * counts. */
#ifndef CUTUNE_BASE_PHASES_H
#define CUTUNE_BASE_PHASES_H

#define PHASES_MAX 16

typedef double (*phases_clock)(void *ctx);

typedef struct phases {
    phases_clock clock; /* NULL: sys_seconds */
    void *clock_ctx;
    int n;       /* phases counted: 0 .. n-1 */
    int base;    /* the phase the account is in while nothing is busy */
    int busy;    /* how many are busy (phases_busy) */
    int over_in; /* while busy in this base phase, */
    int over_to; /* ... this phase counts (-1: no overlay) */
    double at;   /* when the time up to now was last counted */
    double seconds[PHASES_MAX];
} phases;

/* phases_init: an account of n phases (1 .. PHASES_MAX), all 0, in phase `first` from
 * now on. clock NULL: sys_seconds. */
void phases_init(phases *p, int n, int first, phases_clock clock, void *ctx);

/* phases_tick: counts the time since the last count into the phase the account is in. */
void phases_tick(phases *p);

/* phases_now: the phase the account is in now (the overlay's while busy in its base). */
int phases_now(const phases *p);

/* phases_enter: counts the time so far, then makes `phase` the base phase. Returns the
 * base phase it replaced (to enter it again after). A phase out of range is ignored. */
int phases_enter(phases *p, int phase);

/* phases_overlay: while the base phase is `in` and something is busy, `to` counts
 * instead; in < 0 clears it. Counts the time so far first. */
void phases_overlay(phases *p, int in, int to);

/* phases_busy: one more (delta 1) or one fewer (-1) busy, never fewer than 0; the time so
 * far is counted first. */
void phases_busy(phases *p, int delta);

/* phases_split: counts the time since the last count, of which parts[i] seconds (each
 * >= 0; NaN or negative: 0) go to phase into[i], in order, each cut to what is left
 * of that time; the rest goes to the phase the account is in. For time spent waiting on
 * work measured elsewhere (a worker's set-up): never more than the wait is counted. */
void phases_split(phases *p, const double *parts, const int *into, int n);

/* phases_add: seconds (>= 0, finite; else nothing) measured before the clock began,
 * counted into `phase`: the account's total grows by them. */
void phases_add(phases *p, int phase, double seconds);

/* phases_move: moves up to `seconds` from phase `from` to `to` (never more than `from`
 * holds; the total does not change). Returns what moved. */
double phases_move(phases *p, int from, int to, double seconds);

/* phases_total: the sum of every phase (counted up to the last count). */
double phases_total(const phases *p);

#endif
