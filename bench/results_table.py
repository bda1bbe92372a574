#!/usr/bin/env python3
"""results_table.py - a results JSON (cutune --results FILE) as Markdown tables.

    bench/results_table.py RESULTS.json [--ceiling GBPS --metric NAME] [--top N] [--all]

Prints the run's header (date, device, settings), the ranking of the timed variants
by the objective, and with --all every variant's row. --ceiling adds each variant's
metric as a fraction of a ceiling (e.g. the device-to-device copy bandwidth)."""
import argparse, json

ap = argparse.ArgumentParser()
ap.add_argument('results')
ap.add_argument('--ceiling', type=float)
ap.add_argument('--metric')
ap.add_argument('--top', type=int, default=10)
ap.add_argument('--all', action='store_true')
a = ap.parse_args()
d = json.load(open(a.results))
params = [p['name'] for p in d['spec']['params']]
s = d['summary']
print('- date: %s; device: %s (%s, %d SMs, driver %d); cutune %s' % (
    d['date'], d['device']['name'], d['device']['arch'], d['device']['sm_count'], d['device']['driver_version'],
    d['cutune']))
st = d['settings']
print('- settings: warmup %d, repeat %d..%d until spread <= %g, L2 flush %s, reference: %s' % (
    st['warmup'], st['repeat'], st['max_repeat'], st['spread'], 'on' if st['flush_l2'] else 'off', st['reference']))
print('- %d variants: %d timed (%d stopped early), %d wrong, %d cannot launch, %d failed' % (
    s['variants'], s['timed'], s['pruned'], s['wrong'], s['unlaunchable'], s['failed']))
print('- wall %.2f s; NVRTC %.2f s summed over %d threads; GPU thread %.2f s (timing %.2f s)' % (
    s['wall_seconds'], s['compile_seconds'], s['threads'], s['gpu_seconds'], s['timing_seconds']))
print()
metric = a.metric or d['objective']['name']
def row(r):
    t = r['time_ms']
    cells = [str(r['index'])] + [str(r['params'][p]) for p in params]
    if t:
        m = r['metrics'].get(metric) if r.get('metrics') else None
        cells += ['%.4f' % t['median'], '%.4f' % t['min'], '%.4f' % t['max'], '%.2f%%' % (100 * r['spread']),
                  '%d' % r['reps'] + (' (stopped)' if r['pruned'] else '')]
        cells += ['%.1f' % m if m is not None else '-']
        if a.ceiling:
            cells += ['%.1f%%' % (100 * m / a.ceiling) if m is not None else '-']
    else:
        cells += ['-'] * (6 + (1 if a.ceiling else 0))
    cells += [str(r['resources']['registers']), '%.0f%%' % (100 * r['occupancy']['theoretical']), r['status']]
    return '| ' + ' | '.join(cells) + ' |'
head = ['#'] + params + ['median ms', 'min ms', 'max ms', 'spread', 'reps', metric]
if a.ceiling:
    head += ['of ceiling']
head += ['regs', 'occupancy', 'status']
def table(rows):
    print('| ' + ' | '.join(head) + ' |')
    print('|' + '---|' * len(head))
    for r in rows:
        print(row(r))
res = d['results']
timed = [r for r in res if r['time_ms'] and not r['pruned'] and r['objective'] is not None]
timed.sort(key=lambda r: r['objective'], reverse=d['objective']['direction'] == 'maximize')
print('Ranking (best first):\n')
table(timed[:a.top])
if a.all:
    print('\nEvery variant, in listing order:\n')
    table(res)
