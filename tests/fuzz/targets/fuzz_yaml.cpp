// parseYamlAsJson: the reader of rule files, the validation-layers spec and
// .opmig.yaml (aliases, nesting, several documents, odd bytes).
#include "FuzzSupport.h"
#include "YamlJson.h"
#include "opmig/support/JsonText.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<opmig::audit::LocatedJson> Doc = opmig::audit::parseYamlAsJson(Text, "rule.yaml");
  if (!Doc) {
    llvm::consumeError(Doc.takeError());
    return 0;
  }
  (void)opmig::dumpJson(Doc->Value);
  (void)Doc->lineOf("/match/check");
  return 0;
}
