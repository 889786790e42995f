#!/usr/bin/env bash
# Configures and builds mpiguard in build/ (and, with --sanitize, the engines with ASan/UBSan in
# build-asan/). Idempotent; rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"
if [ "${1:-}" = "--sanitize" ]; then
  cmake -S . -B build-asan -DMPIGUARD_ENGINES_ONLY=ON -DMPIGUARD_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-asan -j "$jobs"
fi
