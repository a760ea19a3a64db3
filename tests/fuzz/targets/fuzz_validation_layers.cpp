// loadValidationLayers: the review's spec of validation layers
// (rules/review/validation-layers.yaml, or `--layers FILE`).
#include "FuzzSupport.h"
#include "opmig/audit/ValidationCoverage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Path = opmig::fuzz::scratchDir() + "/layers.yaml";
  opmig::fuzz::writeFile(Path, Data, Size);
  opmig::fuzz::consume(opmig::audit::loadValidationLayers(Path));
  return 0;
}
