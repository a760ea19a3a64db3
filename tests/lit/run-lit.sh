#!/bin/sh
# Runs one lit test for ctest: run-lit.sh LIT TOOLS_DIR TEST.
#
# Exits 77, which ctest reports as skipped, after saying why, when lit,
# FileCheck, split-file or not is missing, or when lit finds the test
# UNSUPPORTED here (a REQUIRES: feature the machine lacks): a test that did
# not run never counts as passed. A test lit reports XFAIL fails: an expected
# failure passes whatever makes it fail, a crash included (tests/README.md,
# known limits: such a test checks today's output instead).
lit=$1 tools=$2 test=$3

if [ ! -x "$lit" ]; then
  echo "skipped: lit not found (install llvm-22-tools: bash scripts/install-deps.sh)"
  exit 77
fi
for tool in FileCheck split-file not; do
  if [ ! -x "$tools/$tool" ]; then
    echo "skipped: $tools/$tool not found (install llvm-22-tools: bash scripts/install-deps.sh)"
    exit 77
  fi
done

# Times are not recorded: ctest runs several lit processes at once, and
# they would all rewrite the one times file of the suite.
out=$("$lit" -v --skip-test-time-recording "$test" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -eq 0 ] && printf '%s\n' "$out" | grep -q '^UNSUPPORTED: '; then
  echo "skipped: the test needs a feature this machine lacks (see its REQUIRES: line)"
  exit 77
fi
if printf '%s\n' "$out" | grep -q '^XFAIL: '; then
  echo "failed: an XFAIL test passes on any failure, a crash included; check today's output instead (tests/README.md, Known limits)"
  exit 1
fi
exit "$status"
