/* phases.c - a phase account (phases.h). */
#include "phases.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "sys.h"

static double now(const phases *p)
{
    return p->clock ? p->clock(p->clock_ctx) : sys_seconds();
}

static bool in_range(const phases *p, int phase)
{
    return phase >= 0 && phase < p->n;
}

void phases_init(phases *p, int n, int first, phases_clock clock, void *ctx)
{
    memset(p, 0, sizeof *p);
    p->clock = clock;
    p->clock_ctx = ctx;
    p->n = n < 1 ? 1 : n > PHASES_MAX ? PHASES_MAX : n;
    p->base = in_range(p, first) ? first : 0;
    p->over_in = p->over_to = -1;
    p->at = now(p);
}

int phases_now(const phases *p)
{
    return p->busy > 0 && p->base == p->over_in && in_range(p, p->over_to) ? p->over_to : p->base;
}

void phases_tick(phases *p)
{
    double t = now(p);
    if (t > p->at) /* a clock that went back (a fake one) counts nothing */
        p->seconds[phases_now(p)] += t - p->at;
    p->at = t;
}

int phases_enter(phases *p, int phase)
{
    int was = p->base;
    phases_tick(p);
    if (in_range(p, phase))
        p->base = phase;
    return was;
}

void phases_overlay(phases *p, int in, int to)
{
    phases_tick(p);
    p->over_in = in_range(p, in) && in_range(p, to) ? in : -1;
    p->over_to = p->over_in >= 0 ? to : -1;
}

void phases_busy(phases *p, int delta)
{
    phases_tick(p);
    p->busy += delta;
    if (p->busy < 0)
        p->busy = 0;
}

void phases_split(phases *p, const double *parts, const int *into, int n)
{
    double t = now(p);
    double left = t > p->at ? t - p->at : 0;
    for (int i = 0; i < n; i++) {
        double part = isfinite(parts[i]) && parts[i] > 0 ? parts[i] : 0;
        if (part > left)
            part = left;
        if (!in_range(p, into[i]))
            continue;
        p->seconds[into[i]] += part;
        left -= part;
    }
    p->seconds[phases_now(p)] += left;
    p->at = t > p->at ? t : p->at;
}

void phases_add(phases *p, int phase, double seconds)
{
    if (in_range(p, phase) && isfinite(seconds) && seconds > 0)
        p->seconds[phase] += seconds;
}

double phases_move(phases *p, int from, int to, double seconds)
{
    if (!in_range(p, from) || !in_range(p, to) || !(seconds > 0) || from == to)
        return 0;
    double moved = seconds < p->seconds[from] ? seconds : p->seconds[from];
    p->seconds[from] -= moved;
    p->seconds[to] += moved;
    return moved;
}

double phases_total(const phases *p)
{
    double sum = 0;
    for (int i = 0; i < p->n; i++)
        sum += p->seconds[i];
    return sum;
}
