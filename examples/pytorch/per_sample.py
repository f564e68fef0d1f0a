#!/usr/bin/env python3
"""A model called on one sample at a time: 3 small kernels per sample, the GPU
mostly idle between launches.

bad (default):
    outs = [model(x[i:i + 1]) for i in range(512)]   # 512 x (addmm, relu, addmm)
    out = torch.cat(outs)
fixed (--fixed): one call on the whole batch:
    out = model(x)                                    # 3 kernels
"""
import sys

import torch

from pairs_common import run

SAMPLES = 512


def setup(args):
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 64)).cuda().eval()
    x = torch.randn(SAMPLES, 256, device="cuda")
    return {"model": model, "x": x}


@torch.no_grad()
def one_at_a_time(s, n):
    model, x = s["model"], s["x"]
    for _ in range(n):
        outs = [model(x[i:i + 1]) for i in range(SAMPLES)]
        out = torch.cat(outs)
    return out


@torch.no_grad()
def batched(s, n):
    model, x = s["model"], s["x"]
    for _ in range(n):
        out = model(x)
    return out


@torch.no_grad()
def same(s, result):
    return bool(torch.allclose(result, s["model"](s["x"]), rtol=1e-3, atol=1e-4))


if __name__ == "__main__":
    sys.exit(run(__doc__, setup, one_at_a_time, batched, 4, same))
