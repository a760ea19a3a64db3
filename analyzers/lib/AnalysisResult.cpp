#include "opmig/analyze/AnalysisResult.h"

#include <algorithm>

namespace opmig::analyze {

bool isLinkable(SymbolKind K) {
  return K == SymbolKind::Function || K == SymbolKind::Kernel || K == SymbolKind::Variable;
}

const ClosureFile *AnalysisResult::file(const std::string &Path) const {
  auto It = std::find_if(Files.begin(), Files.end(),
                         [&](const ClosureFile &F) { return F.Path == Path; });
  return It == Files.end() ? nullptr : &*It;
}

const char *toString(SymbolKind K) {
  switch (K) {
  case SymbolKind::Kernel:
    return "kernel";
  case SymbolKind::Function:
    return "function";
  case SymbolKind::Template:
    return "template";
  case SymbolKind::Class:
    return "class";
  case SymbolKind::Enum:
    return "enum";
  case SymbolKind::Alias:
    return "alias";
  case SymbolKind::Variable:
    return "variable";
  case SymbolKind::Macro:
    return "macro";
  }
  return "unknown";
}

const char *toString(FileRole R) {
  switch (R) {
  case FileRole::Entry:
    return "entry";
  case FileRole::Registration:
    return "registration";
  case FileRole::Source:
    return "source";
  case FileRole::Header:
    return "header";
  }
  return "unknown";
}

Finding analysisFinding(const char *Id, Severity Level, std::string File, unsigned Line,
                        std::string Message) {
  Finding F;
  F.Id = Id;
  F.Level = Level;
  F.Message = std::move(Message);
  F.File = std::move(File);
  F.Line = Line;
  F.Producer = "analyze";
  return F;
}

Finding analysisWarning(const char *Id, std::string File, std::string Message) {
  return analysisFinding(Id, Severity::Warning, std::move(File), 0, std::move(Message));
}

const char *toString(ExternalClass C) {
  switch (C) {
  case ExternalClass::Cuda:
    return "cuda";
  case ExternalClass::Cccl:
    return "cccl";
  case ExternalClass::Torch:
    return "torch";
  case ExternalClass::Pybind11:
    return "pybind11";
  case ExternalClass::System:
    return "system";
  case ExternalClass::ThirdParty:
    return "third_party";
  case ExternalClass::Missing:
    return "missing";
  }
  return "unknown";
}

const std::vector<std::string> &AnalysisResult::nvccFlagsOf(const std::string &Path) const {
  auto It = TUNvccFlags.find(Path);
  return It != TUNvccFlags.end() ? It->second : UpstreamNvccFlags;
}

} // namespace opmig::analyze
