//===- OutputFile.h - Write a result whole or not at all --------*- C++ -*-===//

#ifndef OPMIG_TOOLS_OUTPUTFILE_H
#define OPMIG_TOOLS_OUTPUTFILE_H

#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

/// Writes `Content` to `Path` through a temporary file renamed into place,
/// so readers never see a partial file; `-` means stdout.
llvm::Error writeOutput(const std::string &Path, const std::string &Content);

} // namespace opmig

#endif
