# shellcheck shell=bash
# Shared settings for scripts/*.sh. Sourced (not run) from the repository root.
#
# Environment:
#   OPMIG_PRESET      CMake configure preset (default: ci, an optimised build without debug
#                     information, the quickest to build; dev adds it)
#   OPMIG_BUILD_DIR   build directory (default: build; build-gpu for the gpu preset)
#   OPMIG_JOBS        parallel jobs for the build and ctest (default: nproc)
#   OPMIG_TORCH_DIR   where the pinned torch and its dependencies are installed
#                     (default: ~/.cache/opmig/torch-<scripts/torch-version>-full)

PRESET="${OPMIG_PRESET:-ci}"

if [[ -n "${OPMIG_BUILD_DIR:-}" ]]; then
  BUILD_DIR="$OPMIG_BUILD_DIR"
elif [[ "$PRESET" == gpu ]]; then
  BUILD_DIR=build-gpu
else
  BUILD_DIR=build
fi

JOBS="${OPMIG_JOBS:-$(nproc)}"

# The pinned PyPI torch the tests parse, verify, link against and import,
# installed with its dependencies by install-deps.sh into a folder of its own
# (reused by every clone).
TORCH_VERSION="$(cat "$(dirname "${BASH_SOURCE[0]}")/torch-version")"
TORCH_DIR="${OPMIG_TORCH_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opmig/torch-$TORCH_VERSION-full}"

# Exported so that scripts started from here (build.sh from test.sh) agree.
export OPMIG_PRESET="$PRESET" OPMIG_BUILD_DIR="$BUILD_DIR" OPMIG_JOBS="$JOBS" OPMIG_TORCH_DIR="$TORCH_DIR"

log() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*"; }
die() { printf '[%s] error: %s\n' "$(basename "$0" .sh)" "$*" >&2; exit 1; }
