#!/usr/bin/env python3
"""The seed's PyTorch loop as a multi-GPU job: one process per GPU with
torch.distributed (NCCL), each running the seed's loop on its own GPU and
all-reducing the result every iteration.

    python3 examples/pytorch/ddp_seed_loop.py --nprocs 2            # 2 GPUs, NCCL
    cuda-advisor record -o ddp.jsonl -- python3 examples/pytorch/ddp_seed_loop.py --nprocs 2

Each process is started by this script (torch.multiprocessing spawn), so under
`cuda-advisor record` every rank writes its own profile (ddp.jsonl for the
first process to start, ddp.<pid>.jsonl for the others).

With one GPU, `--backend gloo --nprocs 2` runs two ranks on GPU 0 (NCCL
refuses two ranks on one device). NVLink multicast stays off: the machine's
NCCL_NVLS_ENABLE=0 (and the other multicast-off variables) are kept, and set
here if missing.
"""
import argparse
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def run(rank, args):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    dist.init_process_group(args.backend, rank=rank, world_size=args.nprocs)
    device = rank % torch.cuda.device_count()
    torch.cuda.set_device(device)
    cpu_data = torch.rand(args.size)
    # Warm-up: CUDA context, the communicator, the kernels.
    warm = cpu_data.cuda() * 2
    dist.all_reduce(warm)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(args.iterations):
        temp = cpu_data.cuda()       # H2D of pageable memory, as in the seed
        result = temp * 2
        dist.all_reduce(result)      # NCCL all-reduce across the ranks
        result_cpu = result.cpu()    # D2H, synchronizes
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1e3
    print(f"rank {rank} (GPU {device}, pid {os.getpid()}): bad: {ms:.3f} ms", flush=True)
    dist.destroy_process_group()
    return result_cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nprocs", type=int, default=torch.cuda.device_count())
    parser.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--port", type=int, default=29511)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2
    for var, value in (("NCCL_NVLS_ENABLE", "0"), ("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1"),
                       ("NVSHMEM_DISABLE_NVLS", "1")):
        os.environ.setdefault(var, value)
    if args.backend == "nccl" and args.nprocs > torch.cuda.device_count():
        print(f"error: NCCL needs one GPU per rank ({args.nprocs} ranks, "
              f"{torch.cuda.device_count()} GPUs); use --backend gloo", file=sys.stderr)
        return 2
    mp.spawn(run, args=(args,), nprocs=args.nprocs, join=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
