//===- LeftOutBlanking.h - An upstream TU less what migrate left out -*- C++ -*-===//
//
// migrate copies a TU without the sibling definitions the entries do not
// need (and their registration blocks and includes), and records those
// stretches in the manifest (`left_out`). The upstream build of `opmig
// validate --source` compiles a copy of such a TU with the same stretches
// blanked: every byte but a newline becomes a space, so the compiler's
// line numbers are the upstream file's, and the library needs no more of
// the tree than the port does (a sibling's kernel in a TU outside the
// closure would otherwise be an undefined symbol at load time).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LEFTOUTBLANKING_H
#define OPMIG_VALIDATE_LEFTOUTBLANKING_H

#include "opmig/support/Manifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::validate {

/// `Text` (the upstream file `File`) with `Ranges` blanked. InputError,
/// naming the range, when one does not fit the text: past its end, on other
/// lines than the manifest says, or an include range without that include.
llvm::Expected<std::string>
blankLeftOut(llvm::StringRef Text, const std::vector<LeftOutRange> &Ranges, llvm::StringRef File);

/// `lines 12-40 (ns::fwd, ns::bwd); line 3 (#include "x.h")`, for notes.
std::string describeLeftOut(const std::vector<LeftOutRange> &Ranges);

} // namespace opmig::validate

#endif
