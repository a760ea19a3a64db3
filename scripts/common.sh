# shellcheck shell=bash
# Shared settings for scripts/*.sh. Sourced (not run) from the repository root.
#
# Environment:
#   OPMIG_PRESET      CMake configure preset (default: ci when $CI is set, else dev)
#   OPMIG_BUILD_DIR   build directory (default: build; build-gpu for the gpu preset)
#   OPMIG_JOBS        parallel jobs for the build and ctest (default: nproc)

if [[ -n "${OPMIG_PRESET:-}" ]]; then
  PRESET="$OPMIG_PRESET"
elif [[ -n "${CI:-}" ]]; then
  PRESET=ci
else
  PRESET=dev
fi

if [[ -n "${OPMIG_BUILD_DIR:-}" ]]; then
  BUILD_DIR="$OPMIG_BUILD_DIR"
elif [[ "$PRESET" == gpu ]]; then
  BUILD_DIR=build-gpu
else
  BUILD_DIR=build
fi

JOBS="${OPMIG_JOBS:-$(nproc)}"

# Exported so that scripts started from here (build.sh from test.sh) agree.
export OPMIG_PRESET="$PRESET" OPMIG_BUILD_DIR="$BUILD_DIR" OPMIG_JOBS="$JOBS"

log() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*"; }
die() { printf '[%s] error: %s\n' "$(basename "$0" .sh)" "$*" >&2; exit 1; }
