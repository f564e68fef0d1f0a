#!/usr/bin/env python3
"""A chain of 9 element-wise operations over one 16M-element tensor: 9 kernels,
each reading and writing 64 MB, and 8 intermediates that only go through
memory.

bad (default):
    y = x * 1.5; y = y + 0.25; y = torch.sin(y); y = y * y; y = y - 0.5
    y = torch.exp(y); y = y * 0.1; y = y + x; y = torch.relu(y)
fixed (--fixed): the same function as one fused kernel (one read of x, one
write of y), built by torch.cuda.jiterator from the same expression; where
jiterator is unavailable, torch.compile (Triton) fuses the chain. A program
would normally use torch.compile; jiterator keeps the example's start-up short.
"""
import sys

import torch

from pairs_common import run

ELEMENTS = 16 * 1024 * 1024

FUSED_CODE = """
template <typename T> T chain(T x) {
  T y = x * T(1.5);
  y = y + T(0.25);
  y = sin(y);
  y = y * y;
  y = y - T(0.5);
  y = exp(y);
  y = y * T(0.1);
  y = y + x;
  return y > T(0) ? y : T(0);
}
"""


def chain(x):
    y = x * 1.5
    y = y + 0.25
    y = torch.sin(y)
    y = y * y
    y = y - 0.5
    y = torch.exp(y)
    y = y * 0.1
    y = y + x
    y = torch.relu(y)
    return y


def setup(args):
    x = torch.randn(ELEMENTS, device="cuda")
    fused = None
    if args.fixed:
        try:
            fused = torch.cuda.jiterator._create_jit_fn(FUSED_CODE)
            fused(x)
        except Exception as e:  # No NVRTC: fall back to Triton.
            print(f"jiterator unavailable ({e}); using torch.compile", file=sys.stderr)
            fused = torch.compile(chain)
    return {"x": x, "fused": fused}


def unfused(s, n):
    for _ in range(n):
        y = chain(s["x"])
    return y


def fused(s, n):
    for _ in range(n):
        y = s["fused"](s["x"])
    return y


def same(s, result):
    return bool(torch.allclose(result, chain(s["x"]), rtol=1e-4, atol=1e-5))


if __name__ == "__main__":
    sys.exit(run(__doc__, setup, unfused, fused, 20, same))
