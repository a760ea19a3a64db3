// parseBaseline: `--baseline` files and `baseline:` of .opmig.yaml.
#include "FuzzSupport.h"
#include "opmig/audit/Baseline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  opmig::fuzz::consume(opmig::audit::parseBaseline(Text, "baseline.json"));
  return 0;
}
