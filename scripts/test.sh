#!/usr/bin/env bash
# README command 2: installs what is needed, builds (normal and sanitizer builds), runs the tests.
# Extra arguments go to ctest, e.g. scripts/test.sh -L unit (docs/testing.md). Without any, the apps
# tests run in their bounded slice: those labelled apps-full (the whole batch of faults and samplers
# on the Debian applications, tens of minutes) and hang-full (the rest of the hang-from-the-start
# cases) are left out; scripts/test.sh -L apps runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --sanitize
ctest_args=("$@")
[ $# -gt 0 ] || ctest_args=(-LE 'apps-full|hang-full')
echo "== sanitizer build (ASan/UBSan): engine unit tests =="
ctest --test-dir build-asan --output-on-failure -j 2 "${ctest_args[@]}"
echo "== full build: all tests =="
ctest --test-dir build --output-on-failure -j 2 "${ctest_args[@]}"
