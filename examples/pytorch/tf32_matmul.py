#!/usr/bin/env python3
"""FP32 matrix multiplies with TF32 off: the tensor cores stay unused.

bad (default): PyTorch's default for float32 matmuls
(torch.backends.cuda.matmul.allow_tf32 = False): each 4096 x 4096 x 4096
product runs on the FP32 units (about 67 TFLOP/s on an H200).
    for _ in range(n):
        h = torch.tanh(x @ w1)          # FP32 GEMM
        x = h @ w2                      # FP32 GEMM
fixed (--fixed): torch.set_float32_matmul_precision("high") lets cuBLAS run
the same products in TF32 on the tensor cores (TF32 keeps 10 mantissa bits:
results differ from FP32 by about 1e-3 relative; bf16 autocast is the other
fix). The same loop, the same kernels' count.
"""
import sys

import torch

from pairs_common import run

N = 4096


def setup(args):
    torch.set_float32_matmul_precision("high" if args.fixed else "highest")
    g = torch.Generator(device="cuda").manual_seed(0)
    scale = N ** -0.5
    return {
        "x": torch.randn(N, N, device="cuda", generator=g),
        "w1": torch.randn(N, N, device="cuda", generator=g) * scale,
        "w2": torch.randn(N, N, device="cuda", generator=g) * scale,
    }


def layers(s, n):
    x = s["x"]
    for _ in range(n):
        h = torch.tanh(x @ s["w1"])
        x = h @ s["w2"]
    return x


def finite(s, result):
    return bool(torch.isfinite(result).all())


if __name__ == "__main__":
    sys.exit(run(__doc__, setup, layers, layers, 10, finite))
