#!/usr/bin/env python3
"""Turns the examples' printed timings (timings.txt lines "EXAMPLE RUN VARIANT:
MS ms", made by test/gpu/record-all.sh, or "PAIR VARIANT MS", made by
test/gpu/record-pytorch.sh) into timings.json: per example and
variant the times of every process, their median and minimum, and the
measured saving of the fix (median bad - median fixed). These are the
savings that the cost model's estimates are checked against."""
import json
import re
import statistics
import sys


def main(timings_path, env_path=None):
    runs = {}
    for line in open(timings_path):
        m = re.match(r"^(\S+) (\d+) (bad|fixed): ([0-9.]+) ms$", line.strip())
        if m:
            runs.setdefault(m[1], {}).setdefault(m[3], []).append(float(m[4]))
            continue
        # test/gpu/record-pytorch.sh's lines: "PAIR VARIANT MS" (the process's
        # median of its timed loops).
        m = re.match(r"^(\S+) (bad|fixed) ([0-9.]+)$", line.strip())
        if m:
            runs.setdefault(m[1], {}).setdefault(m[2], []).append(float(m[3]))
    out = {"unit": "ms", "what": "each example's own timing of its timed section "
           "(see the example's source), one value per process, no profiler attached",
           "examples": {}}
    if env_path:
        out["environment"] = [l.rstrip() for l in open(env_path) if l.strip()]
    for name in sorted(runs):
        entry = {}
        for variant in ("bad", "fixed"):
            times = runs[name].get(variant, [])
            if times:
                entry[variant] = {"processes": times, "median": statistics.median(times),
                                  "min": min(times)}
        if "bad" in entry and "fixed" in entry:
            entry["saving_ms"] = round(entry["bad"]["median"] - entry["fixed"]["median"], 3)
            entry["speedup"] = round(entry["bad"]["median"] / entry["fixed"]["median"], 3)
        out["examples"][name] = entry
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(*sys.argv[1:3])
