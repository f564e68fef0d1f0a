#!/usr/bin/env bash
# Installs what cuda-advisor needs to build and test on Debian 12 (bookworm):
# LLVM/Clang 19 (libTooling, FileCheck, lit), CLI11, GoogleTest, SQLite, CMake,
# Ninja, zlib (gzip-compressed traces), clang-19's libFuzzer and sanitizer
# runtimes (scripts/sanitize.sh), Neovim (the language server's test with a
# real editor), Chromium (the HTML timeline's rendering test, headless). The
# CUDA toolkit (for the examples and the collector) is not an apt package
# here: it is expected at /usr/local/cuda, and the analyzer works without it
# (bundled CUDA declarations).
set -euo pipefail
packages=(clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libcli11-dev libgtest-dev
          libsqlite3-dev zlib1g-dev cmake ninja-build g++ python3 clang-tools-19 python3-jsonschema
          libclang-rt-19-dev neovim git chromium) # libclang-rt-19-dev: libFuzzer and the sanitizer runtimes for clang-19
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (or install sudo)" >&2; exit 1; }
  SUDO=sudo
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
