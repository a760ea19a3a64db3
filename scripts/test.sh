#!/usr/bin/env bash
# Installs missing system packages, builds, and runs the whole test suite.
# Exits with ctest's exit code, after ctest's summary and the tests' wall time.
#
#   bash scripts/test.sh               every tier this machine can run, but the corpus (label
#                                      corpus: real upstreams, hours; bench/README.md)
#   bash scripts/test.sh --fast        the fast tier: no torch, nvcc, slow or gpu test
#   bash scripts/test.sh --times FILE  also write ctest's JUnit (per-test times) to FILE,
#                                      for bench/suite_times.py
# Tiers are CTest labels (CONTRIBUTING.md, "Test tiers").
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

ctest_args=(--test-dir "$BUILD_DIR" --output-on-failure -j"$JOBS" --no-tests=error)
# The corpus of real operators (label corpus) fetches upstreams and takes hours: never here.
excluded='corpus'
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fast) excluded='torch|nvcc|slow|gpu|corpus' ;;
    --times)
      [[ $# -ge 2 ]] || die "--times needs a file name"
      ctest_args+=(--output-junit "$(realpath -m "$2")")
      shift
      ;;
    *) die "unknown argument '$1' (known: --fast, --times FILE)" ;;
  esac
  shift
done

ctest_args+=(--label-exclude "^($excluded)\$")

bash scripts/build.sh

log "running: ctest ${ctest_args[*]}"
start=$SECONDS
status=0
ctest "${ctest_args[@]}" || status=$?
log "tests finished in $((SECONDS - start)) s"
exit "$status"
