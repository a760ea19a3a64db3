//===- Finding.cpp - Names of severities and states -----------------------===//

#include "opmig/audit/Finding.h"

namespace opmig::audit {

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

} // namespace opmig::audit
