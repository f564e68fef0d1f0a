#!/usr/bin/env python3
"""Checks cuda-advisor's summary of an SQLite profile against the file's own tables.

check_summary.py DB REPORT.json: counts the kernels, copies and runtime calls,
sums their durations and takes the union of the GPU intervals per (process,
device) with SQL over the database itself, and fails (exit 1) when the JSON
report's summary says anything else.
"""
import json
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
summary = json.load(open(sys.argv[2]))["summary"]
tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
nsys = "StringIds" in tables


def rows(table, cols):
    if table not in tables:
        return []
    have = {r[1] for r in db.execute(f"pragma table_info({table})")}
    sel = ", ".join(c if c in have else "NULL" for c in cols)
    return list(db.execute(f"select {sel} from {table}"))


def pid(global_id):
    return (global_id >> 24) & 0xFFFFFF if nsys and global_id is not None else 0


def uvm_kinds():
    if "ENUM_CUDA_MEMCPY_OPER" in tables:
        return {i for (i, n) in db.execute("select id, name from ENUM_CUDA_MEMCPY_OPER") if "UVM" in n}
    return {11, 12, 13} if nsys else set()


kernels = []
for t in (["CUPTI_ACTIVITY_KIND_KERNEL"] if nsys else
          ["CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_KERNEL"]):
    kernels += rows(t, ["start", "end", "deviceId", "globalPid"])
uvm = uvm_kinds()
copies = [r for r in rows("CUPTI_ACTIVITY_KIND_MEMCPY", ["start", "end", "deviceId", "globalPid", "copyKind"])
          if r[4] not in uvm]
memsets = rows("CUPTI_ACTIVITY_KIND_MEMSET", ["start", "end", "deviceId", "globalPid"])
if nsys:
    api = rows("CUPTI_ACTIVITY_KIND_RUNTIME", ["start"]) + rows("CUPTI_ACTIVITY_KIND_DRIVER", ["start"])
else:
    api = rows("CUPTI_ACTIVITY_KIND_RUNTIME", ["start"])  # driver calls are not read

dur = lambda rs: sum(max(0, r[1] - r[0]) for r in rs)
busy = 0
per = {}
for r in kernels + copies + memsets:
    per.setdefault((pid(r[3]), r[2]), []).append((r[0], r[1]))
for ivs in per.values():
    ivs.sort()
    cur_s, cur_e = None, None
    for s, e in ivs:
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                busy += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        busy += cur_e - cur_s

expected = {"kernels": len(kernels), "copies": len(copies), "apiCalls": len(api),
            "kernelNs": dur(kernels), "copyNs": dur(copies), "memsetNs": dur(memsets),
            "gpuBusyNs": busy}
got = {k: summary[k] for k in expected}
if got != expected:
    print("summary differs from the tables:\n  tables: %s\n  report: %s" % (expected, got))
    sys.exit(1)
print("summary matches the tables: %s" % expected)
