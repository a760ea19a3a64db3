#!/usr/bin/env bash
# Builds a generic-profile domain (the CMake project `opmig migrate --profile generic` writes)
# with nvcc against the torch that python3 imports, for TORCH_CUDA_ARCH_LIST (default 9.0a,
# the H200). Runs on the GPU machine, which has no LLVM: nothing of opmig itself is built.
#   bash scripts/gpu-build-generic.sh <native_dir> <build_dir>
set -euo pipefail
native_dir="$1"
build_dir="$2"
prefix="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0a}"
start=$SECONDS
cmake -S "$native_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="${CUDACXX:-/usr/local/cuda/bin/nvcc}" >/dev/null
cmake --build "$build_dir" --parallel
echo "[gpu-build-generic] built in $((SECONDS - start)) s for TORCH_CUDA_ARCH_LIST=$TORCH_CUDA_ARCH_LIST"
