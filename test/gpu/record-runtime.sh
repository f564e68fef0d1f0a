#!/usr/bin/env bash
# Recordings and timings of the runtime rules' C++ examples
# (examples/runtime/*.cu: runtime-low-copy-overlap, -low-kernel-concurrency,
# -low-copy-throughput). Run on the GPU machine after building cuda-advisor
# with the examples (-DCUDA_ADVISOR_ENABLE_CLANG=OFF -DCUDA_ADVISOR_BUILD_EXAMPLES=ON,
# as test/gpu/run.sh does):
#
#   test/gpu/record-runtime.sh BUILD_DIR OUT_DIR [PROCESSES]
#
# Writes into OUT_DIR:
#   runtime-<rule>.bad.jsonl, .fixed.jsonl   cuda-advisor record of each variant
#   bin/runtime-<rule>                       the programs that ran (for symbolizing)
#   timings-runtime.txt                      "<example> <variant> <ms>" lines, one per
#                                            process, PROCESSES of each, alternating,
#                                            no profiler
#   env.txt, logs/
set -u -o pipefail

BUILD=$(cd "$1" && pwd)
OUT=$2
RUNS=${3:-5}
export PATH=/usr/local/cuda/bin:$PATH
CA=$BUILD/bin/cuda-advisor
EX=$BUILD/examples
EXAMPLES="runtime-low-copy-overlap runtime-low-kernel-concurrency runtime-low-copy-throughput"
mkdir -p "$OUT/logs" "$OUT/bin"
cd "$OUT" || exit 1
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -2
  uname -r
} >env.txt 2>&1
for e in $EXAMPLES; do
  cp "$EX/$e" bin/
  for v in bad fixed; do
    timeout -k 5 120 "$CA" record -f -o "$e.$v.jsonl" -- "$EX/$e" "$v" >"logs/$e.$v.log" 2>&1
    echo "$e $v: rc=$? $(grep -E '^(bad|fixed): ' "logs/$e.$v.log" | tr '\n' ' ')"
  done
done
: >timings-runtime.txt
for r in $(seq 1 "$RUNS"); do
  for e in $EXAMPLES; do
    if [ $((r % 2)) -eq 1 ]; then order="bad fixed"; else order="fixed bad"; fi
    for v in $order; do
      ms=$("$EX/$e" "$v" | sed -n "s/^$v: \([0-9.]*\) ms$/\1/p")
      echo "$e $v $ms" >>timings-runtime.txt
    done
  done
done
cat timings-runtime.txt
