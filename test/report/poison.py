#!/usr/bin/env python3
"""poison.py CUTUNE OUTDIR - every string a results file can carry into `cutune report`
is poisoned with markup, and the page must show it as text: escaped, never markup.

Each string gets its own payload, `<x-TAG>" onmouseover="a(1)' onfocus='b&</title><!--`,
TAG naming the field. A page passes when:
  * no `<x-` occurs in it (an unescaped `<` of any payload would start one) and the
    report's own markup checker (test/report/check_html.py: no foreign element, no event
    handler, no comment) finds nothing;
  * each field the report shows appears as escaped text, `&lt;x-TAG&gt;` (so the test is
    not passing because the field never reached the page), and where it is shown whole,
    escaped in full (quotes, apostrophes, ampersands).

Free text (spec path, device name and arch, date, strategy, reference, string
param values, failure reasons, occupancy limiters, hardware-counter names, the run's and
each variant's counter notes, the results file's own name, --title) is poisoned all in one
file, which must load. Names that a loader may refuse (param names, the objective's name,
metric names, size variables, the kernel's name) are poisoned one per file: each file is either refused
(exit 3 with a message, no page) or its page passes the same checks.
"""
import copy
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def payload(tag):
    return "<x-%s>\" onmouseover=\"a(1)' onfocus='b&</title><!--" % tag


def escaped(tag):
    return "&lt;x-%s&gt;&quot; onmouseover=&quot;a(1)&#39; onfocus=&#39;b&amp;&lt;/title&gt;&lt;!--" % tag


COUNTERS = ["sm__warps_active.avg.pct_of_peak_sustained_active", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]


def base():
    """A clean run: 3 params, a random search, hardware counters, energy, 12 entries."""
    d = {
        "format": "cutune-results", "version": 1, "cutune": "0.1.0", "date": "2026-12-01T10:00:00Z",
        "spec": {"path": "spec.tune", "kernel": "k", "kernel_file": "k.cu",
                 "params": [{"name": "a", "type": "int"}, {"name": "mode", "type": "string"},
                            {"name": "f", "type": "float"}]},
        "device": {"name": "GPU", "arch": "sm_90", "compute_capability": 90, "sm_count": 132,
                   "l2_bytes": 52428800, "driver_version": 13000},
        "settings": {"strategy": "random", "warmup": 3, "repeat": 10, "max_repeat": 50, "spread": 0.02,
                     "flush_l2": True, "reference": "configuration (a 1)",
                     "profile": {"method": "x", "metrics": list(COUNTERS) + ["extra.counter"], "top": -1}},
        "objective": {"name": "time_ms", "direction": "minimize"},
        "summary": {"variants": 12, "timed": 10, "wrong": 0, "failed": 2, "unlaunchable": 0, "pruned": 0,
                    "best": 0, "wall_seconds": 1.0, "compile_seconds": 0.5, "compile_wall_seconds": 0.5,
                    "gpu_seconds": 0.1, "timing_seconds": 0.1, "threads": 2, "profiled": 8,
                    "profile_note": "some variants were not profiled"},
        "results": [],
    }
    for i in range(12):
        e = {"index": i, "params": {"a": i % 4, "mode": "m%d" % (i % 3), "f": 0.5 * (i % 2)},
             "kernel": "k", "block": [128, 1, 1], "grid": [64, 1, 1], "smem_bytes": 0, "defines": [], "options": [],
             "resources": {"registers": 16 + i, "static_smem": 0, "local_bytes": 0, "spill_stores": 0,
                           "spill_loads": 0},
             "occupancy": {"theoretical": 0.25 + 0.05 * i, "limiter": "warps", "blocks_per_sm": 8,
                           "driver_blocks_per_sm": 8},
             "verified": True, "max_abs_error": 0.0, "compile_seconds": 0.1, "cached": False, "duplicate": False,
             "gpu_seconds": 0.01, "timing_seconds": 0.005, "resumed": False}
        if i in (5, 9):
            e.update({"status": "compile error", "reason": "bad %d" % i, "time_ms": None})
        else:
            t = 1.0 + 0.1 * i
            e.update({"status": "ok", "reason": None, "time_ms": {"median": t, "min": t, "max": t, "q1": t, "q3": t},
                      "spread": 0.0, "reps": 10, "batch": 1, "pruned": False, "metrics": {"GBps": 10 / t},
                      "objective": t,
                      "energy": {"J_per_launch": 0.001 * (i + 1), "W": 100.0 + i, "window_s": 0.1, "launches": 10}})
            if i < 8:
                e["hw"] = {"metrics": {c: 50.0 + k + i for k, c in enumerate(COUNTERS)}, "passes": 3}
                e["hw"]["metrics"]["extra.counter"] = 1.0
            else:
                e["hw"] = {"not_measured": "not among the best"}
        d["results"].append(e)
    return d


