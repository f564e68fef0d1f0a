#!/usr/bin/env bash
# Records and times the public PyTorch programs of bench/eval/pytorch/programs
# on the GPU machine (issue 11's test on programs the tool has not seen).
#
#   bench/eval/pytorch/run.sh BUILD_DIR OUT_DIR [ROUNDS]
#
# BUILD_DIR holds a cuda-advisor built with -DCUDA_ADVISOR_ENABLE_CLANG=OFF.
# Each program runs in its own folder, as its README says, through offline.py
# (the published file unchanged; synthetic data from make_data.py). Phases
# (PHASES="record torch time" by default; PROGRAMS= limits the programs):
#   record  OUT/<program>.jsonl              cuda-advisor record of the program
#   torch   OUT/<program>.torch-trace.json.gz torch.profiler, with_stack=True
#   time    OUT/timings.txt                  "<program> <variant> <round> <wall ms>
#           rc=<rc> ran=<ms>": the unchanged program ("bad") and each fix of
#           variants.py (VARIANTS="a b" limits them), ROUNDS processes each,
#           alternating, no profiler; ran= is the program's own time measured
#           in the process (offline.py), without Python's start and imports
# Logs of every run: OUT/logs/. The first run of a program (not timed, not
# recorded) warms the caches (torch.compile's, the page cache).
set -u -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$1" && pwd)
mkdir -p "$2/logs"
OUT=$(cd "$2" && pwd)
ROUNDS=${3:-3}
PHASES=${PHASES:-"record torch time"}
PROGRAMS=${PROGRAMS:-"mnist_rnn vae word_language_model nanoGPT time_sequence_prediction"}
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
export PYTHONUNBUFFERED=1
# time_sequence_prediction's torch.load of its own generated data (a NumPy
# array) fails under torch >= 2.6's weights_only default; this is torch's own
# switch back to the old default (the data is made by generate_sine_wave.py
# here). Even so, its `--steps 2` takes about 90 s (LBFGS on float64 LSTMs).
export TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1
PY=${PYTHON:-python3}
CA=$BUILD/bin/cuda-advisor
P=$HERE/programs

# The command line of each program, as its README gives it (shorter runs).
command_of() {
  case $1 in
  mnist_rnn) echo "main.py --accel --epochs 1" ;;
  vae) echo "main.py --epochs 1" ;;
  word_language_model) echo "main.py --accel --epochs 1" ;;
  nanoGPT) echo "train.py config/train_shakespeare_char.py --max_iters=500 --lr_decay_iters=500 --eval_interval=250" ;;
  time_sequence_prediction) echo "train.py --steps 2" ;;
  # The third draw (README.md). imagenet's --dummy data is torchvision's
  # FakeData, shortened 50x by offline.py (OFFLINE_FAKEDATA_DIVISOR): about 100
  # training steps and 4 validation batches; -j 4 workers is its default.
  regression) echo "main.py" ;;
  imagenet) echo "main.py --dummy -a resnet18 --epochs 1 -b 256" ;;
  mnist) echo "main.py --epochs 1" ;;
  # The fourth draw (README.md). gat reads gat/cora/ (make_data.py's synthetic
  # Cora), so it downloads nothing; siamese_network's MNIST is offline.py's.
  # single_gpu is distributed/ddp-tutorial-series/single_gpu.py (device 0,
  # hard-coded); it writes checkpoint.pt in its folder every 10th epoch.
  gat) echo "main.py --epochs 1000" ;;
  siamese_network) echo "main.py --epochs 1" ;;
  single_gpu) echo "single_gpu.py 300 10" ;;
  # The fifth draw (README.md). dcgan's --dataset fake is torchvision's
  # FakeData at the program's own size, 1,000 images (env_of): 16 steps an
  # epoch; each epoch writes two PNGs and a checkpoint pair (25 MB) into out/.
  # gcn downloads cora.tgz on every run: offline.py answers from
  # gcn/offline-files/ (make_data.py). mnist_forward_forward takes one batch of
  # 50,000 of MNIST's 60,000 images (env_of: the real set's sizes).
  dcgan) echo "main.py --dataset fake --accel --niter 20 --outf out --manualSeed 1" ;;
  gcn) echo "main.py --epochs 2000" ;;
  mnist_forward_forward) echo "main.py" ;;
  esac
}

