#!/usr/bin/env python3
"""trace_floor.py FILE [--variants N] - a CUTUNE_TRACE file read as text: where a run's
time went before (and around) its first variants, for a machine without a browser.

Each process (named by its metadata: the tuner, each GPU worker, the compile workers) is
listed with its spans, nested, as "start +duration" in milliseconds from the first
"run start" (else the file's first event); a span that recurs (a variant, a compile) is
shown for its first N occurrences (--variants, default 3), with what it holds; each
name that recurs on a track is then counted, with its total time. A process's instants
are listed too; one that recurs more than 16 times (a cache hit, each variant's cold and
warm times) only for its first N, then counted.
Then, per GPU track of the tuner: when the first variant was sent and answered, how
many, and how busy the track was from the first sending to the last answer. The file
is read as Perfetto reads it: the closing "]" missing, a comma after the last event.
docs/cli.md (CUTUNE_TRACE) says what each event is."""
import argparse
import collections
import json
import sys


def load(path):
    text = open(path, encoding="utf-8").read().rstrip().rstrip(",")
    if not text.endswith("]"):
        text += "]"
    return json.loads(text)


def spans(events):
    """(pid, tid) -> [(name, begin, end, depth, detail)] in begin order; an unclosed
    span ends at the track's last event."""
    out = collections.defaultdict(list)
    stacks = collections.defaultdict(list)
    last = {}
    for e in events:
        key = (e["pid"], e["tid"])
        last[key] = e["ts"]
        if e["ph"] == "B":
            stacks[key].append((e["name"], e["ts"], len(stacks[key]), e.get("args", {}).get("detail")))
        elif e["ph"] == "E" and stacks[key]:
            name, ts, depth, detail = stacks[key].pop()
            out[key].append((name, ts, e["ts"], depth, detail))
    for key, stack in stacks.items():
        for name, ts, depth, detail in stack:
            out[key].append((name, ts, last[key], depth, (detail or "") + " (not ended)"))
    for key in out:
        out[key].sort(key=lambda s: (s[1], s[3]))
    return out


def generic(name):
    """A recurring span's family: "variant 17" -> "variant"."""
    head = name.split(" ")
    return " ".join(head[:-1]) if len(head) > 1 and head[-1].isdigit() else name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--variants", type=int, default=3, help="occurrences of a recurring span shown (default 3)")
    a = ap.parse_args()
    events = load(a.file)
    if not events:
        sys.exit("trace_floor: no events in " + a.file)
    starts = [e["ts"] for e in events if e["name"] == "run start"]
    t0 = starts[0] if starts else min(e["ts"] for e in events if e["ph"] != "M")
    pname = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    tname = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    ms = lambda us: (us - t0) / 1000.0
    by_track = spans(events)
    instants = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "i":
            instants[e["pid"]].append(e)
    first_ts = collections.defaultdict(lambda: float("inf"))
    for e in events:
        if e["ph"] != "M":
            first_ts[e["pid"]] = min(first_ts[e["pid"]], e["ts"])
    for pid in sorted(first_ts, key=lambda p: first_ts[p]):
        print(f"{pname.get(pid, 'process')} (pid {pid}), first event at {ms(first_ts[pid]):.1f} ms")
        seen_i = collections.Counter()
        # an instant of every variant (a cache hit, a variant's cold and warm) is shown for
        # its first N and then counted; one per GPU (a set-up answered) is always shown
        many = {f for f, n in collections.Counter(generic(e["name"]) for e in instants[pid]).items() if n > 16}
        for e in instants[pid]:
            fam = generic(e["name"])
            seen_i[fam] += 1
            if fam in many and seen_i[fam] > a.variants:
                continue
            detail = e.get("args", {}).get("detail")
            print(f"  {ms(e['ts']):9.1f}            ! {e['name']}" + (f"  [{detail}]" if detail else ""))
        for fam, n in sorted(seen_i.items()):
            if fam in many and n > a.variants:
                print(f"  {'':9}            ! ... {fam} x{n} in all")
        for key in sorted(k for k in by_track if k[0] == pid):
            track = by_track[key]
            label = tname.get(key, f"thread {key[1]}")
            print(f"  track: {label}")
            count = collections.Counter()  # top-level spans by family
            total = collections.Counter()  # every span's time by family
            times = collections.Counter()
            shown = False
            for name, b, e, depth, detail in track:
                fam = generic(name)
                total[fam] += e - b
                times[fam] += 1
                if depth == 0:
                    count[fam] += 1
                    shown = count[fam] <= a.variants
                if shown:  # a nested span with its top-level one
                    pad = "  " * depth
                    print(f"    {ms(b):9.1f} +{(e - b) / 1000.0:8.2f} {pad}{name}" + (f"  [{detail}]" if detail else ""))
            for fam, n in times.items():
                if n > 1:
                    print(f"    {'':9}  {total[fam] / 1000.0:8.2f} ... {fam}: x{n} in all")
    # The GPU tracks of the tuner: when each GPU started working, and how busy it was.
    gpu_tracks = [k for k in by_track if k[1] >= 1000 and (tname.get(k) or "").startswith("GPU")]
    for key in sorted(gpu_tracks):
        track = [s for s in by_track[key] if s[3] == 0]
        if not track:
            continue
        busy = sum(e - b for _, b, e, _, _ in track)
        span = track[-1][2] - track[0][1]
        print(f"{tname[key]}: first sent {ms(track[0][1]):.1f} ms, answered {ms(track[0][2]):.1f} ms; "
              f"{len(track)} variants; busy {busy / 1000.0:.1f} of {span / 1000.0:.1f} ms "
              f"({100.0 * busy / span if span > 0 else 100.0:.0f}%)")


if __name__ == "__main__":
    main()
