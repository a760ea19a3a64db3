#include "opmig/analyze/AnalysisResult.h"

namespace opmig::analyze {

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

const char *toString(AnalysisDiagnostic::Level L) {
  switch (L) {
  case AnalysisDiagnostic::Level::Note:
    return "note";
  case AnalysisDiagnostic::Level::Warning:
    return "warning";
  case AnalysisDiagnostic::Level::Error:
    return "error";
  }
  return "unknown";
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

} // namespace opmig::analyze
