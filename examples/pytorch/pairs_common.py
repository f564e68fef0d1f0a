"""The harness of the bad/fixed pairs in this directory (tf32_matmul.py,
per_sample.py, elementwise_chain.py, pageable_loading.py, item_per_step.py,
small_copies.py): argument parsing, warm-up, timing and the profilers, so
that each example holds only its two variants.

Every example takes:
    --fixed               run the fixed variant (default: the bad one)
    --iterations N        iterations of the timed loop (each example's default)
    --repeat R            time the loop R times in this process, print the median
    --torch-profiler T    run the timed loops under torch.profiler (CPU and CUDA
                          activities, with_stack=True, record_shapes=True) and
                          export its Chrome trace to T (T.gz: gzip it)
and prints `bad: 12.345 ms` (or `fixed: ...`) for each timed loop: the time
from before the loop to after torch.cuda.synchronize(), as the C++ examples do.
"""
import argparse
import gzip
import os
import shutil
import statistics
import sys
import tempfile
import time

import torch


def run(doc, setup, bad, fixed, iterations, check=None):
    """setup(args) -> state; bad(state, n) / fixed(state, n) run n iterations
    and return a result; check(state, result) -> bool (optional)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--fixed", action="store_true", help="run the fixed variant")
    parser.add_argument("--iterations", type=int, default=iterations,
                        help=f"iterations of the timed loop ({iterations})")
    parser.add_argument("--repeat", type=int, default=1, help="timed loops in this process (1)")
    parser.add_argument("--torch-profiler", metavar="TRACE.json[.gz]",
                        help="profile the timed loops with torch.profiler (with_stack=True, "
                             "record_shapes=True) and export the Chrome trace")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    name = "fixed" if args.fixed else "bad"
    loop = fixed if args.fixed else bad
    state = setup(args)
    loop(state, min(2, args.iterations))  # Warm-up: cuBLAS handles, allocator, kernels.
    torch.cuda.synchronize()

    def timed_loops():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = loop(state, args.iterations)
            torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1000.0)
            print(f"{name}: {times[-1]:.3f} ms", flush=True)
            if check is not None and not check(state, result):
                print("error: wrong result", file=sys.stderr)
                sys.exit(1)
        return times

    if args.torch_profiler:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                     with_stack=True, record_shapes=True) as prof:
            times = timed_loops()
        path = args.torch_profiler
        if path.endswith(".gz"):
            with tempfile.TemporaryDirectory() as tmp:
                plain = os.path.join(tmp, "trace.json")
                prof.export_chrome_trace(plain)
                with open(plain, "rb") as src, gzip.open(path, "wb") as dst:
                    shutil.copyfileobj(src, dst)
        else:
            prof.export_chrome_trace(path)
    else:
        times = timed_loops()
    if args.repeat > 1:
        print(f"{name} median: {statistics.median(times):.3f} ms", flush=True)
    return 0
