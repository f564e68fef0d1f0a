#!/usr/bin/env bash
# The collector's GPU checks (issue 4). Run on a machine with an NVIDIA GPU and
# a CUDA toolkit; CI has no GPU and does not run this.
#
#   test/gpu/run.sh [BUILD_DIR]
#
# Builds cuda-advisor without Clang (-DCUDA_ADVISOR_ENABLE_CLANG=OFF, the GPU
# machine has no LLVM) with the examples, compiles the small programs of this
# directory, records them with `cuda-advisor record` and checks the profiles
# with check_profile.py. Prints PASS/FAIL per check and exits 1 if any failed.
# SKIP_BUILD=1 reuses BUILD_DIR as it is; KEEP_DIR=DIR copies the profiles and
# logs there.
set -u -o pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build-gpu}
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
PY=${PYTHON:-python3}
NVCC=${NVCC:-nvcc}
CA=$BUILD/bin/cuda-advisor
CHECK="$PY $ROOT/test/gpu/check_profile.py"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cuda-advisor-gpu.XXXXXX")
PASSED=0
FAILED=0
FAILED_NAMES=""

if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== build ($BUILD)"
  # CLI11 is not installed on the GPU machine: the top-level CMake also looks
  # in .device/include (copied there from a machine that has it).
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCUDA_ADVISOR_ENABLE_CLANG=OFF -DCUDA_ADVISOR_BUILD_EXAMPLES=ON \
    -DCMAKE_CUDA_COMPILER="$(command -v "$NVCC")" ${EXTRA_CMAKE_ARGS:-} >"$WORK/cmake.log" 2>&1 ||
    { cat "$WORK/cmake.log"; echo "FAIL: configure"; exit 1; }
  ninja -C "$BUILD" >"$WORK/build.log" 2>&1 || { tail -50 "$WORK/build.log"; echo "FAIL: build"; exit 1; }
fi
[ -x "$CA" ] || { echo "FAIL: $CA was not built"; exit 1; }

echo "== compile test programs"
for p in copy_loop oob crash multistream reset fork; do
  "$NVCC" -O2 -g -arch=sm_90 -o "$WORK/$p" "$ROOT/test/gpu/$p.cu" || { echo "FAIL: compile $p"; exit 1; }
done
cd "$WORK" || exit 1

result() { # result NAME COMMAND...: runs the check and prints PASS/FAIL.
  local name=$1
  shift
  if "$@"; then
    echo "PASS: $name"
    PASSED=$((PASSED + 1))
  else
    echo "FAIL: $name"
    FAILED=$((FAILED + 1))
    FAILED_NAMES="$FAILED_NAMES $name"
  fi
}

expect_rc() { # expect_rc WANT GOT LOG
  if [ "$2" -ne "$1" ]; then
    echo "  exit code $2, expected $1; log:"
    sed 's/^/    /' "$3" | tail -20
    return 1
  fi
}

# record OUT LOG COMMAND...: `cuda-advisor record -o OUT -- COMMAND`, bounded.
record() {
  local out=$1 log=$2
  shift 2
  timeout -k 5 120 "$CA" record -o "$out" -- "$@" >"$log" 2>&1
}

wait_bounded() { # wait_bounded PID SECONDS: wait, or kill -9 after SECONDS.
  local pid=$1 left=$(($2 * 10))
  while kill -0 "$pid" 2>/dev/null && [ $left -gt 0 ]; do
    sleep 0.1
    left=$((left - 1))
  done
  kill -0 "$pid" 2>/dev/null && { echo "  still running after $2 s: killed"; kill -9 "$pid"; }
  wait "$pid"
}

check_copy_loop() {
  record copy.jsonl copy.log ./copy_loop
  expect_rc 0 $? copy.log || return 1
  $CHECK copy.jsonl 'kernels == 100' 'kernels_timed == 100' 'memcpys == 200' \
    'memcpys_timed == 200' 'copy_kinds == {"HtoD": 100, "DtoH": 100}' 'end["dropped"] == 0' \
    'end["failed_calls"] == 0' 'end["reason"] == "exit" and end["exit_code"] == 0' \
    'records_match' 'launches == 100 and launches_with_stack == 100' \
    'memcpy_calls == 200 and memcpy_calls_with_stack == 200' 'stacks <= 10' \
    'memcpy_calls_with_pointers == 200 and copy_pointer_pairs == 2' \
    'end["stack_slow_walks"] == 0' \
    'main_module is not None and len(main_module.get("build_id", "")) >= 16' \
    'any(d["source"] == "cupti" and d["sms"] > 0 for d in devices)' \
    'any(d["source"] == "driver" and d["shared_mem_per_block_optin"] > 0 for d in devices)' || return 1
  $PY - copy.jsonl <<'EOF'
import json, sys
end = json.loads(open(sys.argv[1]).read().splitlines()[-1])
n = max(end["callsites"], 1)
print(f"  stack capture: {end['callsites']} calls, {end['stack_capture_ns'] / n / 1000:.2f} us each, "
      f"{end['stack_slow_walks']} fell back to libgcc")
EOF
}

