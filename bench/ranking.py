#!/usr/bin/env python3
"""ranking.py - a results JSON (cutune --results FILE) as a Markdown ranking.

    bench/ranking.py RESULTS.json [--ceiling X [--ceiling-name TEXT]] [--metric NAME]
                     [--top N] [--per PARAM[,PARAM...]]... [--where PARAM=VALUE]...

Prints the run's header, the best variant (with --ceiling: its metric as a percentage
of the ceiling, e.g. the device's copy bandwidth), then the full ranking: every timed
variant, best first (those whose timing stopped early are ranked by the median of the
repetitions they had, and marked), then every variant that was not timed, with its
status and reason. --top N keeps the first N ranked rows. --per PARAMS adds a table
with the best variant for each combination of those params' values (repeatable), which
is how a param such as the algorithm is compared with everything else tuned.
--where PARAM=VALUE (repeatable) keeps only the variants with that value, for example
one block size, to compare algorithms as a seed did."""
import argparse
import json
import sys


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('results')
    ap.add_argument('--ceiling', type=float, help='the metric of a perfect variant, e.g. 3020 (GB/s)')
    ap.add_argument('--ceiling-name', default='ceiling', help='what the ceiling is, for the text')
    ap.add_argument('--metric', help='the metric shown (default: the objective)')
    ap.add_argument('--top', type=int, default=0, help='ranked rows to show (0: all)')
    ap.add_argument('--per', action='append', default=[], help='best variant per value of these params')
    ap.add_argument('--where', action='append', default=[], help='PARAM=VALUE: only the variants with that value')
    return ap.parse_args(argv)


def load(path):
    with open(path) as f:
        d = json.load(f)
    if d.get('format') != 'cutune-results':
        sys.exit('%s: not a cutune results file' % path)
    return d


def metric_of(r, name):
    """The variant's metric NAME, or its objective when NAME is the objective's own name
    (e.g. time_ms), or None."""
    m = r.get('metrics') or {}
    if name in m:
        return m[name]
    return r.get('objective')


def fmt(v):
    if v is None:
        return '-'
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, float):
        a = abs(v)
        return '%.4f' % v if a < 10 else '%.1f' % v
    return str(v)


class Table:
    """The columns every table shares."""

    def __init__(self, d, a):
        self.d, self.a = d, a
        self.params = [p['name'] for p in d['spec']['params']]
        self.metric = a.metric or d['objective']['name']
        self.maximize = d['objective']['direction'] == 'maximize'
        self.where = []
        for w in a.where:
            name, eq, value = w.partition('=')
            if not eq or name not in self.params:
                sys.exit('--where %s: expected PARAM=VALUE with PARAM one of %s' % (w, ', '.join(self.params)))
            self.where.append((name, value))
        self.results = [r for r in d['results'] if all(fmt(r['params'][n]) == v for n, v in self.where)]
        self.timed = [r for r in self.results if r.get('time_ms') and r.get('objective') is not None]
        self.timed.sort(key=lambda r: r['objective'], reverse=self.maximize)
        full = [r for r in self.timed if not r['pruned']]
        self.best = full[0] if full else (self.timed[0] if self.timed else None)

    def vs_best(self, r):
        """How the variant compares with the best: the ratio of their times."""
        return r['time_ms']['median'] / self.best['time_ms']['median']

    def head(self, lead):
        h = lead + self.params + ['median ms', 'spread', 'reps', self.metric]
        if self.a.ceiling:
            h.append('of %s' % self.a.ceiling_name)
        return h + ['time / best', 'regs', 'occupancy', 'status']

    def cells(self, r):
        c = [fmt(r['params'][p]) for p in self.params]
        t = r.get('time_ms')
        if t:
            m = metric_of(r, self.metric)
            c += ['%.4f' % t['median'], '%.2f%%' % (100 * r['spread']),
                  '%d%s' % (r['reps'], ' (stopped)' if r['pruned'] else ''), fmt(m)]
            if self.a.ceiling:
                c.append('%.1f%%' % (100 * m / self.a.ceiling) if m is not None else '-')
            c.append('%.2f' % self.vs_best(r))
        else:
            c += ['-'] * (5 + (1 if self.a.ceiling else 0))
        res, occ = r.get('resources') or {}, r.get('occupancy') or {}
        c.append(fmt(res.get('registers')))
        c.append('%.0f%%' % (100 * occ['theoretical']) if occ.get('theoretical') is not None else '-')
        status = r['status']
        if r['status'] != 'ok' and r.get('reason'):
            status += ': ' + r['reason'].splitlines()[0][:80].replace('|', '/')
        c.append(status)
        return c


