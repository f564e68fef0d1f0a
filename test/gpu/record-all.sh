#!/usr/bin/env bash
# Makes the real recordings that test/Inputs/profiles holds (run on the GPU
# machine after test/gpu/run.sh has built BUILD_DIR):
#   - `cuda-advisor record` of every example's bad and fixed variant and of the
#     seed's PyTorch loop (bad and fixed);
#   - torch.profiler Chrome traces of the same PyTorch loop;
#   - Nsight Compute CSVs (--page raw, --clock-control none) of the transpose
#     examples, both variants;
#   - the examples' own timings without any profiler (5 processes each);
#   - the occupancy reference table (test/gpu/occupancy_reference.cu);
#   - env.txt: GPU, driver, CUDA, ncu and torch versions;
#   - bin/: the example programs that were recorded (their build-ids are in
#     the profiles' module records), for symbolizing the recorded stacks.
# EXAMPLES_ONLY=1 does only the examples' recordings, timings and programs.
#
#   test/gpu/record-all.sh BUILD_DIR OUT_DIR [TIMING_PROCESSES]
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
OUT=$2
RUNS=${3:-5}
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
PY=${PYTHON:-python3}
CA=$BUILD/bin/cuda-advisor
EX=$BUILD/examples
SEED=$ROOT/examples/pytorch/seed_loop.py
EXAMPLES="access-shared-bank-conflict access-uncoalesced kernel-double-promotion kernel-fusion
  launch-block-size launch-grid-truncation sync-in-loop sync-redundant transfer-in-loop
  transfer-pageable-async"
mkdir -p "$OUT/logs"
cd "$OUT" || exit 1

step() { echo "== $*"; }

step "environment"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -2
  ncu --version | tail -1
  $PY -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  uname -r
  ldd --version | head -1
} >env.txt 2>&1
cat env.txt

step "cuda-advisor record: examples"
for e in $EXAMPLES; do
  for v in bad fixed; do
    timeout -k 5 60 "$CA" record -f -o "$e.$v.jsonl" -- "$EX/$e" "$v" >"logs/$e.$v.log" 2>&1
    echo "$e $v: rc=$? $(grep -E '^(bad|fixed): ' "logs/$e.$v.log" | tr '\n' ' ')"
  done
done

mkdir -p bin
for e in $EXAMPLES; do cp "$EX/$e" bin/; done

if [ -z "${EXAMPLES_ONLY:-}" ]; then
step "cuda-advisor record: PyTorch seed loop"
timeout -k 5 120 "$CA" record -f -o seed_loop.bad.jsonl -- "$PY" "$SEED" >logs/seed_loop.bad.log 2>&1
echo "seed_loop bad: rc=$? $(grep -E '^bad: ' logs/seed_loop.bad.log)"
timeout -k 5 120 "$CA" record -f -o seed_loop.fixed.jsonl -- "$PY" "$SEED" --fixed >logs/seed_loop.fixed.log 2>&1
echo "seed_loop fixed: rc=$? $(grep -E '^fixed: ' logs/seed_loop.fixed.log)"

step "torch.profiler: PyTorch seed loop"
timeout -k 5 120 "$PY" "$SEED" --torch-profiler seed_loop.bad.torch-trace.json >logs/seed_loop.bad.torch.log 2>&1
echo "torch.profiler bad: rc=$? $(grep -E '^bad: ' logs/seed_loop.bad.torch.log)"
timeout -k 5 120 "$PY" "$SEED" --fixed --torch-profiler seed_loop.fixed.torch-trace.json >logs/seed_loop.fixed.torch.log 2>&1
echo "torch.profiler fixed: rc=$? $(grep -E '^fixed: ' logs/seed_loop.fixed.torch.log)"

step "Nsight Compute: transpose examples"
METRICS=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
METRICS=$METRICS,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
METRICS=$METRICS,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
METRICS=$METRICS,launch__waves_per_multiprocessor
METRICS=$METRICS,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct
METRICS=$METRICS,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct
METRICS=$METRICS,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct
METRICS=$METRICS,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio
METRICS=$METRICS,l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio
METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
METRICS=$METRICS,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
METRICS=$METRICS,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
METRICS=$METRICS,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
METRICS=$METRICS,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
METRICS=$METRICS,dram__bytes_read.sum,dram__bytes_write.sum
echo "$METRICS" >ncu-metrics.txt
for e in access-uncoalesced access-shared-bank-conflict; do
  for v in bad fixed; do
    # Skip the warm-up launch, profile the first timed one.
    timeout -k 5 120 ncu --csv --page raw --clock-control none --metrics "$METRICS" \
      -k regex:transpose --launch-skip 1 --launch-count 1 --log-file "$e.$v.ncu.csv" \
      "$EX/$e" "$v" >"logs/$e.$v.ncu.log" 2>&1
    echo "ncu $e $v: rc=$? $(wc -l <"$e.$v.ncu.csv") lines"
  done
done

fi # EXAMPLES_ONLY

step "timings without a profiler ($RUNS processes per example, interleaved)"
: >timings.txt
for r in $(seq "$RUNS"); do
  for e in $EXAMPLES; do
    timeout -k 5 60 "$EX/$e" 2>&1 | grep -E '^(bad|fixed): [0-9.]+ ms$' | sed "s|^|$e $r |" >>timings.txt
  done
  [ -n "${EXAMPLES_ONLY:-}" ] && continue
  for v in bad fixed; do
    flag=""
    [ "$v" = fixed ] && flag=--fixed
    timeout -k 5 120 "$PY" "$SEED" $flag 2>&1 | grep -E '^(bad|fixed): [0-9.]+ ms$' |
      sed "s|^|pytorch-seed-loop $r |" >>timings.txt
  done
done
$PY "$ROOT/test/gpu/timings_to_json.py" timings.txt env.txt >timings.json && cat timings.json

[ -n "${EXAMPLES_ONLY:-}" ] && exit 0
step "occupancy reference"
nvcc -O3 -arch=sm_90 -o occupancy_reference "$ROOT/test/gpu/occupancy_reference.cu" &&
  ./occupancy_reference >occupancy-h200.csv && rm -f occupancy_reference
echo "occupancy: $(wc -l <occupancy-h200.csv) lines"
ls -la "$OUT"
