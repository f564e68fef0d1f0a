#!/usr/bin/env python3
"""Summarizes the Python call sites in cuda-advisor recordings (the callsite
records' "pystack", docs/profile-format.md): per file, how many call sites
have a Python stack and a user frame, and the user lines with the most calls.

    test/gpu/python_callsites.py PROFILE.jsonl...
"""
import collections
import json
import os
import sys

for path in sys.argv[1:]:
    stacks, sites = {}, []
    header = end = None
    for line in open(path):
        r = json.loads(line)
        t = r.get("type")
        if t is None and r.get("format"):
            header = r
        elif t == "pystack":
            stacks[r["id"]] = r
        elif t == "callsite":
            sites.append(r)
        elif t == "end":
            end = r
    lines = collections.Counter()
    with_py = with_user = 0
    for s in sites:
        st = stacks.get(s.get("pystack"))
        if st is None:
            continue
        with_py += 1
        if "user" in st:
            with_user += 1
            u = st["user"]
            lines[f"{os.path.basename(st['files'][u])}:{st['lines'][u]} {st['functions'][u]}"] += 1
    print(f"{os.path.basename(path)}: python {header.get('python') if header else None}, "
          f"{len(sites)} call sites, {with_py} with a Python stack, {with_user} with a user frame, "
          f"{len(stacks)} pystacks; python_capture_ns {end.get('python_capture_ns') if end else None}")
    for where, n in lines.most_common(6):
        print(f"    {n:6d}  {where}")
