#!/usr/bin/env bash
# The main job: cuda-advisor over examples/ with the project's own
# compile_commands.json (written by CMake for nvcc), ranked by the committed
# recordings of those examples on an H200. Arguments are passed on to
# cuda-advisor (e.g. --format=sarif -o report.sarif); without any, it prints
# the findings and also writes the HTML report with the runs' timelines to
# build/examples-report.html (REPORT_HTML overrides the path).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
examples_build=$build/examples-cc
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
if [ -x "$nvcc" ]; then
  # Configure only: compile_commands.json is all the analysis needs. Under a
  # lock: lit runs the tests that call this script in parallel, and two
  # configures of one build folder at once break each other.
  mkdir -p "$build"
  (
    flock 9
    cmake -S "$root/examples" -B "$examples_build" -DCMAKE_CUDA_COMPILER="$nvcc" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  ) 9>"$build/examples-cc.lock"
  db=(-p "$examples_build")
else
  echo "run-examples: no nvcc at $nvcc: analyzing with default flags" >&2
  db=(-- -x cuda -std=c++17)
fi
profiles=()
# The recordings of the C++ examples analyzed here (the PyTorch examples'
# recordings are read on their own: examples/pytorch/README.md).
for p in "$root"/test/Inputs/profiles/*.bad.jsonl; do
  name=$(basename "$p" .bad.jsonl)
  [ -f "$root/examples/$name.cu" ] && profiles+=(--profile "$p")
done
# The recorded host stacks are symbolized with the very binaries that ran
# (committed next to the recordings, built with -g).
advise() {
  set +e
  "$build/bin/cuda-advisor" "$root"/examples/*.cu "${profiles[@]}" \
    --binary-path "$root/test/Inputs/profiles/bin" "$@" "${db[@]}"
  rc=$?
  set -e
  # Exit code 1 means "findings": that is what the examples are for.
  [ "$rc" -le 1 ] || exit "$rc"
}
advise "$@"
if [ $# -eq 0 ]; then
  report=${REPORT_HTML:-$build/examples-report.html}
  advise --quiet --format=html -o "$report"
  echo "run-examples: the report with the timeline of each run: $report" >&2
fi
