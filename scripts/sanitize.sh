#!/usr/bin/env bash
# CI's sanitizer job (docs/robustness.md): the project's own code that needs no
# Clang (Core, Profile, Rank, Report, Driver, the tool's main) is compiled
# again with clang-19 under AddressSanitizer and UndefinedBehaviorSanitizer
# (float-cast-overflow included), in its own build directory; the Clang-facing
# layers (Frontend, Analysis, Checks) are linked as the normal build compiled
# them, so that the whole of CI stays within its time budget. Then every lit
# test and the unit tests of those layers run against the sanitized tool, and
# scripts/fuzz.sh runs the libFuzzer targets built in the same directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
main=${BUILD_DIR:-$root/build}
build=${SANITIZE_BUILD_DIR:-$root/build-sanitize}
[ -f "$main/lib/libcudaAdvisorChecks.a" ] || "$root/scripts/build.sh"
"$root/scripts/build.sh" >/dev/null # The normal build must be current.
if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
    -DCUDA_ADVISOR_SANITIZE=address,undefined,float-cast-overflow \
    -DCUDA_ADVISOR_CLANG_LAYERS_FROM="$main" \
    -DCUDA_ADVISOR_BUILD_FUZZERS=ON -DCUDA_ADVISOR_BUILD_COLLECTOR=OFF >/dev/null
fi
start=$(date +%s)
cmake --build "$build" -j "${JOBS:-$(nproc)}" \
  --target cuda-advisor cuda-advisor-unittests cuda-advisor-resources cuda-advisor-docs \
  fuzz-profile-Native fuzz-profile-Kineto fuzz-profile-Ncu fuzz-profile-Any fuzz-nvcc-command
echo "sanitize: built in $(( $(date +%s) - start )) s"
# Leaks are not checked: Clang and LLVM keep their caches until exit, and a
# file whose analysis crashed leaves its memory behind on purpose.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:handle_abort=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
lit=${LIT:-/usr/lib/llvm-19/build/utils/lit/lit.py}
python3 "$lit" -s "$build/test" "$build/test/Unit"
"$root/scripts/fuzz.sh" "$build"
