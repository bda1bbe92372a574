#!/usr/bin/env python3
"""t1_count.py T1.json - the number of valid configurations of a T1 tuning problem,
computed here with Python's own meaning of its Values and Conditions: an independent
count to hold `cutune import`'s translation to (test/cli/import.sh). Nothing of cutune
is used. Params are bound one at a time in the file's order; a condition is evaluated
as soon as the last param it reads is bound, so a branch that fails one is cut there."""
import ast
import json
import sys


def names_in(expr):
    return {n.id for n in ast.walk(ast.parse(expr, mode="eval")) if isinstance(n, ast.Name)}


def count(path):
    with open(path) as f:
        t1 = json.load(f)
    space = t1["ConfigurationSpace"]
    params = space["TuningParameters"]
    names = [p["Name"] for p in params]
    values = [eval(p["Values"], {"range": range, "list": list}) if isinstance(p["Values"], str) else p["Values"]
              for p in params]
    conds = [c["Expression"] for c in space.get("Conditions", [])]
    # each condition at the depth of the last param it reads
    at = [[] for _ in names]
    for c in conds:
        used = [names.index(n) for n in names_in(c) if n in names]
        at[max(used) if used else 0].append(compile(c, "<condition>", "eval"))
    env = {}

    def walk(k):
        if k == len(names):
            return 1
        total = 0
        for v in values[k]:
            env[names[k]] = v
            if all(eval(c, {}, env) for c in at[k]):
                total += walk(k + 1)
        return total

    return walk(0)


if __name__ == "__main__":
    print(count(sys.argv[1]))
