//===- CapturedOutput.h - The standard output of a helper program -*- C++ -*-===//
//
// The analysis asks small questions of other programs (python3 where torch
// is, what setup.py declares, where clang++ finds libstdc++): one way to run
// them and read their answer.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_CAPTUREDOUTPUT_H
#define OPMIG_SUPPORT_CAPTUREDOUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig {

/// Runs `Program` with `Argv` (argv[0] included), stdin and stderr empty,
/// and returns its standard output; nothing when it cannot be started, exits
/// non-zero or runs past `SecondsToWait` (0: no limit).
std::optional<std::string> captureOutput(llvm::StringRef Program,
                                         llvm::ArrayRef<llvm::StringRef> Argv,
                                         unsigned SecondsToWait = 0);

} // namespace opmig

#endif