def poison_free_text(d):
    """Every free-text field of d poisoned; returns the tags the page must show."""
    d["date"] = payload("date")
    d["spec"]["path"] = payload("specpath") + ".tune"
    d["spec"]["kernel_file"] = payload("kernelfile")
    d["device"]["name"] = payload("device")
    d["device"]["arch"] = payload("arch")
    d["settings"]["strategy"] = payload("strategy")
    d["settings"]["reference"] = payload("reference")
    d["settings"]["profile"]["metrics"][-1] = payload("counter")
    d["summary"]["profile_note"] = payload("profilenote")
    for e in d["results"]:
        e["params"]["mode"] = payload("value%d" % (e["index"] % 3))
        e["occupancy"]["limiter"] = payload("limiter")
        e["defines"] = [payload("define")]
        if e["status"] != "ok":
            e["reason"] = payload("reason")
        elif "not_measured" in e["hw"]:
            e["hw"]["not_measured"] = payload("hwnote")
            e["energy"] = {"not_measured": payload("energynote")}
        else:
            e["hw"]["metrics"][payload("counter")] = e["hw"]["metrics"].pop("extra.counter")
    return ["date", "specpath", "device", "arch", "strategy", "reference", "counter", "profilenote",
            "value0", "value1", "value2", "limiter", "reason", "hwnote", "file", "title"]


def poison_name(d, which):
    """One name of d poisoned (which: kernel, param, objective, metric, sizevar): names
    become C identifiers in a header, so the loader may refuse them (results/load.c)."""
    if which == "kernel":
        d["spec"]["kernel"] = payload("kernel")
        for e in d["results"]:
            e["kernel"] = payload("kernel")
    elif which == "param":
        d["spec"]["params"][1]["name"] = payload("paramname")
        for e in d["results"]:
            e["params"][payload("paramname")] = e["params"].pop("mode")
    elif which == "objective":
        d["objective"]["name"] = payload("objective")
    elif which == "metric":
        d["objective"]["name"] = payload("metric")
        for e in d["results"]:
            if "metrics" in e:
                e["metrics"] = {payload("metric"): e["objective"]}
    elif which == "sizevar":
        one = {k: d.pop(k) for k in ("settings", "summary", "results")}
        one["size"] = {payload("sizevar"): 4096}
        d["version"] = 2
        d["spec"]["size"] = [payload("sizevar")]
        d["sizes"] = [one, copy.deepcopy(one)]
        d["sizes"][1]["size"] = {payload("sizevar"): 8192}
    return which if which != "param" else "paramname"


problems = []


def check_page(name, page, tags):
    text = open(page, encoding="utf-8").read()
    if "<x-" in text:
        at = text.index("<x-")
        problems.append("%s: unescaped payload: ...%s..." % (name, text[max(0, at - 80):at + 60]))
    r = subprocess.run([sys.executable, os.path.join(HERE, "check_html.py"), page], capture_output=True, text=True)
    if r.returncode != 0:
        problems.append("%s: check_html: %s" % (name, r.stdout.strip()))
    for tag in tags:
        if "&lt;x-%s&gt;" % tag not in text:
            problems.append("%s: the field %s does not reach the page (or not escaped)" % (name, tag))
        elif escaped(tag) not in text and tag not in ("value0", "value1", "value2", "paramname", "sizevar", "file", "arch"):
            # values and names are also cut short in chart labels, the arch to its fixed size
            problems.append("%s: the field %s is not escaped in full anywhere" % (name, tag))
    svg = " ".join(re.findall(r"<svg.*?</svg>", text, re.S))
    if re.search(r"[^a-z](nan|inf)", svg, re.I):
        problems.append("%s: NaN or infinity in a chart" % name)


def report(cutune, out, name, d, tags, may_refuse):
    path = os.path.join(out, name + payload("file").replace("/", "_") + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False, indent=1)
    page = os.path.join(out, name + ".html")
    r = subprocess.run([cutune, "report", path, "-o", page, "--title", payload("title")], capture_output=True,
                       text=True)
    if r.returncode != 0:
        if may_refuse and r.returncode == 3 and r.stderr.strip() and not os.path.exists(page):
            print("poison: %s refused: %s" % (name, r.stderr.strip()[:200]))
            return
        problems.append("%s: exit %d: %s" % (name, r.returncode, r.stderr.strip()[:300]))
        return
    check_page(name, page, tags)
    print("poison: %s: page checked (%d fields)" % (name, len(tags)))


def main():
    cutune, out = sys.argv[1], sys.argv[2]
    d = base()
    tags = poison_free_text(d)
    report(cutune, out, "free-text", d, tags, may_refuse=False)
    for which in ("kernel", "param", "objective", "metric", "sizevar"):
        d = base()
        tag = poison_name(d, which)
        report(cutune, out, "name-" + which, d, [tag, "file", "title"], may_refuse=True)
    for p in problems:
        print("FAIL: poison: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