check_no_stacks() {
  timeout -k 5 120 "$CA" record --no-stacks -o nostacks.jsonl -- ./copy_loop >nostacks.log 2>&1
  expect_rc 0 $? nostacks.log || return 1
  $CHECK nostacks.jsonl 'kernels == 100' 'memcpys == 200' 'callsites == 0' 'stacks == 0' \
    'header["stacks"] is False'
}

check_error() {
  record oob.jsonl oob.log ./oob
  expect_rc 1 $? oob.log || return 1
  grep -q "CUDA API calls failed" oob.log || { echo "  no failure summary in the log"; return 1; }
  $CHECK oob.jsonl 'end["failed_calls"] >= 100' 'first_error["error"] == "cudaErrorIllegalAddress"' \
    'first_error["code"] == 700' 'first_error["api"] == "cudaMemcpy"' '"stack" in first_error' \
    'len(errors) >= 1' 'records_match'
}

check_signal() { # check_signal NAME MODE WANT_RC SIGNAL
  record "$1.jsonl" "$1.log" ./crash "$2"
  expect_rc "$3" $? "$1.log" || return 1
  $CHECK "$1.jsonl" 'end["reason"] == "signal"' "end[\"signal\"] == $4" 'kernels == 10' \
    'memcpys == 20' 'kernels_timed == 10' 'records_match'
}

check_stop_signal() { # check_stop_signal NAME SIGNAL WANT_RC SIGNUM
  rm -f "$1.ready"
  # Background jobs of a script start with SIGINT ignored; a program started
  # from a terminal has the default action. Restore it for the program.
  $PY -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$CA" record -o "$1.jsonl" -- ./crash wait "$WORK/$1.ready" >"$1.log" 2>&1 &
  local pid=$!
  local i
  for i in $(seq 200); do
    [ -e "$1.ready" ] && break
    sleep 0.1
  done
  sleep 0.5
  kill "-$2" "$pid"
  wait_bounded "$pid" 60
  expect_rc "$3" $? "$1.log" || return 1
  $CHECK "$1.jsonl" 'end["reason"] == "signal"' "end[\"signal\"] == $4" 'kernels >= 10' \
    'memcpys >= 20' 'records_match'
}

check_multistream() {
  record multi.jsonl multi.log ./multistream
  expect_rc 0 $? multi.log || return 1
  $CHECK multi.jsonl 'kernels == 160' 'memcpys == 320' 'kernels_timed == 160' \
    'memcpys_timed == 320' 'kernel_streams == 8' 'launches_with_stack == 160' 'records_match'
}

check_reset() {
  record reset.jsonl reset.log ./reset
  expect_rc 0 $? reset.log || return 1
  $CHECK reset.jsonl 'kernels == 2' 'memcpys == 4' 'kernels_timed == 2' 'memcpys_timed == 4' \
    'api_names.get("cudaDeviceReset") == 1' 'records_match'
}

check_fork_after() {
  record fork_after.jsonl fork_after.log ./fork after
  expect_rc 0 $? fork_after.log || return 1
  if ls fork_after.*.jsonl >/dev/null 2>&1; then
    echo "  a forked child wrote a profile:" fork_after.*.jsonl
    return 1
  fi
  $CHECK fork_after.jsonl 'kernels == 10' 'memcpys == 20' 'kernels_timed == 10' 'records_match'
}

check_fork_before() {
  record fork_before.jsonl fork_before.log ./fork before
  expect_rc 0 $? fork_before.log || return 1
  local others
  others=$(ls fork_before.*.jsonl 2>/dev/null)
  [ "$(echo "$others" | wc -w)" -eq 1 ] || { echo "  expected one more profile, got: $others"; return 1; }
  grep -q "1 more profile" fork_before.log || { echo "  record did not list the other profile"; return 1; }
  # The child uses CUDA first and takes the name; the parent gets the pid name.
  $CHECK fork_before.jsonl 'kernels == 3' 'memcpys == 6' 'records_match' &&
    $CHECK "$others" 'kernels == 5' 'memcpys == 10' 'records_match'
}

