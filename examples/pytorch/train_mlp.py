#!/usr/bin/env python3
"""A small training loop with the performance thieves that real PyTorch code
has, for recordings that look like users' programs (more kernels, a backward
pass, an optimizer) rather than one copy loop.

bad (default):
    batches sliced from a CPU tensor and copied with .cuda() (pageable memory,
    as with a DataLoader without pin_memory=True), and loss.item() on every
    step (the host waits for the GPU each step);
fixed (--fixed):
    the CPU tensor is pinned and batches are copied with non_blocking=True;
    the loss is summed on the GPU and read once at the end.

Prints `bad: 12.345 ms` (or `fixed: ...`) for each timed run of the loop.
`--torch-profiler TRACE.json` exports a Chrome trace of the timed runs;
`--tensorboard-dir DIR` profiles them with with_stack=True and writes what
torch.profiler.tensorboard_trace_handler(DIR, use_gzip=True) writes (a
`.pt.trace.json.gz`).
"""
import argparse
import statistics
import sys
import time

import torch
import torch.nn.functional as F


def make_model(width):
    return torch.nn.Sequential(
        torch.nn.Linear(1024, width), torch.nn.ReLU(),
        torch.nn.Linear(width, width), torch.nn.ReLU(),
        torch.nn.Linear(width, 10)).cuda()


def train(model, opt, inputs, labels, steps, batch, fixed):
    total = torch.zeros((), device="cuda") if fixed else 0.0
    for step in range(steps):
        lo, hi = step * batch, (step + 1) * batch
        if fixed:
            xb = inputs[lo:hi].cuda(non_blocking=True)
            yb = labels[lo:hi].cuda(non_blocking=True)
        else:
            xb = inputs[lo:hi].cuda()
            yb = labels[lo:hi].cuda()
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if fixed:
            total += loss.detach()
        else:
            total += loss.item()
    return float(total)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixed", action="store_true", help="run the fixed variant")
    parser.add_argument("--steps", type=int, default=50, help="training steps per run (50)")
    parser.add_argument("--batch", type=int, default=512, help="batch size (512)")
    parser.add_argument("--width", type=int, default=2048, help="hidden layer width (2048)")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs in this process (1)")
    parser.add_argument("--torch-profiler", metavar="TRACE.json",
                        help="run the timed loops under torch.profiler and export a Chrome trace")
    parser.add_argument("--tensorboard-dir", metavar="DIR",
                        help="profile the timed loops with with_stack=True into DIR "
                             "(tensorboard_trace_handler, gzip)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 2

    torch.manual_seed(0)
    name = "fixed" if args.fixed else "bad"
    model = make_model(args.width)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    inputs = torch.randn(args.steps * args.batch, 1024)
    labels = torch.randint(0, 10, (args.steps * args.batch,))
    if args.fixed:
        inputs, labels = inputs.pin_memory(), labels.pin_memory()
    train(model, opt, inputs, labels, 2, args.batch, args.fixed)  # Warm-up.
    torch.cuda.synchronize()

    def timed_runs():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            train(model, opt, inputs, labels, args.steps, args.batch, args.fixed)
            torch.cuda.synchronize()
            times.append((time.perf_counter() - start) * 1000.0)
            print(f"{name}: {times[-1]:.3f} ms", flush=True)
        return times

    from torch.profiler import ProfilerActivity, profile, tensorboard_trace_handler
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    if args.torch_profiler:
        with profile(activities=activities) as prof:
            times = timed_runs()
        prof.export_chrome_trace(args.torch_profiler)
    elif args.tensorboard_dir:
        with profile(activities=activities, with_stack=True,
                     on_trace_ready=tensorboard_trace_handler(args.tensorboard_dir,
                                                              use_gzip=True)):
            times = timed_runs()
    else:
        times = timed_runs()
    if args.repeat > 1:
        print(f"{name} median: {statistics.median(times):.3f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
