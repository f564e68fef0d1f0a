#!/usr/bin/env bash
# Recordings and timings of the PyTorch bad/fixed pairs of examples/pytorch
# (issue 11), and of examples/sync-in-loop for the C++ synchronization
# estimate. Run on the GPU machine after building cuda-advisor with the
# examples (test/gpu/run.sh's build):
#
#   test/gpu/record-pytorch.sh BUILD_DIR OUT_DIR [ROUNDS]
#
# Writes into OUT_DIR:
#   <pair>.bad.jsonl, <pair>.fixed.jsonl   cuda-advisor record of each variant
#                                          (short loops: RECORD_ARGS below)
#   <pair>.bad.torch-trace.json.gz         torch.profiler (CPU + CUDA, with_stack,
#                                          record_shapes) of the bad variant
#   recorded-times.txt                     "<pair> <variant> <ms>": the timed loop's
#                                          time in each recorded process (under
#                                          the collector)
#   timings-pytorch.txt                    "<pair> <variant> <ms>" lines: one per
#                                          process, ROUNDS processes of each
#                                          variant, alternating, no profiler
#   env.txt, logs/
# SKIP_RECORD=1, SKIP_TORCH=1 (the torch.profiler traces) or SKIP_TIMING=1
# leave out a part; PAIRS="a b" limits the pairs.
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
OUT=$2
ROUNDS=${3:-5}
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
export PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
CA=$BUILD/bin/cuda-advisor
EXP=$ROOT/examples/pytorch
PAIRS=${PAIRS:-"tf32_matmul per_sample elementwise_chain pageable_loading item_per_step small_copies seed_loop"}
mkdir -p "$OUT/logs"
cd "$OUT" || exit 1

# The recorded loops are shorter than the timed ones, to keep the files small.
record_args() {
  case $1 in
  per_sample) echo "--iterations 1" ;;
  tf32_matmul | elementwise_chain) echo "--iterations 5" ;;
  pageable_loading) echo "--iterations 20" ;;
  item_per_step) echo "--iterations 10" ;;
  small_copies) echo "--iterations 2" ;;
  esac
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -2
  $PY -c 'import sys, torch; print("python", sys.version.split()[0]); print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())'
  uname -r
} >env.txt 2>&1
cat env.txt

if [ -z "${SKIP_RECORD:-}" ]; then
  echo "== record"
  : >recorded-times.txt
  for p in $PAIRS; do
    for v in bad fixed; do
      flag=""
      [ $v = fixed ] && flag=--fixed
      # shellcheck disable=SC2046
      timeout -k 5 120 "$CA" record -f -o "$p.$v.jsonl" -- "$PY" "$EXP/$p.py" $flag $(record_args $p) \
        >"logs/$p.$v.record.log" 2>&1
      echo "$p $v record: rc=$? $(grep -E "^$v: " "logs/$p.$v.record.log" | tr '\n' ' ') $(du -k "$p.$v.jsonl" | cut -f1) KiB"
      grep -E "^$v: [0-9.]+ ms" "logs/$p.$v.record.log" | tail -1 |
        sed -E "s/^$v: ([0-9.]+) ms.*/$p $v \1/" >>recorded-times.txt
    done
    [ -n "${SKIP_TORCH:-}" ] && continue
    # shellcheck disable=SC2046
    timeout -k 5 180 "$PY" "$EXP/$p.py" $(record_args $p) --torch-profiler "$p.bad.torch-trace.json.gz" \
      >"logs/$p.bad.torch.log" 2>&1
    echo "$p bad torch.profiler: rc=$? $(grep -E '^bad: ' "logs/$p.bad.torch.log" | tr '\n' ' ') $(du -k "$p.bad.torch-trace.json.gz" | cut -f1) KiB"
  done
  for v in bad fixed; do
    timeout -k 5 60 "$CA" record -f -o "sync-in-loop.$v.jsonl" -- "$BUILD/examples/sync-in-loop" $v \
      >"logs/sync-in-loop.$v.record.log" 2>&1
    echo "sync-in-loop $v record: rc=$? $(grep -E "^$v: " "logs/sync-in-loop.$v.record.log" | tr '\n' ' ')"
  done
fi

if [ -z "${SKIP_TIMING:-}" ]; then
  echo "== timings (no profiler; $ROUNDS rounds, variants alternating)"
  : >timings-pytorch.txt
  for r in $(seq "$ROUNDS"); do
    for p in $PAIRS sync-in-loop; do
      order="bad fixed"
      [ $((r % 2)) -eq 0 ] && order="fixed bad"
      for v in $order; do
        if [ $p = sync-in-loop ]; then
          timeout -k 5 60 "$BUILD/examples/sync-in-loop" $v >"logs/t.log" 2>&1
        else
          flag=""
          [ $v = fixed ] && flag=--fixed
          timeout -k 5 120 "$PY" "$EXP/$p.py" $flag --repeat 3 >"logs/t.log" 2>&1
        fi
        rc=$?
        # The process's value: its median line (or its only line).
        ms=$(grep -E "^$v( median)?: [0-9.]+ ms" logs/t.log | tail -1 | sed -E 's/.*: ([0-9.]+) ms.*/\1/')
        [ $rc -eq 0 ] && [ -n "$ms" ] && echo "$p $v $ms" >>timings-pytorch.txt ||
          { echo "$p $v round $r: rc=$rc"; tail -3 logs/t.log; }
      done
    done
    echo "round $r done"
  done
  $PY - timings-pytorch.txt <<'PYEOF'
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p, v, ms = line.split()
    t[(p, v)].append(float(ms))
for p in dict.fromkeys(p for p, _ in t):
    b, f = t.get((p, "bad"), [0]), t.get((p, "fixed"), [0])
    print(f"{p:<18} bad med {statistics.median(b):9.3f} min {min(b):9.3f}  "
          f"fixed med {statistics.median(f):9.3f} min {min(f):9.3f}  "
          f"saving(med) {statistics.median(b) - statistics.median(f):9.3f} ms  n={len(b)},{len(f)}")
PYEOF
fi
