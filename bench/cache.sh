#!/usr/bin/env bash
# The result cache (docs/scale.md): cuda-advisor over every example program
# (examples/**/*.cu, through a compile_commands.json with the nvcc commands
# CMake writes) with no cache, with a cold cache (empty directory) and a warm
# one (nothing changed), and after one file changed. Each configuration runs
# REPS times, interleaved; the script prints the medians side by side, the
# warm/cold ratio (issue 16's goal: under 5%), and whether the reports of all
# runs are identical (they must be).
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

# Seconds (wall) of one run; its report goes to $TMP/out.<name>.
run() {
  local Name=$1
  shift
  local Start End
  Start=$(date +%s.%N)
  "$ADVISOR" -p "$TMP" -j "$JOBS" -q --fail-on=error --format=json -o "$TMP/out.$Name" "$@" \
    2> "$TMP/err.$Name" || { echo "cache: the $Name run failed:" >&2; cat "$TMP/err.$Name" >&2; exit 2; }
  End=$(date +%s.%N)
  echo "$Start $End" | awk '{ printf "%.3f\n", $2 - $1 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ONE=$(find "$TMP/src" -name '*.cu' | sort | head -1)
for ((I = 1; I <= REPS; I++)); do
  rm -rf "$TMP/cache"
  run nocache --no-cache >> "$TMP/t.nocache"
  run cold --cache-dir "$TMP/cache" >> "$TMP/t.cold"
  run warm --cache-dir "$TMP/cache" >> "$TMP/t.warm"
  echo "// changed $I" >> "$ONE"
  run onechanged --cache-dir "$TMP/cache" >> "$TMP/t.onechanged"
  for N in cold warm onechanged; do
    cmp -s "$TMP/out.nocache" "$TMP/out.$N" || { echo "cache: the $N report differs from the one without cache" >&2; exit 1; }
  done
done

NOCACHE=$(median < "$TMP/t.nocache")
COLD=$(median < "$TMP/t.cold")
WARM=$(median < "$TMP/t.warm")
ONECHANGED=$(median < "$TMP/t.onechanged")
ENTRIES=$(find "$TMP/cache" -name '*.json' | wc -l)
SIZE=$(du -sk "$TMP/cache" | cut -f1)
echo "cuda-advisor over $FILES example files (-j $JOBS), median of $REPS runs each, seconds:"
printf '  %-10s %-10s %-10s %-12s %-10s %-10s\n' "no cache" "cold" "warm" "1 changed" "warm/cold" "cold/none"
printf '  %-10s %-10s %-10s %-12s %-10s %-10s\n' "$NOCACHE" "$COLD" "$WARM" "$ONECHANGED" \
  "$(awk -v a="$WARM" -v b="$COLD" 'BEGIN { printf "%.3f", a / b }')" \
  "$(awk -v a="$COLD" -v b="$NOCACHE" 'BEGIN { printf "%.3f", a / b }')"
echo "  reports identical with and without the cache: yes; cache: $ENTRIES entries, $SIZE KiB"
