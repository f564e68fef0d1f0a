#!/usr/bin/env python3
"""Data loading from pageable memory inside the training loop: each batch is
copied from ordinary (pageable) host memory, so the copy is synchronous and
slow, and the GPU waits for it.

bad (default), as with a DataLoader without pin_memory=True:
    for xb, yb in batches:                 # CPU tensors, pageable
        xb, yb = xb.cuda(), yb.cuda()      # 8 MB H2D each, host blocked
        loss = F.cross_entropy(model(xb), yb); backward; step
fixed (--fixed), as with DataLoader(pin_memory=True): the batches are in
pinned memory and copied with non_blocking=True, so the copy of the next batch
overlaps the GPU's work and runs at full PCIe/NVLink-C2C speed.
"""
import sys

import torch
import torch.nn.functional as F

from pairs_common import run

BATCHES = 30
BATCH = 1024
FEATURES = 2048


def setup(args):
    model = torch.nn.Sequential(torch.nn.Linear(FEATURES, 1024), torch.nn.ReLU(),
                                torch.nn.Linear(1024, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [(torch.randn(BATCH, FEATURES), torch.randint(0, 10, (BATCH,)))
               for _ in range(BATCHES)]
    if args.fixed:  # What DataLoader(pin_memory=True) hands the loop.
        batches = [(x.pin_memory(), y.pin_memory()) for x, y in batches]
    return {"model": model, "opt": opt, "batches": batches}


def step(s, xb, yb):
    loss = F.cross_entropy(s["model"](xb), yb)
    s["opt"].zero_grad(set_to_none=True)
    loss.backward()
    s["opt"].step()
    return loss


def pageable(s, n):
    for i in range(n):
        xb, yb = s["batches"][i % BATCHES]
        xb, yb = xb.cuda(), yb.cuda()
        loss = step(s, xb, yb)
    return loss


def pinned(s, n):
    for i in range(n):
        xb, yb = s["batches"][i % BATCHES]
        xb, yb = xb.cuda(non_blocking=True), yb.cuda(non_blocking=True)
        loss = step(s, xb, yb)
    return loss


if __name__ == "__main__":
    sys.exit(run(__doc__, setup, pageable, pinned, BATCHES))