# offline.py's settings for a program's processes, where they differ from its
# defaults (FakeData shortened 50x, MNIST halved).
env_of() {
  case $1 in
  dcgan) echo "OFFLINE_FAKEDATA_DIVISOR=1" ;;
  mnist_forward_forward) echo "OFFLINE_MNIST_TRAIN=60000 OFFLINE_MNIST_TEST=10000" ;;
  esac
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  $PY -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__)'
  $PY -c 'import torchvision; print("torchvision", torchvision.__version__)'
  echo "cpus: $(nproc)"; df -h /dev/shm | tail -1
  echo "programs: $PROGRAMS; rounds: $ROUNDS; phases: $PHASES"
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

$PY "$HERE/make_data.py" "$P" || exit 1
mkdir -p "$P/vae/results"
(cd "$P/time_sequence_prediction" && $PY generate_sine_wave.py) || exit 1

# run PROGRAM LOG [wrapper flags] SCRIPT ARGS...: one process in the program's folder.
run() {
  local prog=$1 log=$2
  shift 2
  (cd "$P/$prog" && env $(env_of "$prog") timeout -k 5 400 "$@") >"$log" 2>&1
}

for prog in $PROGRAMS; do
  cmd=$(command_of "$prog")
  [ -n "$cmd" ] || { echo "run.sh: no command line for program '$prog'" >&2; exit 1; }
  echo "== $prog: $cmd"
  run "$prog" "$OUT/logs/$prog.warm.log" $PY "$HERE/offline.py" $cmd || echo "  warm-up failed: $(tail -3 "$OUT/logs/$prog.warm.log")"
  case " $PHASES " in *" record "*)
    run "$prog" "$OUT/logs/$prog.record.log" "$CA" record -o "$OUT/$prog.jsonl" -- $PY "$HERE/offline.py" $cmd
    echo "  record: rc $? $(ls -l "$OUT/$prog.jsonl" 2>/dev/null | awk '{print $5}') bytes" ;;
  esac
  case " $PHASES " in *" torch "*)
    run "$prog" "$OUT/logs/$prog.torch.log" $PY "$HERE/offline.py" --torch-profiler "$OUT/$prog.torch-trace.json.gz" $cmd
    echo "  torch.profiler: rc $? $(ls -l "$OUT/$prog.torch-trace.json.gz" 2>/dev/null | awk '{print $5}') bytes" ;;
  esac
done

case " $PHASES " in *" time "*)
  for prog in $PROGRAMS; do
    cmd=$(command_of "$prog")
    script=${cmd%% *}
    case $cmd in *" "*) rest=${cmd#* } ;; *) rest="" ;; esac
    variants=$($PY "$HERE/variants.py" "$P" "$prog") || exit 1
    for r in $(seq 1 "$ROUNDS"); do
      while read -r name file flags; do
        [ -z "$name" ] && continue
        if [ -n "${VARIANTS:-}" ] && [ "$name" != bad ]; then
          case " $VARIANTS " in *" $name "*) ;; *) continue ;; esac
        fi
        if [ "$name" = bad ]; then file=$script; flags=""; fi
        t0=$(date +%s%N)
        run "$prog" "$OUT/logs/$prog.$name.$r.log" $PY "$HERE/offline.py" $flags "$file" $rest
        rc=$?
        t1=$(date +%s%N)
        ran=$(sed -n 's/^offline.py: program ran \([0-9]*\) ms$/\1/p' "$OUT/logs/$prog.$name.$r.log" | tail -1)
        echo "$prog $name $r $(((t1 - t0) / 1000000)) rc=$rc ran=${ran:-?}" | tee -a "$OUT/timings.txt"
      done <<<"bad
$variants"
    done
  done ;;
esac
