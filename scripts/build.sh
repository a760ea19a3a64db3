#!/usr/bin/env bash
# Installs missing system packages, configures with a CMake preset and builds.
# See scripts/common.sh for the environment variables it honours.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

bash scripts/install-deps.sh

log "configuring: cmake --preset $PRESET -B $BUILD_DIR"
cmake --preset "$PRESET" -B "$BUILD_DIR"

log "building in $BUILD_DIR with $JOBS jobs"
start=$SECONDS
cmake --build "$BUILD_DIR" --parallel "$JOBS"
log "build finished in $((SECONDS - start)) s"
