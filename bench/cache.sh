#!/usr/bin/env bash
# The result cache (docs/scale.md): cuda-advisor over every example program
# (examples/**/*.cu, through a compile_commands.json with the nvcc commands
# CMake writes) with no cache, with a cold cache (empty directory) and a warm
# one (nothing changed), and after one file changed. Each configuration runs
# REPS times, interleaved; the script prints the medians of wall and of CPU
# (user + system) time side by side, the warm/cold ratio (issue 16's goal:
# under 5%), and whether the reports of all runs are identical (they must be).
#
# Usage: bench/cache.sh [-n REPS] [-j JOBS] [-b BUILD_DIR]
#   REPS defaults to 3, JOBS (cuda-advisor -j) to 1.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPS=3
JOBS=1
BUILD="$ROOT/build"
while getopts "n:j:b:h" opt; do
  case $opt in
    n) REPS=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    *) sed -n '2,11p' "$0"; exit 2 ;;
  esac
done
ADVISOR="$(cd "$BUILD" 2> /dev/null && pwd)/bin/cuda-advisor"
[ -x "$ADVISOR" ] || { echo "cache: $ADVISOR not found (build it, or pass -b BUILD_DIR)" >&2; exit 2; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# A copy of the examples, so that one can be changed.
mkdir -p "$TMP/src"
(cd "$ROOT/examples" && find . -name '*.cu' -exec cp --parents {} "$TMP/src" \;)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
{
  echo "["
  SEP=""
  while IFS= read -r F; do
    printf '%s{"directory": "%s", "file": "%s",\n "command": "%s -forward-unknown-to-host-compiler -DNDEBUG --generate-code=arch=compute_90,code=[compute_90,sm_90] -O3 -std=c++17 -x cu -c %s -o %s.o"}' \
      "$SEP" "$TMP" "$F" "$NVCC" "$F" "$F"
    SEP=$',\n'
  done < <(find "$TMP/src" -name '*.cu' | sort)
  echo "]"
} > "$TMP/compile_commands.json"
FILES=$(find "$TMP/src" -name '*.cu' | wc -l)

# One run: appends its wall and CPU (user + system) seconds to $TMP/t.<name>
# and $TMP/c.<name>; its report goes to $TMP/out.<name>. CPU time is less
# disturbed than wall time when other work shares the machine.
run() {
  local Name=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$TMP/time" \
    "$ADVISOR" -p "$TMP" -j "$JOBS" -q --fail-on=error --format=json -o "$TMP/out.$Name" "$@" \
    2> "$TMP/err.$Name" || { echo "cache: the $Name run failed:" >&2; cat "$TMP/err.$Name" >&2; exit 2; }
  awk '{ printf "%.3f\n", $1 }' "$TMP/time" >> "$TMP/t.$Name"
  awk '{ printf "%.3f\n", $2 + $3 }' "$TMP/time" >> "$TMP/c.$Name"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ONE=$(find "$TMP/src" -name '*.cu' | sort | head -1)
for ((I = 1; I <= REPS; I++)); do
  rm -rf "$TMP/cache"
  run nocache --no-cache
  run cold --cache-dir "$TMP/cache"
  run warm --cache-dir "$TMP/cache"
  echo "// changed $I" >> "$ONE"
  run onechanged --cache-dir "$TMP/cache"
  for N in cold warm onechanged; do
    cmp -s "$TMP/out.nocache" "$TMP/out.$N" || { echo "cache: the $N report differs from the one without cache" >&2; exit 1; }
  done
done

ENTRIES=$(find "$TMP/cache" -name '*.json' | wc -l)
SIZE=$(du -sk "$TMP/cache" | cut -f1)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "cuda-advisor over $FILES example files (-j $JOBS), median of $REPS runs each, seconds:"
printf '  %-6s %-10s %-10s %-10s %-12s %-10s %-10s\n' "" "no cache" "cold" "warm" "1 changed" "warm/cold" "cold/none"
for KIND in t c; do
  NOCACHE=$(median < "$TMP/$KIND.nocache")
  COLD=$(median < "$TMP/$KIND.cold")
  WARM=$(median < "$TMP/$KIND.warm")
  ONECHANGED=$(median < "$TMP/$KIND.onechanged")
  printf '  %-6s %-10s %-10s %-10s %-12s %-10s %-10s\n' "$([ $KIND = t ] && echo wall || echo CPU)" \
    "$NOCACHE" "$COLD" "$WARM" "$ONECHANGED" "$(ratio "$WARM" "$COLD")" "$(ratio "$COLD" "$NOCACHE")"
done
echo "  reports identical with and without the cache: yes; cache: $ENTRIES entries, $SIZE KiB"
