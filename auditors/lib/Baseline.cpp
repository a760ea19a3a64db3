//===- Baseline.cpp - Known findings that do not fail ---------------------===//

#include "opmig/audit/Baseline.h"

#include "nlohmann/json.hpp"
#include "opmig/audit/Audit.h"
#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>

namespace opmig::audit {

std::string serializeBaseline(const std::vector<Finding> &Findings) {
  // Keyed by fingerprint: sorted, one entry per fingerprint.
  std::map<std::string, const Finding *> Known;
  for (const Finding &F : Findings)
    if (F.State != FindingState::Suppressed)
      Known.try_emplace(F.Fingerprint, &F);
  nlohmann::json Entries = nlohmann::json::array();
  for (auto &[Fingerprint, F] : Known)
    Entries.push_back({{"fingerprint", Fingerprint}, {"rule", F->Id}, {"file", F->File}});
  nlohmann::ordered_json Doc;
  Doc["schema"] = BaselineSchemaVersion;
  Doc["findings"] = Entries;
  return dumpJson(Doc, 2) + "\n";
}

llvm::Expected<std::set<std::string>> parseBaseline(llvm::StringRef Text,
                                                    const std::string &Origin) {
  llvm::Expected<nlohmann::json> Parsed = parseJsonText(Text, Origin);
  if (!Parsed)
    return inputError("cannot read the baseline", inputs::BaselinePath, ": ",
                      llvm::toString(Parsed.takeError()));
  try {
    const nlohmann::json &Doc = *Parsed;
    if (!Doc.is_object() || Doc.value("schema", "") != BaselineSchemaVersion)
      return inputError("the baseline '", Origin, "'", inputs::BaselinePath, " is not an ",
                        BaselineSchemaVersion, " document; record one from the audit's findings",
                        inputs::WriteBaseline);
    std::set<std::string> Known;
    for (const nlohmann::json &Entry : Doc.at("findings"))
      Known.insert(Entry.at("fingerprint").get<std::string>());
    return Known;
  } catch (const nlohmann::json::exception &E) {
    return inputError("cannot read the baseline '", Origin, "'", inputs::BaselinePath, ": ",
                      E.what());
  }
}

llvm::Expected<std::set<std::string>> readBaseline(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return inputError("cannot read the baseline '", Path, "'", inputs::BaselinePath, ": ",
                      Buffer.getError().message());
  return parseBaseline((*Buffer)->getBuffer(), Path);
}

void applyBaseline(const std::set<std::string> &Known, std::vector<Finding> &Findings) {
  for (Finding &F : Findings)
    if (F.State == FindingState::New && Known.count(F.Fingerprint))
      F.State = FindingState::Baselined;
}

} // namespace opmig::audit
