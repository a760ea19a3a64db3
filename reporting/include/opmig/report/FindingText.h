//===- FindingText.h - Findings as lines editors parse ----------*- C++ -*-===//
//
// The toolkit's one text form of a finding, the one compilers use, which
// editors, `grep -n`-style jump lists and CI annotators parse:
//
//   src/cache_dit/kernels/_attn.py:12:5: error: fake named _x [cache-dit-fake-naming]
//     fix: rename the function to _fake_merge_attn_states
//
// The line and column are left out when unknown (0).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_REPORT_FINDINGTEXT_H
#define OPMIG_REPORT_FINDINGTEXT_H

#include "opmig/support/Finding.h"

#include <string>
#include <vector>

namespace opmig::report {

/// `file[:line[:col]]: severity: message [id]`, without a newline.
std::string findingLine(const Finding &F);

/// findingLine(), ` (baselined)` for a baselined finding, a newline, and
/// the fix hint's line when there is one.
std::string renderFindingText(const Finding &F);

/// renderFindingText() of every finding that is not suppressed, in order.
std::string renderFindingsText(const std::vector<Finding> &Findings);

/// How many of `Findings` are in state `S`.
size_t countInState(const std::vector<Finding> &Findings, FindingState S);

} // namespace opmig::report

#endif
