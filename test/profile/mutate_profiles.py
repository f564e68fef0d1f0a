#!/usr/bin/env python3
"""Damages real profiles at random (a fixed seed, so a failure repeats) and
runs `cuda-advisor --profile` on each: every damaged file must give exit code
0, 1 or 2 (findings or a clear error), never a crash or a hang.

    mutate_profiles.py CUDA_ADVISOR WORKDIR SEED COUNT FILE...
"""
import os
import random
import re
import subprocess
import sys


def mutate(data, rng):
    kind = rng.choice(["truncate", "bytes", "lines", "duplicate", "numbers"])
    if kind == "truncate":
        return kind, data[:rng.randrange(len(data))]
    if kind == "bytes":
        d = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            d[rng.randrange(len(d))] = rng.choice(b'{}[]",:0123456789-.e \nxyz\\')
        return kind, bytes(d)
    lines = data.split(b"\n")
    if kind == "lines":
        for _ in range(rng.randint(1, 10)):
            if len(lines) > 1:
                del lines[rng.randrange(len(lines))]
        return kind, b"\n".join(lines)
    if kind == "duplicate":
        lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
        return kind, b"\n".join(lines)
    # Numbers out of every range a field has: 0, -1, 2^32, 2^64+, 1e308.
    text = data.decode("latin1")
    text = re.sub(r"\d+", lambda m: rng.choice(["0", "-1", "4294967296", "99999999999999999999",
                                                 "1e308"]) if rng.random() < 0.05 else m.group(0),
                  text)
    return kind, text.encode("latin1")


def main():
    tool, work, seed, count, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    failures = 0
    for n in range(count):
        src = files[n % len(files)]
        kind, data = mutate(open(src, "rb").read(), rng)
        path = os.path.join(work, f"mutant{n}{os.path.splitext(src)[1]}")
        with open(path, "wb") as f:
            f.write(data)
        try:
            r = subprocess.run([tool, "--profile", path, "--format", "json"], capture_output=True,
                               timeout=60)
            rc = r.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        if rc not in (0, 1, 2):
            failures += 1
            print(f"FAIL: {path} ({kind} of {os.path.basename(src)}): exit {rc}")
        else:
            os.remove(path)
    print(f"mutants: {count}, failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