def show(head, rows):
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for row in rows:
        print('| ' + ' | '.join(row) + ' |')


def header(d):
    s, st, dev = d['summary'], d['settings'], d['device']
    print('- date: %s; device: %s (%s, %d SMs, driver %d); cutune %s' % (
        d['date'], dev['name'], dev['arch'], dev['sm_count'], dev['driver_version'], d['cutune']))
    print('- spec: `%s`; kernel `%s`; reference: %s' % (d['spec']['path'], d['spec']['kernel'], st['reference']))
    print('- measurement: warmup %d, repeat %d..%d until spread <= %g, L2 flush %s' % (
        st['warmup'], st['repeat'], st['max_repeat'], st['spread'], 'on' if st['flush_l2'] else 'off'))
    print('- %d variants: %d timed (%d stopped early), %d wrong, %d cannot launch, %d failed' % (
        s['variants'], s['timed'], s['pruned'], s['wrong'], s['unlaunchable'], s['failed']))
    print('- wall %.2f s; NVRTC %.2f s summed over %d threads; GPU thread %.2f s (timing %.2f s)' % (
        s['wall_seconds'], s['compile_seconds'], s['threads'], s['gpu_seconds'], s['timing_seconds']))


def main(argv):
    a = parse_args(argv)
    d = load(a.results)
    t = Table(d, a)
    header(d)
    if t.where:
        print('- only the %d variants with %s' % (len(t.results), ', '.join('%s = %s' % w for w in t.where)))
    print()
    if t.best is None:
        print('No variant was timed.')
        return 1
    b = t.best
    m = metric_of(b, t.metric)
    line = '**Best:** %s: median %.4f ms, %s = %s' % (
        ', '.join('%s = %s' % (p, fmt(b['params'][p])) for p in t.params), b['time_ms']['median'], t.metric, fmt(m))
    if a.ceiling and m is not None:
        line += ' = **%.1f %% of the %s** (%g)' % (100 * m / a.ceiling, a.ceiling_name, a.ceiling)
    print(line + '.')

    for spec in a.per:
        names = [p.strip() for p in spec.split(',') if p.strip()]
        bad = [p for p in names if p not in t.params]
        if bad:
            sys.exit('--per: no param %s (the params: %s)' % (', '.join(bad), ', '.join(t.params)))
        seen = {}
        for r in t.timed:  # best first, so the first of each group is its best
            key = tuple(r['params'][p] for p in names)
            seen.setdefault(key, r)
        print('\nBest variant per %s (best first):\n' % ', '.join(names))
        show(t.head([]), [t.cells(r) for r in seen.values()])

    ranked = t.timed[:a.top] if a.top > 0 else t.timed
    print('\nRanking (%s; best first; "stopped": timing stopped early, median of its first repetitions):\n' % (
        'all %d timed variants' % len(t.timed) if len(ranked) == len(t.timed) else 'top %d of %d' % (
            len(ranked), len(t.timed))))
    show(t.head(['rank', '#']), [[str(i + 1), str(r['index'])] + t.cells(r) for i, r in enumerate(ranked)])
    rest = [r for r in t.results if not (r.get('time_ms') and r.get('objective') is not None)]
    if rest:
        print('\nNot timed:\n')
        show(t.head(['#']), [[str(r['index'])] + t.cells(r) for r in rest])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
