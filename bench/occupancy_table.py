#!/usr/bin/env python3
"""occupancy_table.py - occupancy against speed, from a results JSON (cutune --results).

    bench/occupancy_table.py RESULTS.json [--noise 0.02] [--pivot ROW,COL]

For every variant: registers per thread, spills, local memory, the model's blocks per
SM and theoretical occupancy (with what limits it), the driver's blocks per SM
(cuOccupancyMaxActiveBlocksPerMultiprocessor, read when the kernel was loaded), and the
measured median time, fastest first. A variant is marked where occupancy and speed
disagree: it is slower (by more than --noise, default 2 %) than some variant with a
LOWER theoretical occupancy; the mark counts those variants and names the fastest.
A second mark flags a model/driver difference in blocks per SM.

Then a summary (how many pairs of variants disagree, and the rank correlation of
occupancy with speed) and, for two params (default: the spec's first two), a grid of
"occupancy / time" with one row per value of the first and a column per value of the
second (the seed's table of registers x threads per block, measured)."""
import argparse
import json
import sys


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('results')
    ap.add_argument('--noise', type=float, default=0.02,
                    help='relative time difference below which two variants count as equally fast')
    ap.add_argument('--pivot', help='ROW,COL: the two params of the grid (default: the first two)')
    return ap.parse_args(argv)


def ranks(values):
    """Average ranks (1-based) of values, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(x, y):
    """Spearman's rank correlation of x and y, or None when either is constant."""
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / (sxx * syy) ** 0.5


def label(r, params):
    return ', '.join('%s=%s' % (p, r['params'][p]) for p in params)


def main(argv):
    a = parse_args(argv)
    with open(a.results) as f:
        d = json.load(f)
    params = [p['name'] for p in d['spec']['params']]
    res = d['results']
    timed = [r for r in res if r.get('time_ms') and r.get('occupancy')]
    timed.sort(key=lambda r: r['time_ms']['median'])
    untimed = [r for r in res if r not in timed]
    if not timed:
        print('No variant was timed.')
        return 1

    def occ(r):
        return r['occupancy']['theoretical']

    def ms(r):
        return r['time_ms']['median']

    best = ms(timed[0])
    # A pair disagrees when the variant with the higher occupancy is clearly slower.
    slower_than_lower = {}
    pairs = disagree = 0
    for i, r in enumerate(timed):
        for s in timed[i + 1:]:
            if occ(r) == occ(s) or abs(ms(r) - ms(s)) <= a.noise * min(ms(r), ms(s)):
                continue
            pairs += 1
            hi, lo = (r, s) if occ(r) > occ(s) else (s, r)
            if ms(hi) > ms(lo):
                disagree += 1
                slower_than_lower.setdefault(id(hi), []).append(lo)

    s = d['summary']
    print('- %s, %s; spec `%s`; %d variants, %d timed, %d cannot launch' % (
        d['device']['name'], d['device']['arch'], d['spec']['path'], s['variants'], len(timed), s['unlaunchable']))
    print('- "disagrees": slower (by more than %g %%) than variants with a lower theoretical occupancy; '
          '"model != driver": the model\'s blocks per SM differ from the driver\'s\n' % (100 * a.noise))

    head = ['rank'] + params + ['regs', 'spill st/ld B', 'local B', 'blocks/SM model', 'blocks/SM driver',
                                'occupancy', 'limiter', 'median ms', 'time / best', 'disagrees']
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    mismatches = 0

    def row(rank, r):
        nonlocal mismatches
        rs, o = r.get('resources') or {}, r.get('occupancy') or {}
        model, drv = o.get('blocks_per_sm'), o.get('driver_blocks_per_sm')
        bps = '%s' % drv if drv is not None else '-'
        if drv is not None and model is not None and drv != model:
            bps += ' (model != driver)'
            mismatches += 1
        cells = [rank] + [str(r['params'][p]) for p in params]
        cells += [str(rs.get('registers', '-')), '%s/%s' % (rs.get('spill_stores', '-'), rs.get('spill_loads', '-')),
                  str(rs.get('local_bytes', '-')), str(model if model is not None else '-'), bps,
                  '%.1f%%' % (100 * o['theoretical']) if o.get('theoretical') is not None else '-',
                  o.get('limiter') or '-']
        if r.get('time_ms'):
            lower = slower_than_lower.get(id(r), [])
            mark = ''
            if lower:
                f = min(lower, key=ms)
                mark = 'yes: %d (fastest %s, %.1f%% occ, %.2fx faster)' % (
                    len(lower), label(f, params), 100 * occ(f), ms(r) / ms(f))
            cells += ['%.4f' % ms(r), '%.2f' % (ms(r) / best), mark]
        else:
            cells += ['-', '-', r['status']]
        print('| ' + ' | '.join(cells) + ' |')

    for i, r in enumerate(timed):
        row(str(i + 1), r)
    for r in untimed:
        row('-', r)

    rho = spearman([occ(r) for r in timed], [-ms(r) for r in timed])
    print('\nSummary: of %d pairs of timed variants that differ in occupancy and in time (beyond the noise), '
          '%d (%.0f%%) disagree: the one with the higher occupancy is the slower. '
          'Rank correlation of occupancy with speed (Spearman): %s. '
          'Model and driver blocks per SM differ for %d variants.' % (
              pairs, disagree, 100.0 * disagree / pairs if pairs else 0.0,
              '%.2f' % rho if rho is not None else 'undefined (one of them is constant)', mismatches))
    fastest = timed[0]
    top_occ = max(occ(r) for r in timed)
    print('Fastest: %s at %.1f%% occupancy (the highest timed: %.1f%%), %d registers, %s spill bytes stored.' % (
        label(fastest, params), 100 * occ(fastest), 100 * top_occ, fastest['resources']['registers'],
        fastest['resources']['spill_stores']))

    if len(params) >= 2 or a.pivot:
        rp, cp = (a.pivot.split(',') if a.pivot else params[:2])
        if rp not in params or cp not in params:
            sys.exit('--pivot: params are %s' % ', '.join(params))
        rv = sorted({r['params'][rp] for r in res}, key=lambda v: (isinstance(v, str), v))
        cv = sorted({r['params'][cp] for r in res}, key=lambda v: (isinstance(v, str), v))
        print('\nOccupancy (model) / median ms, rows %s, columns %s (best of any other params; "-": not timed):\n' % (
            rp, cp))
        print('| %s \\ %s | ' % (rp, cp) + ' | '.join(str(c) for c in cv) + ' |')
        print('|' + '---|' * (len(cv) + 1))
        for v in rv:
            cells = []
            for c in cv:
                group = [r for r in timed if r['params'][rp] == v and r['params'][cp] == c]
                if group:
                    g = group[0]  # timed is fastest first
                    cells.append('%.0f%% / %.3f' % (100 * occ(g), ms(g)))
                else:
                    cells.append('-')
            print('| %s | ' % v + ' | '.join(cells) + ' |')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
