#!/usr/bin/env bash
# Whether the collector streams (issue 4: "10^6 records must not need 10^6
# records of memory in the collector"). Run on the GPU machine:
#
#   bench/collector-memory.sh BUILD_DIR [N...]
#
# BUILD_DIR is a build with the collector (e.g. the one test/gpu/run.sh makes).
# For each N (default 10000 100000 1000000), bench/collector/many_launches N
# runs once without a profiler and once under `cuda-advisor record`; each row
# gives the peak resident memory of the program (the collector lives in it),
# the wall time, the profile's size and its kernel records (which must be
# exactly N: nothing dropped at any size). The last lines give the collector's
# extra memory (recorded - plain) at each N and the growth per record between
# the smallest and the largest N: with streaming it is far below the ~400 bytes
# a record takes in the file.
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:?usage: $0 BUILD_DIR [N...]}" && pwd)
shift
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(10000 100000 1000000)
export PATH=/usr/local/cuda/bin:$PATH
CA=$BUILD/bin/cuda-advisor
TMP=$(mktemp -d "${TMPDIR:-/tmp}/collector-memory.XXXXXX")
nvcc -O2 -g -lineinfo -arch=native -o "$TMP/many_launches" "$ROOT/bench/collector/many_launches.cu" ||
  { echo "error: cannot compile many_launches.cu" >&2; exit 1; }

# measure CMD...: prints "peak_kib wall_s rc" of one run (peak over the
# command's process tree as the kernel accounts it for waited-for children).
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - t
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, f"{wall:.2f}", rc)
PY
}

calc() { awk "BEGIN { printf \"%.1f\", $1 }"; }

printf '%-9s %-8s %12s %8s %12s %10s\n' N variant peak_MiB wall_s profile_MiB kernels
declare -A EXTRA
for n in "${SIZES[@]}"; do
  read -r plain_kib plain_wall plain_rc < <(measure "$TMP/many_launches" "$n")
  [ "$plain_rc" = 0 ] || echo "warning: plain run of N=$n exited $plain_rc"
  printf '%-9s %-8s %12.1f %8s %12s %10s\n' "$n" none "$(calc "$plain_kib/1024")" "$plain_wall" - -
  rm -f "$TMP/p.jsonl"
  read -r rec_kib rec_wall rec_rc < <(measure "$CA" record -f -o "$TMP/p.jsonl" -- "$TMP/many_launches" "$n")
  [ "$rec_rc" = 0 ] || echo "warning: recorded run of N=$n exited $rec_rc"
  size=$(stat -c %s "$TMP/p.jsonl" 2>/dev/null || echo 0)
  kernels=$(grep -c '^{"type":"kernel"' "$TMP/p.jsonl" 2>/dev/null || echo 0)
  printf '%-9s %-8s %12.1f %8s %12.1f %10s\n' "$n" record "$(calc "$rec_kib/1024")" "$rec_wall" \
    "$(calc "$size/1048576")" "$kernels"
  [ "$kernels" = "$n" ] || echo "FAIL: N=$n gave $kernels kernel records"
  EXTRA[$n]=$((rec_kib - plain_kib))
  echo "$n ${EXTRA[$n]} $size" >>"$TMP/extra.txt"
done
echo
for n in "${SIZES[@]}"; do
  printf 'collector extra memory at N=%s: %.1f MiB\n' "$n" "$(calc "${EXTRA[$n]}/1024")"
done
first=${SIZES[0]} last=${SIZES[${#SIZES[@]}-1]}
if [ "$first" != "$last" ]; then
  per=$(calc "(${EXTRA[$last]} - ${EXTRA[$first]}) * 1024 / ($last - $first)")
  bytes_per_record=$(awk -v n="$last" '$1 == n {printf "%.0f", $3 / n}' "$TMP/extra.txt")
  printf 'growth from N=%s to N=%s: %.1f bytes of memory per launch (the file takes %s bytes per launch)\n' \
    "$first" "$last" "$per" "$bytes_per_record"
fi
rm -rf "$TMP"
