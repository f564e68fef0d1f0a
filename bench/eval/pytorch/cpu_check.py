"""For checking the programs on a machine with no GPU only (never on the GPU
machine, never for a timing): lets programs written for torch >= 2.6, numpy
>= 2 and a CUDA device run on an older torch (Debian's 1.13) on the CPU.

    python3 cpu_check.py offline.py [offline.py's options] SCRIPT [ARGS...]
    PYTHON="python3 $PWD/cpu_check.py" PHASES=time PROGRAMS=... run.sh BUILD OUT 1

Before it runs offline.py (runpy, as `python3 offline.py ...` would):
  - where torch has no torch.accelerator (before 2.6), gives it one whose device
    is the CPU, so that a program's accelerator branch runs (its DataLoader
    workers and pin_memory, which torch skips without CUDA), not its --no-accel
    branch;
  - maps a CUDA device (an int such as single_gpu's 0, "cuda...") to the CPU in
    Tensor.to, Module.to and the device= of randperm, arange, randint, zeros;
  - accepts numpy 2's np.array(..., copy=None) under numpy 1 (as copy=False);
  - before torch 2, computes a dense @ sparse COO product (gcn's
    normalization, which torch 1.13 has no kernel for) as (B^T @ A^T)^T.
"""
import runpy
import sys
import types

import numpy as np
import torch


def cpu(device):
    if isinstance(device, int) or str(device).startswith("cuda"):
        return "cpu"
    return device


def main():
    np_array = np.array

    def array(*args, **kwargs):
        if "copy" in kwargs and kwargs["copy"] is None:
            kwargs["copy"] = False
        return np_array(*args, **kwargs)

    if int(np.__version__.split(".")[0]) < 2:
        np.array = array

    tensor_to, module_to = torch.Tensor.to, torch.nn.Module.to

    def tensor_on_cpu(self, *args, **kwargs):
        if args:
            args = (cpu(args[0]),) + args[1:]
        if "device" in kwargs:
            kwargs["device"] = cpu(kwargs["device"])
        return tensor_to(self, *args, **kwargs)

    def module_on_cpu(self, *args, **kwargs):
        if args:
            args = (cpu(args[0]),) + args[1:]
        if "device" in kwargs:
            kwargs["device"] = cpu(kwargs["device"])
        return module_to(self, *args, **kwargs)

    torch.Tensor.to, torch.nn.Module.to = tensor_on_cpu, module_on_cpu
    for name in ("randperm", "arange", "randint", "zeros"):
        def on_cpu(*args, _f=getattr(torch, name), **kwargs):
            if "device" in kwargs:
                kwargs["device"] = cpu(kwargs["device"])
            return _f(*args, **kwargs)
        setattr(torch, name, on_cpu)

    if int(torch.__version__.split(".")[0]) < 2:
        matmul = torch.Tensor.__matmul__

        def dense_at_sparse(self, other):
            if self.layout == torch.strided and getattr(other, "layout", None) == torch.sparse_coo:
                return matmul(other.t(), self.t()).t()
            return matmul(self, other)

        torch.Tensor.__matmul__ = dense_at_sparse

    if not hasattr(torch, "accelerator"):
        torch.accelerator = types.SimpleNamespace(
            is_available=lambda: True, current_accelerator=lambda: torch.device("cpu"))

    sys.argv = sys.argv[1:]
    if not sys.argv:
        sys.exit(__doc__)
    if sys.argv[0] == "-c":  # run.sh's `$PYTHON -c ...` (env.txt)
        exec(sys.argv[1], {"__name__": "__main__"})
        return
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
