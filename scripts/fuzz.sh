#!/usr/bin/env bash
# Runs every libFuzzer target of a build directory (scripts/sanitize.sh builds
# them) for FUZZ_SECONDS each (default 60), or for FUZZ_TOTAL_SECONDS shared
# equally among them (CI: 60 s in all), each from its seed corpus taken from
# test/Inputs, and prints the executions and coverage libFuzzer reports.
# A crash fails the run and leaves the input in BUILD/fuzz-crashes/: turn it
# into a regression test (docs/robustness.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build-sanitize}" && pwd)
targets=(fuzz-profile-Native fuzz-profile-Kineto fuzz-profile-Ncu fuzz-profile-Any fuzz-nvcc-command)
seconds=${FUZZ_SECONDS:-60}
if [ -n "${FUZZ_TOTAL_SECONDS:-}" ]; then
  seconds=$(( FUZZ_TOTAL_SECONDS / ${#targets[@]} ))
  [ "$seconds" -ge 1 ] || seconds=1
fi
work=$build/fuzz-work
rm -rf "$work" && mkdir -p "$work" "$build/fuzz-crashes"
inputs=$root/test/Inputs
seed() { # seed NAME FILES...
  local dir=$work/seeds-$1; shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp "$f" "$dir/"; done
  true
}
seed Native "$inputs"/profiles/*.jsonl "$inputs"/profiles/multi-gpu/*.jsonl
seed Kineto "$inputs"/traces/*.json "$inputs"/profiles/*.json
seed Ncu "$inputs"/profiles/*.csv
seed Any "$inputs"/profiles/*.jsonl "$inputs"/traces/* "$inputs"/profiles/*.csv "$inputs"/profiles/*.json
# Compile commands from the front-end tests, one argument per line.
mkdir -p "$work/seeds-nvcc"
python3 - "$root/test/frontend" "$work/seeds-nvcc" <<'PY'
import glob, os, re, shlex, sys
n = 0
for t in sorted(glob.glob(os.path.join(sys.argv[1], "*"))):
    if not os.path.isfile(t):
        continue  # Inputs/ and other folders.
    for cmd in re.findall(r'"command": "([^"]*)"', open(t, errors="replace").read()):
        try:
            args = shlex.split(cmd.replace("%inputs", "/in"))
        except ValueError:
            continue
        n += 1
        open(os.path.join(sys.argv[2], "cmd%03d" % n), "w").write("\n".join(args))
PY
status=0
run() { # run TARGET SEEDS
  local target=$1 seeds=$2 corpus=$work/corpus-$1
  mkdir -p "$corpus"
  local log=$work/$target.log
  if (cd "$build/fuzz-crashes" && "$build/fuzz/$target" -max_total_time="$seconds" \
        -max_len=65536 -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        "$corpus" "$seeds" > "$log" 2>&1); then :; else
    status=1
    echo "fuzz: $target FAILED; the input is in $build/fuzz-crashes:" >&2
    tail -40 "$log" >&2
  fi
  local execs cov ft
  execs=$( (grep -E '^stat::number_of_executed_units' "$log" || true) | awk '{print $2}')
  cov=$( (sed -nE 's/.* cov: ([0-9]+).*/\1/p' "$log" || true) | tail -1)
  ft=$( (sed -nE 's/.* ft: ([0-9]+).*/\1/p' "$log" || true) | tail -1)
  printf 'fuzz: %-22s %8s executions in %ss, coverage %s edges, %s features, corpus %s files\n' \
    "$target" "${execs:-?}" "$seconds" "${cov:-?}" "${ft:-?}" "$(ls "$corpus" | wc -l)"
}
run fuzz-profile-Native "$work/seeds-Native"
run fuzz-profile-Kineto "$work/seeds-Kineto"
run fuzz-profile-Ncu "$work/seeds-Ncu"
run fuzz-profile-Any "$work/seeds-Any"
run fuzz-nvcc-command "$work/seeds-nvcc"
exit $status
