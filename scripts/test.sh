#!/usr/bin/env bash
# README command 2: installs what is needed, builds (normal and sanitizer builds), runs every test.
# Extra arguments go to ctest, e.g. scripts/test.sh -L unit (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --sanitize
echo "== sanitizer build (ASan/UBSan): engine unit tests =="
ctest --test-dir build-asan --output-on-failure -j 2 "$@"
echo "== full build: all tests =="
ctest --test-dir build --output-on-failure -j 2 "$@"
