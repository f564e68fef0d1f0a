#!/usr/bin/env bash
# Where the recorder's slowdown of host-bound PyTorch loops comes from
# (bench/collector-overhead.host-bound.h200.txt). On the GPU machine, from the
# repository root, with $OUT set to a directory for the build logs:
#   OUT=/tmp bash bench/collector/host-bound-breakdown.sh
set -u
cd "$(dirname "$0")/../.."
B=$PWD/build-gpu
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
[ -x $B/bin/cuda-advisor ] || { cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUDA_ADVISOR_ENABLE_CLANG=OFF \
  -DCMAKE_CUDA_COMPILER=$(command -v nvcc) >$OUT/cmake.log 2>&1 && ninja -C $B >$OUT/build.log 2>&1; } || { tail -30 $OUT/build.log; exit 1; }
echo "built $(date +%T)"
CA=$B/bin/cuda-advisor
for p in per_sample small_copies; do
  for r in 1 2; do
  for v in none record skip-runtime skip-kernels skip-callbacks skip-all nostacks nopython; do
    cmd=(python3 examples/pytorch/$p.py --repeat 3)
    case $v in
      none) out=$("${cmd[@]}" 2>&1) ;;
      record) out=$($CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
      skip-runtime) out=$(CUDA_ADVISOR_SKIP=runtime $CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
      skip-kernels) out=$(CUDA_ADVISOR_SKIP=concurrent_kernel,memcpy,memcpy2,memset,synchronization $CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
      skip-callbacks) out=$(CUDA_ADVISOR_SKIP=callbacks $CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
      skip-all) out=$(CUDA_ADVISOR_SKIP=callbacks,runtime,concurrent_kernel,memcpy,memcpy2,memset,synchronization,overhead,name,device,context $CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
      nostacks) out=$(CUDA_ADVISOR_STACKS=0 $CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
      nopython) out=$(CUDA_ADVISOR_PYTHON_STACKS=0 $CA record -f -o /tmp/x.jsonl -- "${cmd[@]}" 2>&1) ;;
    esac
    echo "$p $v r$r $(echo "$out" | grep -E 'median' | tail -1) $(echo "$out" | grep -iE 'error|warning' | head -2 | tr '\n' ' ')"
  done; done
done
date +%T
