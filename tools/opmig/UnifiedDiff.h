//===- UnifiedDiff.h - `diff -u` between two texts --------------*- C++ -*-===//

#ifndef OPMIG_TOOLS_UNIFIEDDIFF_H
#define OPMIG_TOOLS_UNIFIEDDIFF_H

#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

/// The unified diff from `Old` to `New`, labelled `a/<Path>` and `b/<Path>`
/// (`/dev/null` for a side that does not exist), as the system's `diff -u`
/// prints it; empty when the texts are equal.
llvm::Expected<std::string> unifiedDiff(const std::string &Path, const std::string &Old,
                                        const std::string &New, bool OldExists, bool NewExists);

} // namespace opmig

#endif
