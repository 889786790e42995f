#!/usr/bin/env bash
# README command 1: installs what mpiguard needs (Debian packages), builds it, runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/mpiguard demo --output-dir build/demo
