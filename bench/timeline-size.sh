#!/usr/bin/env bash
# Size of the HTML report's timeline as the number of records grows: a
# synthetic loop (test/report/Inputs/timeline_profile.py: per iteration a
# copy call, its HtoD copy, a launch and its kernel, every 40 us) of 10^3,
# 10^4 and 10^5 records, each rendered with --format=html. Prints records,
# bars drawn, the page's size and the time cuda-advisor took. The bars stay
# within the chart's budget (12,000 bars), so the page stays about a megabyte
# at most.
#
# Usage: bench/timeline-size.sh [-b BUILD_DIR] [RECORDS...]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/build"
while getopts "b:h" opt; do
  case $opt in
    b) BUILD=$OPTARG ;;
    *) sed -n '2,9p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
SIZES=("$@")
[ $# -gt 0 ] || SIZES=(1000 10000 100000)
ADVISOR="$(cd "$BUILD" && pwd)/bin/cuda-advisor"
[ -x "$ADVISOR" ] || { echo "timeline-size: $ADVISOR not found" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

printf '%10s %8s %12s %8s\n' records bars html_bytes ms
for n in "${SIZES[@]}"; do
  python3 "$ROOT/test/report/Inputs/timeline_profile.py" --iterations $((n / 4)) \
    --period-us 40 --kernel-us 20 --copy-us 5 > "$TMP/run.jsonl"
  start=$(date +%s%N)
  rc=0
  "$ADVISOR" --profile "$TMP/run.jsonl" --format=html -o "$TMP/report.html" || rc=$?
  [ "$rc" -le 1 ] || exit "$rc"
  end=$(date +%s%N)
  bars=$(grep -o 'data-bars="[0-9]*"' "$TMP/report.html" | head -1 | tr -dc 0-9)
  printf '%10d %8d %12d %8d\n' "$n" "$bars" "$(stat -c %s "$TMP/report.html")" \
    $(((end - start) / 1000000))
done
