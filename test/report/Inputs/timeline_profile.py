#!/usr/bin/env python3
"""timeline_profile.py [options] > run.jsonl: a synthetic cuda-advisor profile.

Not a recording: a loop of known shape, for the timeline tests (where the
expected rows, bars and gaps must follow from the input) and for the size
benchmark at 10^5 records (bench/timeline-size.sh). The tests of findings use
the real recordings under test/Inputs/profiles.

One process, one host thread, one GPU. A cudaMalloc first, then per iteration
(every --period-us): cudaMemcpyAsync (timeline_app.py:10) whose HtoD copy runs
on stream 13, then cudaLaunchKernel (timeline_app.py:11) whose kernel runs on
stream 7 after the copy; a cudaDeviceSynchronize (line 14) after the last.
Four records per iteration, plus two, plus --extra-streams kernels per
iteration on streams 20, 21, ... (launched by the same call).
"""
import argparse
import json
import sys

T0 = 1_700_000_000_000_000_000
US = 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--period-us", type=float, default=1000)
    ap.add_argument("--kernel-us", type=float, default=300)
    ap.add_argument("--copy-us", type=float, default=100)
    ap.add_argument("--lead-us", type=float, default=2000, help="host time before the loop")
    ap.add_argument("--extra-streams", type=int, default=0)
    a = ap.parse_args()

    out = sys.stdout
    lines = []

    def rec(**kw):
        lines.append(json.dumps(kw, separators=(",", ":")))

    rec(type="device", source="driver", id=0, name="Synthetic GPU", cc=[9, 0], sms=132,
        max_threads_per_sm=2048, max_warps_per_sm=64, max_blocks_per_sm=32,
        max_threads_per_block=1024, warp_size=32, registers_per_sm=65536,
        registers_per_block=65536, shared_mem_per_sm=233472, shared_mem_per_block=49152)
    rec(type="context", id=1, device=0, null_stream=7)
    rec(type="stack", id=0, frames=[])
    for sid, line in ((1, 10), (2, 11), (3, 14), (4, 5)):
        rec(type="pystack", id=sid, user=0, files=["timeline_app.py"], lines=[line],
            functions=["main"])
    corr = 1
    thread = 4242

    def api(name, cbid, start, end, pystack):
        nonlocal corr
        c = corr
        corr += 1
        rec(type="api", name=name, cbid=cbid, start=start, end=end, thread=thread,
            correlation=c, ret=0)
        rec(type="callsite", correlation=c, stack=0, pystack=pystack)
        return c

    api("cudaMalloc", 20, T0 + 1000 * US, T0 + 1500 * US, 4)
    period = int(a.period_us * US)
    kernel = int(a.kernel_us * US)
    copy = int(a.copy_us * US)
    t0 = T0 + int(a.lead_us * US)
    gpu_end = t0
    for i in range(a.iterations):
        t = t0 + i * period
        c = api("cudaMemcpyAsync", 41, t, t + 4 * US, 1)
        rec(type="memcpy", kind="HtoD", src="pinned", dst="device", bytes=1 << 20, device=0,
            context=1, stream=13, start=t + 5 * US, end=t + 5 * US + copy, correlation=c,
            **{"async": True})
        c = api("cudaLaunchKernel", 211, t + 6 * US, t + 9 * US, 2)
        ks = t + 6 * US + copy
        rec(type="kernel", name="_Z4stepPfi", device=0, context=1, stream=7, start=ks,
            end=ks + kernel, correlation=c, grid=[1024, 1, 1], block=[256, 1, 1],
            registers=16, static_shared=0, dynamic_shared=0, local_per_thread=0)
        for s in range(a.extra_streams):
            rec(type="kernel", name="_Z4sidePfi", device=0, context=1, stream=20 + s,
                start=ks, end=ks + kernel // 2, correlation=c, grid=[64, 1, 1],
                block=[256, 1, 1], registers=16, static_shared=0, dynamic_shared=0,
                local_per_thread=0)
        gpu_end = ks + kernel
    api("cudaDeviceSynchronize", 165, gpu_end - kernel // 2, gpu_end + 2 * US, 3)
    end = gpu_end + 500 * US

    header = {"format": "cuda-advisor-profile", "version": 1, "pid": 4711, "ppid": 1,
              "command": ["python3", "timeline_app.py"], "cwd": "/work", "host": "synthetic",
              "start": T0, "collector_version": "0.1.0", "activities": [], "callbacks": True,
              "stacks": True, "stack_depth": 16}
    out.write(json.dumps(header, separators=(",", ":")) + "\n")
    for line in lines:
        out.write(line + "\n")
    out.write(json.dumps({"type": "end", "reason": "exit", "exit_code": 0, "time": end,
                          "records": len(lines) + 1, "dropped": 0, "failed_calls": 0},
                         separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
