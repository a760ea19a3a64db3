//===- Finding.h - One policy violation, wherever it came from --*- C++ -*-===//
//
// Every checker (path, text, doc-reference, C++, Python) reports Findings;
// suppressions, baselines and the renderers (text, JSON, SARIF, JUnit) only
// ever see this one type.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_FINDING_H
#define OPMIG_AUDIT_FINDING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig::audit {

enum class Severity { Note, Warning, Error };

/// `note`, `warning`, `error`.
const char *toString(Severity S);

/// `error`, `warning`, `note` into a Severity; nullopt otherwise.
std::optional<Severity> parseSeverity(llvm::StringRef Text);

enum class FindingState {
  New,       ///< Fails the audit when at or above the failing severity.
  Baselined, ///< Listed in `--baseline`: reported, does not fail.
  Suppressed ///< An inline `opmig: allow(...)` with a reason covers it.
};

const char *toString(FindingState S); ///< `new`, `baselined`, `suppressed`.

struct Finding {
  std::string RuleId;
  Severity Level = Severity::Error;
  std::string File;  ///< Relative to the audited root, `/`-separated.
  unsigned Line = 0; ///< 1-based; 0 when the finding is about the whole file or path.
  unsigned Column = 0;
  std::string Message; ///< Lower-case start, no trailing period.
  std::string Fix;     ///< How to fix it.
  /// Stable identity (see computeFingerprints in Audit.h): does not change
  /// when code above the finding moves.
  std::string Fingerprint;
  FindingState State = FindingState::New;
  std::string Reason; ///< The suppression's reason, for Suppressed.
  /// The id of the rule's exemption that covers it (the spec excepts this
  /// case); such findings are set apart, never reported as violations.
  std::string Exemption;
};

} // namespace opmig::audit

#endif
