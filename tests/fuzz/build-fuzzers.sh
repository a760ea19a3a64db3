#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang++ into BUILD_DIR.
# Exit 77 (ctest: skipped) with the reason when the machine cannot build
# them, e.g. without libclang-rt-22-dev (Clang's libFuzzer runtime).
#   build-fuzzers.sh CLANGXX BUILD_DIR LLVM_ROOT
set -euo pipefail
CXX="$1" BUILD_DIR="$2" LLVM_ROOT="$3"
SRC="$(cd "$(dirname "$0")" && pwd)"

if [[ ! -x "$CXX" ]]; then
  echo "SKIP: no clang++ at $CXX; the fuzz targets need Clang's libFuzzer"
  exit 77
fi
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }\n' \
  >"$probe/probe.cpp"
if ! "$CXX" -fsanitize=fuzzer,address "$probe/probe.cpp" -o "$probe/probe" 2>"$probe/err"; then
  echo "SKIP: $CXX cannot link -fsanitize=fuzzer (install libclang-rt-22-dev):"
  cat "$probe/err"
  exit 77
fi
cmake -S "$SRC" -B "$BUILD_DIR" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" \
  -DOPMIG_LLVM_ROOT="$LLVM_ROOT" -DCMAKE_BUILD_TYPE=Fuzz >/dev/null
cmake --build "$BUILD_DIR" --parallel "${OPMIG_JOBS:-$(nproc)}"
