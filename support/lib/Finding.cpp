//===- Finding.cpp - Names of severities and states -----------------------===//

#include "opmig/support/Finding.h"

namespace opmig {

const char *toString(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

std::optional<Severity> parseSeverity(llvm::StringRef Text) {
  for (Severity S : {Severity::Note, Severity::Warning, Severity::Error})
    if (Text == toString(S))
      return S;
  return std::nullopt;
}

const char *toString(FindingState S) {
  switch (S) {
  case FindingState::New:
    return "new";
  case FindingState::Baselined:
    return "baselined";
  case FindingState::Suppressed:
    return "suppressed";
  }
  return "new";
}

} // namespace opmig
