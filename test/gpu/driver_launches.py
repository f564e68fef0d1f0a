#!/usr/bin/env python3
"""Kernels that a library launches through the driver API (cuBLASLt's and
CUTLASS's GEMMs, Triton's kernels), and a check that a cuda-advisor recording
gives each of them a launching call and a call site at this file's lines.

    python3 test/gpu/driver_launches.py                # the workload
    cuda-advisor record -o r.jsonl -- python3 test/gpu/driver_launches.py
    python3 test/gpu/driver_launches.py --check r.jsonl

The workload: FP32 products of the shapes word_language_model's decoder and
LSTM run (cuBLAS picks CUTLASS SIMT kernels for some, launched with
cuLaunchKernel by cuBLASLt), a square one, and a small training step whose
backward runs on autograd's thread. --check prints, per kernel name, how many
launches have an "api" record with the kernel's correlation id (runtime or
driver) and how many of those have a call site with a Python user frame
(backward's launches run on autograd's thread, which has none: the reader
places them at loss.backward()); it exits 1 when a kernel has no launching
call.
"""
import collections
import json
import sys


def workload():
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(0)
    for m, k, n in [(700, 200, 33278), (20, 800, 200), (700, 200, 800), (2048, 2048, 2048)]:
        a = torch.randn(m, k, device="cuda", generator=g)
        b = torch.randn(k, n, device="cuda", generator=g)
        for _ in range(3):
            c = a @ b  # the products' line
    model = torch.nn.Sequential(torch.nn.Linear(200, 800), torch.nn.Tanh(),
                                torch.nn.Linear(800, 33278)).cuda()
    x = torch.randn(700, 200, device="cuda", generator=g)
    for _ in range(3):
        loss = model(x).square().mean()  # forward
        loss.backward()  # backward
    torch.cuda.synchronize()
    print("driver_launches: done", float(c[0, 0]))


def check(path):
    kernels, calls, stacks, sites = [], {}, {}, {}
    for line in open(path):
        r = json.loads(line)
        t = r.get("type")
        if t == "kernel":
            kernels.append(r)
        elif t == "api":
            calls[r["correlation"]] = r
        elif t == "pystack":
            stacks[r["id"]] = r
        elif t == "callsite":
            sites[r["correlation"]] = r
    rows = collections.defaultdict(lambda: [0, 0, 0, collections.Counter(), collections.Counter()])
    for k in kernels:
        row = rows[k["name"][:90]]
        row[0] += 1
        call = calls.get(k["correlation"])
        if call is None:
            continue
        row[1] += 1
        row[3][call["name"]] += 1
        site = sites.get(k["correlation"])
        st = stacks.get(site.get("pystack")) if site else None
        if st is not None and "user" in st:
            row[2] += 1
            u = st["user"]
            row[4][f"{st['files'][u].rsplit('/', 1)[-1]}:{st['lines'][u]}"] += 1
    bad = 0
    print(f"{'launches':>8} {'called':>6} {'user':>5}  kernel / launching calls / user lines")
    for name, (n, called, user, apis, lines) in sorted(rows.items(), key=lambda x: -x[1][0]):
        print(f"{n:8} {called:6} {user:5}  {name}\n{'':23}{dict(apis)} {dict(lines)}")
        if called < n:
            bad += 1
    driver = sum(1 for c in calls.values() if c.get("domain") == "driver")
    print(f"{len(kernels)} kernels, {len(calls)} api records ({driver} driver), "
          f"{len(sites)} call sites, {len(stacks)} pystacks; kernel names with unlaunched kernels: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2]))
    workload()
