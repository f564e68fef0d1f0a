#!/usr/bin/env bash
# The README's first command: installs the dependencies, builds cuda-advisor,
# and runs it on the bundled examples with their committed GPU recordings
# (no GPU needed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
"$root/scripts/run-examples.sh"
