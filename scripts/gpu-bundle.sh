#!/usr/bin/env bash
# Packs what `opmig validate` needs on the GPU machine, which has nvcc, torch,
# CMake and Python but no LLVM (so opmig cannot be built there): an `opmig`
# built here with OPMIG_ENABLE_CLANG=OFF (the `validate` command only) and the
# Debian packages of the LLVM runtime it links, into .gpu-bundle/ (ignored by
# git). Carry `.gpu-bundle` to the GPU machine and run `.gpu-bundle/opmig
# validate ...` there; it unpacks the packages beside itself on first use
# (docs/gpu-runs.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/common.sh
source scripts/common.sh

bash scripts/install-deps.sh

build=build-validate-only
out=.gpu-bundle
# DT_RPATH (not RUNPATH) so that libLLVM's own dependencies are found in the
# bundle too, and only by opmig: its children (nvcc, cmake, python3) keep the
# machine's libraries.
# (Each `$` escaped for the shell that runs the link.)
libs='\$ORIGIN/root/usr/lib/x86_64-linux-gnu:\$ORIGIN/root/lib/x86_64-linux-gnu'
log "configuring $build: opmig without Clang"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOPMIG_ENABLE_CLANG=OFF \
  -DOPMIG_BUILD_TESTS=OFF "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--disable-new-dtags -Wl,-rpath,$libs" >/dev/null
cmake --build "$build" --target opmig --parallel "$JOBS"

rm -rf "$out"
mkdir -p "$out/debs"
cp "$build/tools/opmig/opmig" "$out/opmig-bin"
# libLLVM and what it links beyond a CUDA image's base system.
(cd "$out/debs" && apt-get download libllvm22 libz3-4 libedit2 libbsd0 libmd0 >/dev/null 2>&1)
cat >"$out/opmig" <<'WRAPPER'
#!/usr/bin/env bash
# opmig (validate only) with the LLVM runtime of the packages beside it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ ! -d "$here/root" ]]; then
  for deb in "$here"/debs/*.deb; do dpkg -x "$deb" "$here/root.partial"; done
  # libLLVM finds its own dependencies through its RUNPATH, $ORIGIN/../lib.
  ln -s x86_64-linux-gnu "$here/root.partial/usr/lib/lib"
  mv "$here/root.partial" "$here/root"
fi
exec "$here/opmig-bin" "$@"
WRAPPER
chmod +x "$out/opmig"
log "bundle in $out: $(du -sh "$out" | cut -f1); carry it and run $out/opmig validate ... on the GPU machine"
