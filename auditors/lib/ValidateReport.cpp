//===- ValidateReport.cpp - Reading opmig.validate/1 ----------------------===//

#include "opmig/audit/ValidateReport.h"

#include "opmig/support/JsonText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace opmig::audit {

namespace {

const llvm::StringRef LayerNames[] = {"build",  "import",   "api",  "fake", "smoke",
                                      "parity", "boundary", "diff", "perf"};

/// `the validate report 'P' (<its spelling>) <Problem>`.
template <typename... Ts> llvm::Error refuse(const std::string &Path, const Ts &...Problem) {
  return inputError("the validate report '", Path, "'", inputs::ValidationReports, " ", Problem...);
}

std::string stringMember(const nlohmann::json &Object, const char *Key) {
  auto It = Object.find(Key);
  return It != Object.end() && It->is_string() ? It->get<std::string>() : "";
}

llvm::Expected<ValidateLayerStatus> readLayer(const nlohmann::json &Item, size_t Index,
                                              const std::string &Path) {
  if (!Item.is_object())
    return refuse(Path, "is malformed: layers[", std::to_string(Index), "] is not an object");
  ValidateLayerStatus L{stringMember(Item, "name"), stringMember(Item, "status"),
                        stringMember(Item, "reason")};
  if (L.Name.empty())
    return refuse(Path, "is malformed: layers[", std::to_string(Index), "] has no name");
  if (L.Status != "pass" && L.Status != "fail" && L.Status != "skip")
    return refuse(Path, "is malformed: layer ", L.Name, " has status '", L.Status,
                  "', not pass, fail or skip");
  return L;
}

llvm::Expected<ValidateReport> readReport(const nlohmann::json &Doc, const std::string &Path) {
  std::string Schema = Doc.is_object() ? stringMember(Doc, "schema") : "";
  if (Schema != ValidateReportSchema)
    return refuse(Path, "is not ", ValidateReportSchema,
                  Schema.empty() ? std::string(" (it names no schema)")
                                 : " (its schema is '" + Schema + "')",
                  "; give the JSON report of opmig validate");
  ValidateReport R;
  R.Path = Path;
  R.Domain = stringMember(Doc, "domain");
  R.Profile = stringMember(Doc, "profile");
  R.Target = stringMember(Doc, "target");
  if (R.Domain.empty())
    return refuse(Path, "is malformed: it names no domain");
  auto Layers = Doc.find("layers");
  if (Layers == Doc.end() || !Layers->is_array())
    return refuse(Path, "is malformed: it has no list of layers");
  for (size_t I = 0; I < Layers->size(); ++I) {
    llvm::Expected<ValidateLayerStatus> L = readLayer((*Layers)[I], I, Path);
    if (!L)
      return L.takeError();
    // Two verdicts on one layer could only be read one way by guessing.
    if (R.layer(L->Name))
      return refuse(Path, "is malformed: layer ", L->Name, " is listed twice");
    R.Layers.push_back(std::move(*L));
  }
  return R;
}

} // namespace

llvm::ArrayRef<llvm::StringRef> validateLayerNames() { return LayerNames; }

const ValidateLayerStatus *ValidateReport::layer(llvm::StringRef Name) const {
  auto It = llvm::find_if(Layers, [&](const ValidateLayerStatus &L) { return L.Name == Name; });
  return It == Layers.end() ? nullptr : &*It;
}

llvm::Expected<ValidateReport> parseValidateReport(llvm::StringRef Text, const std::string &Path) {
  llvm::Expected<nlohmann::json> Doc = parseJsonText(Text, Path);
  if (!Doc)
    return refuse(Path, "does not parse: ", llvm::toString(Doc.takeError()));
  return readReport(*Doc, Path);
}

llvm::Expected<ValidateReport> readValidateReport(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return refuse(Path, "cannot be read: ", Buffer.getError().message());
  return parseValidateReport((*Buffer)->getBuffer(), Path);
}

} // namespace opmig::audit
