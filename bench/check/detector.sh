#!/bin/sh
# Prints the deadlock detector's figures (docs/design/check-detector.md §11).
# Usage: bench/check/detector.sh [build-dir] [quick]
# The build dir defaults to /tmp/build-deadlock (an engines-only RelWithDebInfo build).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-/tmp/build-deadlock}
mode=${2:-}
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$here" -B "$build" -DMPIGUARD_ENGINES_ONLY=ON >/dev/null
fi
cmake --build "$build" --target check_detector_bench -j2 >/dev/null
exec "$build/bench/check_detector_bench" $mode
