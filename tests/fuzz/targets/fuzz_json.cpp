// parseJsonText (profiles, manifests, journals, baselines), the located
// JSON of parseConfig (profiles) and the nesting guard in front of the
// compile-database reader; whatever parses must dump without throwing, even
// with bytes that are not UTF-8.
#include "FuzzSupport.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/JsonText.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  (void)opmig::jsonNestingDepth(Text);
  llvm::Expected<nlohmann::json> J = opmig::parseJsonText(Text, "fuzz.json");
  if (!J) {
    llvm::consumeError(J.takeError());
    return 0;
  }
  (void)opmig::hasInvalidUtf8(*J);
  llvm::Expected<opmig::ConfigDocument> Doc =
      opmig::parseConfig(Text, opmig::ConfigSyntax::Json, "fuzz.json", "profile");
  if (Doc)
    llvm::consumeError(Doc->root().allowKeys({"schema", "edits"}));
  else
    llvm::consumeError(Doc.takeError());
  std::string Out = opmig::dumpJson(*J, 1);
  if (!opmig::parseJsonText(Out, "again.json"))
    std::abort(); // What we write, we must read back.
  return 0;
}
