#!/usr/bin/env python3
"""Many small host-to-device copies: 400 small tensors (a model's parameters,
a batch's fields) copied one by one, each a separate synchronous copy from
pageable memory whose fixed cost (about 10 us) dwarfs its 4 KB.

bad (default):
    gpu = [t.cuda() for t in cpu_tensors]            # 400 copies
fixed (--fixed): one copy of the concatenation, split on the GPU into views:
    flat = torch.cat(cpu_tensors).cuda()             # 1 copy (in practice:
    gpu = flat.split(sizes)                          # keep them in one buffer)
"""
import sys

import torch

from pairs_common import run

TENSORS = 400
ELEMENTS = 1024


def setup(args):
    cpu = [torch.randn(ELEMENTS) for _ in range(TENSORS)]
    flat = torch.cat(cpu)  # The fixed program keeps its tensors in one buffer.
    return {"cpu": cpu, "flat": flat, "sizes": [t.numel() for t in cpu]}


def one_by_one(s, n):
    for _ in range(n):
        gpu = [t.cuda() for t in s["cpu"]]
    return gpu


def one_copy(s, n):
    for _ in range(n):
        gpu = s["flat"].cuda().split(s["sizes"])
    return gpu


def same(s, result):
    return all(torch.equal(g.cpu(), c) for g, c in zip(result, s["cpu"]))


if __name__ == "__main__":
    sys.exit(run(__doc__, setup, one_by_one, one_copy, 10, same))
