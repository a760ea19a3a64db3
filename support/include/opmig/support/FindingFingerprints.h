//===- FindingFingerprints.h - Identities that survive edits ----*- C++ -*-===//
//
// A finding's line number changes whenever code above it moves; its id,
// file and the text that anchors it (its line's text, or its message when
// it is about a whole file) do not. Baselines and SARIF's
// `partialFingerprints` key on this identity, so every producer computes it
// here, the same way.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_FINDINGFINGERPRINTS_H
#define OPMIG_SUPPORT_FINDINGFINGERPRINTS_H

#include "opmig/support/Finding.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace opmig {

/// The text that identifies a finding beside its id and file.
using FingerprintAnchor = llvm::function_ref<std::string(const Finding &)>;

/// Sets each finding's Fingerprint: the first 16 hex digits of the sha256
/// of its id, file, anchor and the occurrence index of that (id, file,
/// anchor) triple, counted in file/line/column/id order whatever order
/// `Findings` has. Two identical lines in one file (two `def _(...)`) stay
/// apart, and the index too survives edits elsewhere in the file.
void assignFingerprints(std::vector<Finding> &Findings, FingerprintAnchor Anchor);

/// The anchor of findings that have no source line to quote: the message.
std::string messageAnchor(const Finding &F);

} // namespace opmig

#endif
