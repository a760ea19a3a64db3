// parseConfig for YAML: the reader of rule files, the validation-layers spec
// and .opmig.yaml (aliases, nesting, several documents, odd bytes), and the
// typed reads every reader makes on what it yields.
#include "FuzzSupport.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/JsonText.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<opmig::ConfigDocument> Doc =
      opmig::parseConfig(Text, opmig::ConfigSyntax::Yaml, "rule.yaml", "rule");
  if (!Doc) {
    llvm::consumeError(Doc.takeError());
    return 0;
  }
  (void)opmig::dumpJson(Doc->value());
  opmig::ConfigNode Root = Doc->root();
  llvm::consumeError(Root.allowKeys({"id", "match"}));
  for (const opmig::ConfigNode &Member : Root.members())
    llvm::consumeError(Member.strings().takeError());
  (void)Root.member("match").member("check").location();
  return 0;
}
