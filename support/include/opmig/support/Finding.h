//===- Finding.h - One problem, whichever step found it ---------*- C++ -*-===//
//
// The toolkit's one diagnostic: an audit rule's violation, a review's
// `does-not-link`, a gate's failing rule test. Producers fill what they
// know; suppressions, baselines and the renderers of `opmig_reporting`
// (text, JSON, SARIF, JUnit) only ever see this type.
//
//   Finding F;
//   F.Id = "does-not-link";      // a rule id, a review kind
//   F.Producer = "review";
//   F.File = "csrc/rope.cu";
//   F.Line = 12;
//   F.Message = "undefined symbol rope_fwd, used by csrc/rope.cu";
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_FINDING_H
#define OPMIG_SUPPORT_FINDING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig {

enum class Severity { Note, Warning, Error };

/// `note`, `warning`, `error`.
const char *toString(Severity S);

/// `error`, `warning`, `note` into a Severity; nullopt otherwise.
std::optional<Severity> parseSeverity(llvm::StringRef Text);

enum class FindingState {
  New,       ///< Fails the run when at or above the failing severity.
  Baselined, ///< Listed in a baseline: reported, does not fail.
  Suppressed ///< An inline `opmig: allow(...)` with a reason covers it.
};

const char *toString(FindingState S); ///< `new`, `baselined`, `suppressed`.

struct Finding {
  /// What kind of problem: an audit rule's id (`cache-dit-fake-naming`), a
  /// review kind (`does-not-link`), kebab-case.
  std::string Id;
  Severity Level = Severity::Error;
  std::string Message; ///< Lower-case start, no trailing period.
  std::string File;    ///< Relative to the checked root, `/`-separated.
  unsigned Line = 0;   ///< 1-based; 0 when it is about the whole file or path.
  unsigned Column = 0; ///< 1-based; 0 when unknown.
  /// The step that found it (`audit`, `review`, `gate`), so that a list
  /// merged from several steps still says where each came from.
  std::string Producer;
  std::string Fix; ///< How to fix it; empty when there is no hint.
  /// Stable identity (FindingFingerprints.h): does not change when code
  /// above the finding moves.
  std::string Fingerprint;
  FindingState State = FindingState::New;
  std::string Reason; ///< The suppression's reason, for Suppressed.
  /// The id of the rule's exemption that covers it (the spec excepts this
  /// case); such findings are set apart, never reported as violations.
  std::string Exemption;
};

} // namespace opmig

#endif
