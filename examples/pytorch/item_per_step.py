#!/usr/bin/env python3
"""A `.item()` per training step that costs nothing: every step is GPU-bound
(two 8192-wide bf16 layers, a few milliseconds of GPU work), so the host
waiting for the loss at each step takes no time from the GPU. A profiler must
not report it (issue 11: the case that costs nothing).

bad (default):
    total += loss.item()          # the host waits for the step to finish
fixed (--fixed):
    total += loss.detach()        # summed on the GPU, read once at the end
The "fix" is not faster: the saving is zero.
"""
import sys

import torch

from pairs_common import run

WIDTH = 8192
BATCH = 8192


def setup(args):
    model = torch.nn.Sequential(torch.nn.Linear(WIDTH, WIDTH), torch.nn.GELU(),
                                torch.nn.Linear(WIDTH, WIDTH)).cuda().to(torch.bfloat16)
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    x = torch.randn(BATCH, WIDTH, device="cuda", dtype=torch.bfloat16)
    return {"model": model, "opt": opt, "x": x}


def step(s):
    loss = s["model"](s["x"]).float().pow(2).mean()
    s["opt"].zero_grad(set_to_none=True)
    loss.backward()
    s["opt"].step()
    return loss


def item_each_step(s, n):
    total = 0.0
    for _ in range(n):
        total += step(s).item()
    return total


def item_once(s, n):
    total = torch.zeros((), device="cuda")
    for _ in range(n):
        total += step(s).detach()
    return total.item()


if __name__ == "__main__":
    sys.exit(run(__doc__, setup, item_each_step, item_once, 20))
