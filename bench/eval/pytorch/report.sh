#!/usr/bin/env bash
# Runs cuda-advisor on what run.sh brought back from the GPU machine and
# summarizes the timings (no GPU needed).
#
#   bench/eval/pytorch/report.sh RUN_DIR [CUDA_ADVISOR]
#
# For each program: RUN_DIR/<program>.native.txt (the native recording,
# <program>.jsonl or, gzipped, <program>.jsonl.gz) and
# RUN_DIR/<program>.torch.txt (the torch.profiler trace), each analyzed with the
# program's .py files as sources (so the recording machine's paths map to them);
# then the timings: per program and variant, the median wall time of its
# processes and of the program's own time in them ("ran"), and the saving
# against the unchanged program ("bad").
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=$(cd "$1" && pwd)
CA=${2:-$HERE/../../../build/bin/cuda-advisor}
for rec in "$RUN"/*.jsonl "$RUN"/*.jsonl.gz; do
  [ -e "$rec" ] || continue
  prog=$(basename "$rec" .gz)
  prog=${prog%.jsonl}
  "$CA" "$HERE/programs/$prog/"*.py --profile "$rec" >"$RUN/$prog.native.txt" 2>&1
  echo "== $prog (native, rc $?)"
  grep -E "GPU busy|warning:|note: the same" "$RUN/$prog.native.txt" | cut -c1-220
  trace=$RUN/$prog.torch-trace.json.gz
  if [ -e "$trace" ]; then
    "$CA" "$HERE/programs/$prog/"*.py --profile "$trace" >"$RUN/$prog.torch.txt" 2>&1
    echo "== $prog (torch.profiler, rc $?)"
    grep -E "GPU busy|warning:|note: the same" "$RUN/$prog.torch.txt" | cut -c1-220
  fi
done
if [ -e "$RUN/timings.txt" ]; then
  echo "== timings (median wall ms of the processes; saving = bad - variant)"
  python3 - "$RUN/timings.txt" <<'EOF'
import collections, statistics, sys
# wall: the process; ran: the program's own time inside it (offline.py's
# timer, without Python's start and imports), where the line has it.
times = {"wall": collections.defaultdict(list), "ran": collections.defaultdict(list)}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and f[4] == "rc=0":
        times["wall"][(f[0], f[1])].append(int(f[3]))
        if len(f) >= 6 and f[5].startswith("ran=") and f[5][4:].isdigit():
            times["ran"][(f[0], f[1])].append(int(f[5][4:]))
for kind, t in times.items():
    progs = sorted({p for p, _ in t})
    for p in progs:
        bad = statistics.median(t[(p, "bad")]) if t[(p, "bad")] else None
        for (q, v), ms in sorted(t.items()):
            if q != p:
                continue
            m = statistics.median(ms)
            saving = "" if bad is None or v == "bad" else f"saving {bad - m:+.0f} ms ({(bad - m) / bad:+.1%})"
            print(f"{kind:4} {p:26} {v:14} n={len(ms)} median {m:8.0f} ms  min {min(ms):8.0f}  {saving}")
EOF
fi
