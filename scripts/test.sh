#!/usr/bin/env bash
# README command 2: installs what is needed, builds (normal and sanitizer builds), runs the tests.
# Extra arguments go to ctest, e.g. scripts/test.sh -L unit (docs/testing.md). Without any, the
# bounded slice runs: the tests labelled full (the whole batch of faults on the Debian applications,
# and the long twins of tests the slice covers) are left out; scripts/test.sh -L full runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --sanitize
ctest_args=("$@")
[ $# -gt 0 ] || ctest_args=(-LE full)
echo "== sanitizer build (ASan/UBSan): engine unit tests =="
ctest --test-dir build-asan --output-on-failure -j 2 "${ctest_args[@]}"
echo "== full build: all tests =="
ctest --test-dir build --output-on-failure -j 2 "${ctest_args[@]}"
