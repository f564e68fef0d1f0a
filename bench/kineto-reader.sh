#!/usr/bin/env bash
# Time and memory of reading a large torch.profiler trace (no GPU needed).
#
#   bench/kineto-reader.sh [BUILD_DIR] [COPIES]
#
# Makes a trace of COPIES (default 100) back-to-back copies of the real
# seed-loop trace (test/Inputs/traces/torch-seed-loop.trace.json, 0.66 MB;
# each copy shifted in time and in correlation ids), then, side by side on
# that file: `cuda-advisor --profile FILE --format json` (read, rules, report)
# and Python's json.load of the same file (the reference for "just parsing
# it"). Prints wall time and peak resident memory of each, their ratios, and
# cuda-advisor's memory per MB of trace. A training run's trace is hundreds of
# MB: the reader parses one event at a time, so its memory follows the records
# it keeps, not the document.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
COPIES=${2:-100}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/kineto-reader.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
python3 - "$ROOT/test/Inputs/traces/torch-seed-loop.trace.json" "$TMP/big.json" "$COPIES" <<'PY'
import json, sys
src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(src))
events, span = d["traceEvents"], 200000.0
out = []
for k in range(copies):
    for e in events:
        e = dict(e)
        if isinstance(e.get("ts"), (int, float)):
            e["ts"] += k * span
        if isinstance(e.get("args"), dict) and "correlation" in e["args"]:
            e["args"] = dict(e["args"], correlation=e["args"]["correlation"] + k * 100000)
        out.append(e)
d["traceEvents"] = out
json.dump(d, open(dst, "w"))
PY
measure() { # measure CMD...: "seconds peak_KiB" of one run
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{time.perf_counter() - t:.2f}", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
MB=$(awk -v b="$(stat -c %s "$TMP/big.json")" 'BEGIN { printf "%.1f", b / 1048576 }')
read -r ca_s ca_kib < <(measure "$BUILD/bin/cuda-advisor" --profile "$TMP/big.json" --format json)
read -r py_s py_kib < <(measure python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$TMP/big.json")
echo "trace: $COPIES copies of the seed-loop trace, $MB MB"
awk -v a="$ca_s" -v b="$py_s" -v c="$ca_kib" -v d="$py_kib" -v mb="$MB" 'BEGIN {
  printf "%-34s %8s %12s\n", "", "seconds", "peak MiB"
  printf "%-34s %8.2f %12.1f\n", "cuda-advisor --profile (all)", a, c / 1024
  printf "%-34s %8.2f %12.1f\n", "python3 json.load (parse only)", b, d / 1024
  printf "ratio cuda-advisor / json.load: time %.2f, memory %.2f\n", a / b, c / d
  printf "cuda-advisor: %.2f MiB of memory per MB of trace\n", c / 1024 / mb
}'
