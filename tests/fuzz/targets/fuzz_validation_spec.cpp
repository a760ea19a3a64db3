// readValidationSpec: the validation spec beside a migration's manifest,
// which the user edits (YAML here; JSON goes through the same reader).
#include "FuzzSupport.h"
#include "opmig/support/ValidationSpec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Path = opmig::fuzz::scratchDir() + "/spec.yaml";
  opmig::fuzz::writeFile(Path, Data, Size);
  llvm::Expected<opmig::ValidationSpec> Spec = opmig::readValidationSpec(Path);
  // What reads must write and read back: the writer is the reader's twin.
  if (Spec && !opmig::parseValidationSpec(opmig::serializeValidationSpec(*Spec),
                                          opmig::ConfigSyntax::Json, "again.json"))
    std::abort();
  opmig::fuzz::consume(std::move(Spec));
  return 0;
}
