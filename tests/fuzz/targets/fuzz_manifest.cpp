// parseManifest: a manifest is read from the target, where anyone may edit
// it; an accepted one never names a path outside the target.
#include "FuzzSupport.h"
#include "opmig/support/Manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<opmig::Manifest> M = opmig::parseManifest(Text, "opmig-manifest.json");
  if (!M) {
    llvm::consumeError(M.takeError());
    return 0;
  }
  for (const auto &F : M->Files)
    if (!opmig::fuzz::isPlainRelative(F.TargetPath) ||
        !opmig::fuzz::isPlainRelative(F.UpstreamPath))
      std::abort();
  (void)opmig::serializeManifest(*M);
  return 0;
}
