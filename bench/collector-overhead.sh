#!/usr/bin/env bash
# What `cuda-advisor record` costs the program it profiles (issue 4: at most
# 5%, and less than torch.profiler). Run on the GPU machine:
#
#   bench/collector-overhead.sh BUILD_DIR [ROUNDS] [RESULTS.csv]
#
# Workloads:
#   pytorch-seed-loop   examples/pytorch/seed_loop.py --repeat 3: the seed's
#                       100 x (x.cuda(), * 2, .cpu()) loop on 1M floats, timed
#                       three times in each process (the median is the
#                       process's value)
#   pytorch-train-mlp   examples/pytorch/train_mlp.py --repeat 3: 50 training
#                       steps of a small MLP (forward, backward, SGD; cuBLAS
#                       GEMMs, about 30 launches a step), the median of three
#   pytorch-train-large the same with --batch 4096 --width 4096: a training step
#                       whose GEMMs keep the GPU busy (about 0.4 TFLOP a step)
#   sync-in-loop        examples/sync-in-loop bad: 1000 x (launch, sync), the
#                       worst case for per-call costs
#   transfer-in-loop    examples/transfer-in-loop bad: 100 x (H2D, kernel, D2H)
# Variants: none (no profiler), record (cuda-advisor record; for Python
# workloads with the Python call sites), record-nopython (PyTorch only: record
# without Python call sites, CUDA_ADVISOR_PYTHON_STACKS=0), record-nostacks
# (C++ only: record --no-stacks), torch-profiler (PyTorch only: torch.profiler
# with CPU and CUDA activities), torch-profiler-stack (PyTorch only: the same
# with with_stack=True, written by tensorboard_trace_handler); and, to see
# where the collector's cost is, record-nokernels, record-noruntime and
# record-nocallbacks (CUDA_ADVISOR_SKIP: record without the kernel activity,
# the runtime API activity, or the API callbacks; run only when VARIANTS
# names them). WORKLOADS="a b" runs only those workloads, VARIANTS="a b" only
# those variants.
#
# Every round runs one process of each (workload, variant), in an order that
# rotates from round to round, so that drift and the seed loop's bimodal
# process-to-process speed (shared/NOTES.md) hit all variants alike. The
# table gives, per workload and variant, the median and the minimum over the
# processes of the in-process loop time and of the process wall time, and
# their ratios to "none".
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:?usage: $0 BUILD_DIR [ROUNDS] [RESULTS.csv]}" && pwd)
ROUNDS=${2:-6}
RESULTS=${3:-collector-overhead.csv}
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
PY=${PYTHON:-python3}
CA=$BUILD/bin/cuda-advisor
SEED=$ROOT/examples/pytorch/seed_loop.py
TMP=$(mktemp -d "${TMPDIR:-/tmp}/collector-overhead.XXXXXX")

now_ns() { date +%s%N; }

# run WORKLOAD VARIANT ROUND: one process; appends a CSV row.
run() {
  local workload=$1 variant=$2 round=$3 prog=() pre=() out="$TMP/out.txt"
  case $workload in
  pytorch-seed-loop) prog=("$PY" "$SEED" --repeat 3) ;;
  pytorch-train-mlp) prog=("$PY" "$ROOT/examples/pytorch/train_mlp.py" --repeat 3) ;;
  pytorch-train-large) prog=("$PY" "$ROOT/examples/pytorch/train_mlp.py" --repeat 3 --batch 4096 --width 4096) ;;
  *) prog=("$BUILD/examples/$workload" bad) ;;
  esac
  case $variant in
  none) ;;
  record) pre=("$CA" record -f -o "$TMP/profile.jsonl" --) ;;
  record-nopython) pre=(env CUDA_ADVISOR_PYTHON_STACKS=0 "$CA" record -f -o "$TMP/profile.jsonl" --) ;;
  record-nostacks) pre=("$CA" record --no-stacks -f -o "$TMP/profile.jsonl" --) ;;
  # Where the cost is (CUDA_ADVISOR_SKIP, measurement only: such a profile
  # lacks what the rules need): without kernel records, without the runtime
  # API's activity records, without API callbacks (so without call sites).
  record-nokernels) pre=(env CUDA_ADVISOR_SKIP=concurrent_kernel "$CA" record -f -o "$TMP/profile.jsonl" --) ;;
  record-noruntime) pre=(env CUDA_ADVISOR_SKIP=runtime "$CA" record -f -o "$TMP/profile.jsonl" --) ;;
  record-nocallbacks) pre=(env CUDA_ADVISOR_SKIP=callbacks "$CA" record -f -o "$TMP/profile.jsonl" --) ;;
  torch-profiler) prog+=(--torch-profiler "$TMP/trace.json") ;;
  torch-profiler-stack) rm -rf "$TMP/tb"; prog+=(--tensorboard-dir "$TMP/tb") ;;
  esac
  local t0 t1
  t0=$(now_ns)
  timeout -k 5 120 "${pre[@]}" "${prog[@]}" >"$out" 2>&1
  local rc=$?
  t1=$(now_ns)
  # The process's loop time: the median of the "bad: X ms" lines it printed.
  local loop
  loop=$(grep -E '^bad: [0-9.]+ ms$' "$out" | awk '{print $2}' | sort -n |
    awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]}')
  local stack_ns="" callsites="" py_ns=""
  if [ "${variant#record}" != "$variant" ] && [ -f "$TMP/profile.jsonl" ]; then
    local end
    end=$(tail -1 "$TMP/profile.jsonl")
    stack_ns=$(echo "$end" | grep -oE '"stack_capture_ns":[0-9]+' | cut -d: -f2)
    callsites=$(echo "$end" | grep -oE '"callsites":[0-9]+' | cut -d: -f2)
    py_ns=$(echo "$end" | grep -oE '"python_capture_ns":[0-9]+' | cut -d: -f2)
  fi
  rm -f "$TMP/profile.jsonl"
  echo "$workload,$variant,$round,$rc,${loop:-},$(((t1 - t0) / 1000000)),${stack_ns:-},${callsites:-},${py_ns:-}" >>"$RESULTS"
  [ $rc -eq 0 ] || { echo "  $workload/$variant round $round: exit code $rc"; tail -5 "$out"; }
}

