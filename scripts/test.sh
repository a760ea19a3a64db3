#!/usr/bin/env bash
# Installs missing system packages, builds, and runs the whole test suite.
# Exits with ctest's exit code; ctest's own summary is the last thing printed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

bash scripts/build.sh

log "running: ctest --test-dir $BUILD_DIR --output-on-failure -j$JOBS --no-tests=error"
exec ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS" --no-tests=error
