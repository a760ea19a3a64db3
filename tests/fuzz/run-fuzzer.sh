#!/usr/bin/env bash
# Runs one fuzz target for a bounded time over its checked-in corpus.
#   run-fuzzer.sh BUILD_DIR NAME SECONDS
# The checked-in corpus (tests/fuzz/corpus/NAME) is only read: new inputs
# go to BUILD_DIR/corpus/NAME, crashes to BUILD_DIR/crashes/. Exit 77
# (ctest: skipped) when the target was not built, saying why.
set -euo pipefail
BUILD_DIR="$1" NAME="$2" SECONDS_="$3"
SRC="$(cd "$(dirname "$0")" && pwd)"
BIN="$BUILD_DIR/$NAME"
if [[ ! -x "$BIN" ]]; then
  echo "SKIP: $BIN was not built (see the fuzz-build test's output for why)"
  exit 77
fi
mkdir -p "$BUILD_DIR/corpus/$NAME" "$BUILD_DIR/crashes"
# Leaks in LLVM's process-lifetime singletons are not what this looks for.
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
# libFuzzer's own exit code for a crash is 77, which ctest would read as
# "skipped": a finding must fail the test.
exec "$BIN" -max_total_time="$SECONDS_" -error_exitcode=1 -timeout_exitcode=1 -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -artifact_prefix="$BUILD_DIR/crashes/$NAME-" \
  "$BUILD_DIR/corpus/$NAME" "$SRC/corpus/$NAME"
