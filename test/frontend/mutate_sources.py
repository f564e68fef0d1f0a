#!/usr/bin/env python3
"""Damages CUDA sources at random (a fixed seed) and analyzes each: lines and
tokens deleted, lines swapped. Clang's error recovery leaves partial ASTs, and
every check must cope: exit code 0, 1 or 2, never a crash or a hang.

    mutate_sources.py CUDA_ADVISOR WORKDIR SEED COUNT FILE...
"""
import os
import random
import subprocess
import sys


def main():
    tool, work, seed, count, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    failures = 0
    for n in range(count):
        src = files[n % len(files)]
        lines = open(src).read().split("\n")
        kind = rng.choice(["lines", "tokens", "swap"])
        if kind == "lines":
            for _ in range(rng.randint(1, 6)):
                if len(lines) > 2:
                    del lines[rng.randrange(len(lines))]
        elif kind == "tokens":
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(lines))
                words = lines[i].split(" ")
                if len(words) > 1:
                    del words[rng.randrange(len(words))]
                    lines[i] = " ".join(words)
        else:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        path = os.path.join(work, f"mutant{n}.cu")
        with open(path, "w") as f:
            f.write("\n".join(lines))
        try:
            rc = subprocess.run([tool, "--cuda-path=bundled", path, "--", "-x", "cuda", "-std=c++17"],
                                capture_output=True, timeout=120).returncode
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
