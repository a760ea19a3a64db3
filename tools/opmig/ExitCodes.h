//===- ExitCodes.h - The documented exit codes of opmig ---------*- C++ -*-===//
//
// docs/user-guide.md#exit-codes lists these; tests pin each one.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_EXITCODES_H
#define OPMIG_TOOLS_EXITCODES_H

#include "InputSpellings.h"

#include "llvm/Support/Error.h"

namespace opmig {

enum ExitCode : int {
  ExitSuccess = 0,       ///< Done; nothing to report.
  ExitProblemsFound = 1, ///< The check ran and found problems (e.g. --verify failed).
  ExitBadInput = 2,      ///< Bad usage or bad input; the message says what to fix.
  ExitInternal = 3,      ///< A bug or an environment failure.
};

/// Prints `E` as `opmig: error: ...` on stderr and returns its exit code:
/// ExitBadInput for an InputError, ExitInternal otherwise. An InputError's
/// inputs are spelled as `Spellings`, the command's, say. The one place that
/// prints errors.
int reportError(llvm::Error E, const InputSpellings &Spellings);

} // namespace opmig

#endif
