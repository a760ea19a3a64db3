//===- OutputFile.h - Write a result whole or not at all --------*- C++ -*-===//

#ifndef OPMIG_TOOLS_OUTPUTFILE_H
#define OPMIG_TOOLS_OUTPUTFILE_H

#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

/// Writes `Content` to `Path` through a temporary file renamed into place,
/// so readers never see a partial file; `-` means stdout. What is not a
/// plain file (`/dev/null`, a FIFO, a symlink) is written in place: a rename
/// would replace it, and as root `-o /dev/null` would turn the null device
/// into a regular file.
llvm::Error writeOutput(const std::string &Path, const std::string &Content);

} // namespace opmig

#endif
