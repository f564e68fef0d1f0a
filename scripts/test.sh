#!/usr/bin/env bash
# The README's second command: builds (if needed) and runs every test: the lit
# tests (checks, front end, driver, readers) and the GoogleTest unit tests,
# through one lit invocation.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cmake --build "$build" --target check