check_python() {
  record torch.jsonl torch.log "$PY" "$ROOT/examples/pytorch/seed_loop.py"
  expect_rc 0 $? torch.log || return 1
  $CHECK torch.jsonl 'kernels >= 100' 'kernels_timed == kernels' 'memcpys >= 200' \
    'memcpys_timed == memcpys' 'copy_src.get("HtoD:pageable->device", 0) >= 100' \
    'launches >= 100 and launches_with_stack == launches' 'end["dropped"] == 0' 'records_match' \
    'header["command"][1].endswith("seed_loop.py")' || return 1
  $PY - torch.jsonl <<'EOF2'
import json, sys
end = json.loads(open(sys.argv[1]).read().splitlines()[-1])
n = max(end["callsites"], 1)
print(f"  stack capture: {end['callsites']} calls, {end['stack_capture_ns'] / n / 1000:.2f} us each, "
      f"{end['stack_slow_walks']} fell back to libgcc")
EOF2
}

check_stack_walker() { # CPU only: the fast unwinder against libgcc's.
  g++ -O2 -g -pthread -fno-omit-frame-pointer -I "$ROOT/lib/Collector" -I "$ROOT/include" \
    -c "$ROOT/lib/Collector/Stacks.cpp" -o stacks.o &&
    g++ -O2 -g -pthread -I "$ROOT/lib/Collector" -I "$ROOT/include" \
      "$ROOT/test/gpu/stack_walker_test.cpp" "$ROOT/test/gpu/stack_walker_test_omitfp.cpp" stacks.o \
      -o stack_walker_test && ./stack_walker_test | sed 's/^/  /'
}

check_driver() {
  local ok=0
  "$CA" record -- /nonexistent/program >drv1.log 2>&1
  [ $? -eq 2 ] && grep -q "no such file" drv1.log || { echo "  missing program:"; cat drv1.log; ok=1; }
  "$CA" record -- no-such-program-in-path >drv2.log 2>&1
  [ $? -eq 2 ] && grep -q "not found in PATH" drv2.log || { echo "  PATH lookup:"; cat drv2.log; ok=1; }
  "$CA" record -o copy.jsonl -- ./copy_loop >drv3.log 2>&1
  [ $? -eq 2 ] && grep -q "exists already" drv3.log || { echo "  existing output:"; cat drv3.log; ok=1; }
  "$CA" record -o exit7.jsonl -- sh -c 'exit 7' >drv4.log 2>&1
  [ $? -eq 7 ] || { echo "  exit code not passed through:"; cat drv4.log; ok=1; }
  "$CA" record --collector /nonexistent.so -- ./copy_loop >drv5.log 2>&1
  [ $? -eq 2 ] || { echo "  missing --collector accepted:"; cat drv5.log; ok=1; }
  mkdir -p default && (cd default && timeout 120 "$CA" record -- ../copy_loop >../drv6.log 2>&1)
  [ -f default/copy_loop.cuda-advisor.jsonl ] || { echo "  no default-named profile:"; cat drv6.log; ok=1; }
  (cd default && timeout 120 "$CA" record -f -- ../copy_loop >../drv7.log 2>&1) ||
    { echo "  --force failed:"; cat drv7.log; ok=1; }
  return $ok
}

echo "== checks ($WORK)"
result stack-walker check_stack_walker
result copy-loop-100 check_copy_loop
result no-stacks check_no_stacks
result cuda-error check_error
result sigsegv check_signal segv segv 139 11
result abort check_signal abort abort 134 6
result sigterm check_stop_signal term TERM 143 15
result sigint check_stop_signal int INT 130 2
result multithread-multistream check_multistream
result device-reset check_reset
result fork-after-init check_fork_after
result fork-before-init check_fork_before
result python-pytorch check_python
result record-driver check_driver

if [ -n "${KEEP_DIR:-}" ]; then
  mkdir -p "$KEEP_DIR"
  cp "$WORK"/*.jsonl "$WORK"/*.log "$KEEP_DIR"/ 2>/dev/null
fi
echo "== $PASSED passed, $FAILED failed${FAILED_NAMES:+:$FAILED_NAMES}"
[ "$FAILED" -eq 0 ]
