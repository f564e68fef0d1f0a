#!/usr/bin/env python3
"""Rewrites a torch.profiler (Kineto) trace of today's PyTorch in the spelling
PyTorch 1.8 and 1.9 wrote, for the reader's test of those traces:

  categories   kernel -> Kernel, gpu_memcpy -> Memcpy, gpu_memset -> Memset,
               cuda_runtime -> Runtime, cuda_driver -> Driver, cpu_op -> Operator
  pid / tid    strings: GPU events "stream 7", host events "24610"
  devices      "computeProperties" with major / minor / multiProcessorCount /
               maxThreadsPerMultiProcessor instead of "deviceProperties" with
               computeMajor / computeMinor / numSms / maxThreadsPerMultiprocessor
  timestamps   no baseTimeNanoseconds (1.9's were microseconds since the
               epoch; the values are kept, so that times compare exactly)

With --array, writes the events alone as a JSON array (the Chrome trace
format's other form).

    to_legacy_kineto.py IN.json OUT.json [--array]
"""
import json
import sys

CATEGORIES = {"kernel": "Kernel", "gpu_memcpy": "Memcpy", "gpu_memset": "Memset",
              "cuda_runtime": "Runtime", "cuda_driver": "Driver", "cpu_op": "Operator"}
DEVICE_KEYS = {"computeMajor": "major", "computeMinor": "minor", "numSms": "multiProcessorCount",
               "maxThreadsPerMultiprocessor": "maxThreadsPerMultiProcessor"}
GPU_CATEGORIES = {"Kernel", "Memcpy", "Memset"}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    array = "--array" in sys.argv[3:]
    with open(src) as f:
        trace = json.load(f)
    trace.pop("baseTimeNanoseconds", None)
    events = []
    for e in trace["traceEvents"]:
        e = dict(e)
        if "cat" in e:
            e["cat"] = CATEGORIES.get(e["cat"], e["cat"])
        if e.get("cat") in GPU_CATEGORIES and isinstance(e.get("tid"), int):
            e["tid"] = f"stream {e['tid']}"
        elif isinstance(e.get("tid"), int):
            e["tid"] = str(e["tid"])
        events.append(e)
    if "deviceProperties" in trace:
        trace["computeProperties"] = [{DEVICE_KEYS.get(k, k): v for k, v in d.items()}
                                      for d in trace.pop("deviceProperties")]
    trace["traceEvents"] = events
    with open(dst, "w") as f:
        json.dump(events if array else trace, f)


if __name__ == "__main__":
    main()
