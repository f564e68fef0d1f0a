#!/usr/bin/env bash
# The front end's overhead: cuda-advisor analyzing one realistic translation
# unit with every check, against `clang++-19 -fsyntax-only --cuda-host-only`
# with exactly the flags cuda-advisor gives Clang (taken from its --verbose
# output). The two run interleaved, several times, in one invocation; the
# script prints both medians and minimums and the ratio of the medians
# (issue 2's goal: at most 1.3). It also times cuda-advisor with only the
# foundation's three checks (transfer-in-loop, launch-block-size,
# launch-grid-truncation) and prints what the whole check set adds to that
# (issue 3's goal: a few percent).
#
# Usage: bench/frontend-overhead.sh [-n REPS] [-b BUILD_DIR] [FILE [-- FLAGS...]]
#   FILE defaults to bench/frontend/overhead.cu, analyzed through a
#   compile_commands.json with the nvcc command CMake 3.25 writes for it.
#   With FLAGS, FILE is analyzed with `-- FLAGS` instead.
#   CLANGXX (default clang++-19) is the compiler to compare with.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPS=9
BUILD="$ROOT/build"
while getopts "n:b:h" opt; do
  case $opt in
    n) REPS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
FILE=${1:-$ROOT/bench/frontend/overhead.cu}
[ $# -gt 0 ] && shift
FILE=$(cd "$(dirname "$FILE")" && pwd)/$(basename "$FILE")
ADVISOR="$(cd "$BUILD" 2> /dev/null && pwd)/bin/cuda-advisor"
CLANGXX=${CLANGXX:-clang++-19}
[ -x "$ADVISOR" ] || { echo "frontend-overhead: $ADVISOR not found (build it, or pass -b BUILD_DIR)" >&2; exit 2; }
command -v "$CLANGXX" > /dev/null || { echo "frontend-overhead: $CLANGXX not found (set CLANGXX)" >&2; exit 2; }
[ -f "$FILE" ] || { echo "frontend-overhead: $FILE: no such file" >&2; exit 2; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# How cuda-advisor is told the flags: a compile_commands.json as CMake writes
# it for nvcc, or the FLAGS after --.
if [ "${1:-}" = "--" ]; then
  shift
  SOURCE_ARGS=("$FILE" -- "$@")
else
  NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
  cat > "$TMP/compile_commands.json" <<EOF
[{"directory": "$TMP",
  "command": "$NVCC -forward-unknown-to-host-compiler -DNDEBUG --generate-code=arch=compute_90,code=[compute_90,sm_90] --expt-relaxed-constexpr -lineinfo -Xcompiler=-Wall --use_fast_math -O3 -std=c++17 -x cu -c $FILE -o CMakeFiles/bench.dir/overhead.cu.o",
  "file": "$FILE"}]
EOF
  SOURCE_ARGS=("$FILE" -p "$TMP")
fi

# The exact parse cuda-advisor runs, as a clang++ command line.
PARSE=$({ "$ADVISOR" --verbose -j 1 "${SOURCE_ARGS[@]}" 2>&1 > /dev/null || true; } |
  sed -n 's/^.*: host parse: //p' | head -1)
[ -n "$PARSE" ] || { echo "frontend-overhead: no 'host parse:' line in cuda-advisor --verbose" >&2; exit 2; }
read -r -a CLANG_ARGS <<< "$PARSE"
CLANG_ARGS[0]=$CLANGXX
# For information: the same parse without cuda-advisor's compat headers
# (the stand-in a toolkit lacks stays: without it nothing parses).
BARE_ARGS=()
for ((i = 0; i < ${#CLANG_ARGS[@]}; i++)); do
  a=${CLANG_ARGS[i]} next=${CLANG_ARGS[i + 1]:-}
  if [[ ($a == -isystem || $a == -include) && $next == */include/compat/* ]] ||
     [[ $a == -idirafter && $next == */stand-ins/openmp ]]; then
    ((i += 1))
    continue
  fi
  BARE_ARGS+=("$a")
done

run_advisor() { "$ADVISOR" -q -j 1 "${SOURCE_ARGS[@]}" > "$TMP/advisor.out" 2> "$TMP/advisor.err"; }
FOUNDATION_CHECKS='-*,transfer-in-loop,launch-block-size,launch-grid-truncation'
run_foundation() {
  "$ADVISOR" -q -j 1 --checks="$FOUNDATION_CHECKS" "${SOURCE_ARGS[@]}" > "$TMP/foundation.out" 2>&1 || true
}
run_clang() { "${CLANG_ARGS[@]}" > "$TMP/clang.out" 2>&1; }
run_bare() { "${BARE_ARGS[@]}" > "$TMP/bare.out" 2>&1 || true; }
now_ns() { date +%s%N; }

# One warm-up each (file cache); both must parse the file cleanly.
rc=0; run_advisor || rc=$?
if [ $rc -ge 2 ]; then
  echo "frontend-overhead: cuda-advisor could not analyze $FILE:" >&2; head -20 "$TMP/advisor.err" >&2; exit 2
fi
run_clang || { echo "frontend-overhead: $CLANGXX failed:" >&2; head -20 "$TMP/clang.out" >&2; exit 2; }
FINDINGS=$(grep -cE ': (warning|note|error): ' "$TMP/advisor.out" || true)

A_TIMES=() C_TIMES=() B_TIMES=() F_TIMES=()
for ((i = 0; i < REPS; i++)); do
  t0=$(now_ns); run_advisor || true; t1=$(now_ns)
  run_clang; t2=$(now_ns)
  run_bare; t3=$(now_ns)
  run_foundation; t4=$(now_ns)
  A_TIMES+=($(( (t1 - t0) / 1000000 ))) C_TIMES+=($(( (t2 - t1) / 1000000 )))
  B_TIMES+=($(( (t3 - t2) / 1000000 ))) F_TIMES+=($(( (t4 - t3) / 1000000 )))
done

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minimum() { printf '%s\n' "$@" | sort -n | head -1; }
AM=$(median "${A_TIMES[@]}") CM=$(median "${C_TIMES[@]}")

echo "file:        $FILE ($FINDINGS findings and notes, all checks)"
echo "clang:       ${CLANG_ARGS[*]}"
echo "repetitions: $REPS, interleaved"
printf '%-28s %10s %10s   runs (ms)\n' "" "median ms" "min ms"
printf '%-28s %10s %10s   %s\n' "cuda-advisor" "$AM" "$(minimum "${A_TIMES[@]}")" "${A_TIMES[*]}"
printf '%-28s %10s %10s   %s\n' "clang++ -fsyntax-only" "$CM" "$(minimum "${C_TIMES[@]}")" "${C_TIMES[*]}"
printf '%-28s %10s %10s   %s\n' "  same, no compat headers" "$(median "${B_TIMES[@]}")" \
  "$(minimum "${B_TIMES[@]}")" "${B_TIMES[*]}"
printf '%-28s %10s %10s   %s\n' "cuda-advisor, 3 checks" "$(median "${F_TIMES[@]}")" \
  "$(minimum "${F_TIMES[@]}")" "${F_TIMES[*]}"
awk -v a="$AM" -v c="$CM" 'BEGIN { printf "ratio (median):              %.2f  (goal: <= 1.3)\n", a / c }'
awk -v a="$AM" -v f="$(median "${F_TIMES[@]}")" \
  'BEGIN { printf "all checks / 3 checks:       %.3f  (goal: a few percent)\n", a / f }'
