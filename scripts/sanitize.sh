#!/usr/bin/env bash
# CI's sanitizer job (docs/robustness.md): the project's own code that needs no
# Clang (Core, Profile, Rank, Report, Driver, the tool's main) is compiled
# again with clang-19 under AddressSanitizer and UndefinedBehaviorSanitizer
# (float-cast-overflow included), in its own build directory; the Clang-facing
# layers (Frontend, Analysis, Checks) are linked as the normal build compiled
# them, so that the whole of CI stays within its time budget. Then every lit
# test and the unit tests of those layers run against the sanitized tool, and
# scripts/fuzz.sh runs the libFuzzer targets built in the same directory.
#
#   scripts/sanitize.sh            the whole job, fuzzers FUZZ_SECONDS (60) each
#   scripts/sanitize.sh --ci       the same, as .ci/run runs it: the fuzzers get
#                                  FUZZ_TOTAL_SECONDS (60) in all
#   scripts/sanitize.sh --objects  configure and compile the sanitized objects
#                                  only: they need nothing from the normal build,
#                                  so .ci/run compiles them beside it
# Every part runs even when one fails; the exit status is 1 if any failed.
set -euo pipefail
mode=${1:-}
case $mode in ""|--ci|--objects) ;; *) echo "usage: $0 [--ci|--objects]" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
main=${BUILD_DIR:-$root/build}
build=${SANITIZE_BUILD_DIR:-$root/build-sanitize}
jobs=${JOBS:-$(nproc)}
if [ ! -f "$build/build.ninja" ]; then # (written last: a configure stopped half-way is redone)
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
    -DCUDA_ADVISOR_SANITIZE=address,undefined,float-cast-overflow \
    -DCUDA_ADVISOR_CLANG_LAYERS_FROM="$main" \
    -DCUDA_ADVISOR_BUILD_FUZZERS=ON -DCUDA_ADVISOR_BUILD_COLLECTOR=OFF >/dev/null
fi
if [ "$mode" = --objects ]; then
  # Every object file of the sanitized build (all of them are linked into the
  # targets below); linking waits for the normal build's Clang layers.
  start=$(date +%s)
  ninja -C "$build" -j "$jobs" $(ninja -C "$build" -t targets all | sed -n 's/^\([^:]*\.o\): .*/\1/p')
  echo "sanitize: objects compiled in $(( $(date +%s) - start )) s"
  exit 0
fi
[ -f "$main/lib/libcudaAdvisorChecks.a" ] || "$root/scripts/build.sh"
"$root/scripts/build.sh" >/dev/null # The normal build must be current.
start=$(date +%s)
cmake --build "$build" -j "$jobs" \
  --target cuda-advisor cuda-advisor-unittests cuda-advisor-resources cuda-advisor-docs \
  fuzz-profile-Native fuzz-profile-Kineto fuzz-profile-Ncu fuzz-profile-Any fuzz-nvcc-command
echo "sanitize: built in $(( $(date +%s) - start )) s"
# Leaks are not checked: Clang and LLVM keep their caches until exit, and a
# file whose analysis crashed leaves its memory behind on purpose.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:handle_abort=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
lit=${LIT:-/usr/lib/llvm-19/build/utils/lit/lit.py}
# lit starts the slowest tests first when it knows their times: on a fresh
# build directory, the normal build's (scripts/test.sh ran them).
[ -f "$build/test/.lit_test_times.txt" ] || cp "$main/test/.lit_test_times.txt" "$build/test/" 2>/dev/null || true
status=0
part() { # part NAME COMMAND...: runs one part, prints its time, keeps going
  local name=$1 start
  shift
  start=$(date +%s)
  "$@" || { status=1; echo "sanitize: $name FAILED" >&2; }
  echo "sanitize: $name in $(( $(date +%s) - start )) s"
}
# One lit worker more than cores: with two workers on 2 cores the sanitized
# tests kept the CPU busy only two thirds of the time (they wait on short
# processes, Chromium, the language server).
lit_jobs=${LIT_JOBS:-$(( jobs + 1 ))}
part "lit tests" python3 "$lit" -sv -j "$lit_jobs" "$build/test"
part "unit tests" python3 "$lit" -sv -j "$lit_jobs" "$build/test/Unit"
[ "$mode" = --ci ] && export FUZZ_TOTAL_SECONDS=${FUZZ_TOTAL_SECONDS:-60}
part fuzzers "$root/scripts/fuzz.sh" "$build"
exit $status
