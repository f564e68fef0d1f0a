#!/usr/bin/env python3
"""The seed's PyTorch loop: a loop-invariant tensor copied to the GPU and back
on every iteration.

bad (default), as in the seed:
    for _ in range(100):
        temp = cpu_data.cuda()          # H2D of 1M floats from pageable memory
        result = temp * 2               # one element-wise kernel
        result_cpu = result.cpu()       # D2H, synchronizes
fixed (--fixed): the data is uploaded once and kept on the GPU; only the final
result comes back.

Prints `bad: 12.345 ms` (or `fixed: ...`) for each timed loop, like the C++
examples. `--torch-profiler out.json` runs the timed loops under
torch.profiler (CPU and CUDA activities) and exports its Chrome trace;
`--tensorboard-dir DIR` profiles them with with_stack=True and writes what
torch.profiler.tensorboard_trace_handler(DIR, use_gzip=True) writes.
"""
import argparse
import statistics
import sys
import time

import torch


def bad_loop(cpu_data, iterations):
    result_cpu = None
    for _ in range(iterations):
        temp = cpu_data.cuda()
        result = temp * 2
        result_cpu = result.cpu()
    return result_cpu


def fixed_loop(cpu_data, iterations):
    gpu_data = cpu_data.cuda()
    result = None
    for _ in range(iterations):
        result = gpu_data * 2
    return result.cpu()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixed", action="store_true", help="run the fixed variant")
    parser.add_argument("--size", type=int, default=1_000_000, help="tensor elements (1M)")
    parser.add_argument("--iterations", type=int, default=100, help="loop iterations (100)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time the loop this many times in this process (1)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed runs of the loop body first (1; 0 is the seed exactly)")
    parser.add_argument("--torch-profiler", metavar="TRACE.json",
                        help="run the timed loops under torch.profiler and export a Chrome trace")
    parser.add_argument("--tensorboard-dir", metavar="DIR",
                        help="profile the timed loops with with_stack=True into DIR "
                             "(tensorboard_trace_handler, gzip)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2

    name = "fixed" if args.fixed else "bad"
    loop = fixed_loop if args.fixed else bad_loop
    cpu_data = torch.rand(args.size)
    gpu_data = cpu_data.cuda()  # As in the seed: initializes CUDA before the timer.
    for _ in range(args.warmup):
        loop(cpu_data, 1)
    torch.cuda.synchronize()

    def timed_loops():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = loop(cpu_data, args.iterations)
            torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1000.0)
            print(f"{name}: {times[-1]:.3f} ms", flush=True)
            if not torch.equal(result, cpu_data * 2):
                print("error: wrong result", file=sys.stderr)
                sys.exit(1)
        return times

    if args.torch_profiler:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            times = timed_loops()
        prof.export_chrome_trace(args.torch_profiler)
    elif args.tensorboard_dir:
        from torch.profiler import ProfilerActivity, profile, tensorboard_trace_handler
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], with_stack=True,
                     on_trace_ready=tensorboard_trace_handler(args.tensorboard_dir,
                                                              use_gzip=True)):
            times = timed_loops()
    else:
        times = timed_loops()
    if args.repeat > 1:
        print(f"{name} median: {statistics.median(times):.3f} ms", flush=True)
    del gpu_data
    return 0


if __name__ == "__main__":
    sys.exit(main())
