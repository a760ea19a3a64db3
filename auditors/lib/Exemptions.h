//===- Exemptions.h - Reading a rule's `exemptions` -------------*- C++ -*-===//
//
// The cases a spec itself excepts from one of its rules ("the migrated SVDQ
// tree keeps its upstream `svdq::` namespace") are data in the rule file,
// each quoting the sentence that grants it, not special cases in checkers:
//
//   exemptions:
//     - id: svdq-upstream-namespace
//       paths: ["csrc/kernels/svdq/**"]
//       captures: {actual: "^namespace svdq"}
//       spec: "The migrated SVDQ tree keeps its upstream `svdq::` namespace ..."
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_EXEMPTIONS_H
#define OPMIG_AUDIT_EXEMPTIONS_H

#include "opmig/audit/Rule.h"
#include "opmig/support/ConfigNode.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace opmig::audit {

/// The `exemptions` of a rule document's top node (none when the key is
/// absent). InputError `<file>:<line>:<col>: <problem>` for a missing `id` or `spec`, an
/// exemption that names no path, outside or capture, a bad glob or regex, a
/// duplicate id or an unknown key.
llvm::Expected<std::vector<Exemption>> readExemptions(const ConfigNode &RuleTop);

} // namespace opmig::audit

#endif