echo "workload,variant,round,rc,loop_ms,wall_ms,stack_capture_ns,callsites,python_capture_ns" >"$RESULTS"
JOBS=(
  "pytorch-seed-loop none" "pytorch-seed-loop record" "pytorch-seed-loop record-nopython"
  "pytorch-seed-loop record-nostacks" "pytorch-seed-loop torch-profiler"
  "pytorch-seed-loop torch-profiler-stack"
  "pytorch-train-mlp none" "pytorch-train-mlp record" "pytorch-train-mlp record-nopython"
  "pytorch-train-mlp record-nostacks" "pytorch-train-mlp torch-profiler"
  "pytorch-train-mlp torch-profiler-stack"
  "pytorch-train-large none" "pytorch-train-large record" "pytorch-train-large torch-profiler-stack"
  "sync-in-loop none" "sync-in-loop record" "sync-in-loop record-nostacks"
  "transfer-in-loop none" "transfer-in-loop record" "transfer-in-loop record-nostacks"
)
if [ -n "${VARIANTS:-}" ]; then
  for w in pytorch-seed-loop pytorch-train-mlp pytorch-train-large sync-in-loop transfer-in-loop; do
    for v in record-nokernels record-noruntime record-nocallbacks; do
      JOBS+=("$w $v")
    done
  done
fi
if [ -n "${WORKLOADS:-}" ]; then
  KEPT=()
  for job in "${JOBS[@]}"; do
    case " $WORKLOADS " in *" ${job%% *} "*) KEPT+=("$job") ;; esac
  done
  JOBS=("${KEPT[@]}")
fi
if [ -n "${VARIANTS:-}" ]; then
  KEPT=()
  for job in "${JOBS[@]}"; do
    case " $VARIANTS " in *" ${job##* } "*) KEPT+=("$job") ;; esac
  done
  JOBS=("${KEPT[@]}")
fi
for round in $(seq "$ROUNDS"); do
  n=${#JOBS[@]}
  for i in $(seq 0 $((n - 1))); do
    job=${JOBS[$(((i + round) % n))]}
    run $job "$round"
  done
  echo "round $round of $ROUNDS done"
done

$PY - "$RESULTS" <<'EOF'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["rc"] == "0" and r["loop_ms"]]
by = {}
for r in rows:
    by.setdefault((r["workload"], r["variant"]), []).append(r)
print()
print(f"{'workload':<19} {'variant':<20} {'n':>2} {'loop median':>12} {'ratio':>6} "
      f"{'loop min':>9} {'ratio':>6} {'wall median':>12} {'ratio':>6} {'stacks':>16}")
for workload in dict.fromkeys(w for w, _ in by):
    base = by.get((workload, "none"))
    if not base:
        continue
    bl = statistics.median(float(r["loop_ms"]) for r in base)
    bmin = min(float(r["loop_ms"]) for r in base)
    bw = statistics.median(float(r["wall_ms"]) for r in base)
    for (w, variant), rs in by.items():
        if w != workload:
            continue
        loops = [float(r["loop_ms"]) for r in rs]
        walls = [float(r["wall_ms"]) for r in rs]
        med, lo, wall = statistics.median(loops), min(loops), statistics.median(walls)
        stacks = ""
        calls = [int(r["callsites"]) for r in rs if r["callsites"]]
        ns = [int(r["stack_capture_ns"]) for r in rs if r["stack_capture_ns"]]
        py = [int(r["python_capture_ns"]) for r in rs if r.get("python_capture_ns")]
        if calls and sum(calls):
            stacks = f"{sum(calls) // len(calls)} x {sum(ns) / sum(calls) / 1000:.2f} us"
            if py:
                stacks += f" + py {sum(py) / sum(calls) / 1000:.2f} us"
        print(f"{workload:<19} {variant:<20} {len(rs):>2} {med:>9.3f} ms {med / bl:>6.3f} "
              f"{lo:>6.3f} ms {lo / bmin:>6.3f} {wall / 1000:>10.3f} s {wall / bw:>6.3f} {stacks:>16}")
print()
print("loop: the workload's own timing of its loop (in-process); wall: the whole process,")
print("start-up and profile writing included; ratio: to the same statistic without a profiler;")
print("stacks: call stacks captured per process x mean cost of one capture (native; py: the")
print("Python frames' walk of the same calls).")
EOF
rm -rf "$TMP"
