//===- Preamble.h - A shared precompiled header for external includes -*- C++ -*-===//
//
// The TUs of a torch extension start with the same external includes
// (`<torch/all.h>`, `<ATen/cuda/CUDAContext.h>`, ...), and a parse spends
// most of its time in them. The analysis precompiles the leading run of
// external includes its TUs share, once per flags and side, and parses each
// TU that starts with that run with `-include-pch`. A TU that starts with
// anything else (a macro, a tree header, other includes) parses without it,
// so that the facts stay those of a plain parse.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_PREAMBLE_H
#define OPMIG_ANALYZE_PREAMBLE_H

#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUParser.h"

#include <string>
#include <vector>

namespace opmig::analyze {

/// The external `#include`s a TU's text starts with, as written
/// (`<torch/all.h>`, `"cuda_fp16.h"`), in order: only comments and blank
/// lines may precede or separate them. The run stops at the first other
/// directive or code, and at the first include that resolves to a file of
/// the tree (through the TU's folder, then `Flags`' include directories).
std::vector<std::string> leadingExternalIncludes(const SourceFile &TU,
                                                 const std::vector<std::string> &Flags,
                                                 const TreeScope &Scope);

/// The run worth precompiling for TUs with these leading runs: among the
/// runs starting with the most common first include, their longest common
/// prefix. Empty when fewer than two TUs would share it.
std::vector<std::string> sharedRun(const std::vector<std::vector<std::string>> &Runs);

/// Whether `Run` starts with `Prefix` (and `Prefix` is not empty).
bool startsWithRun(const std::vector<std::string> &Run, const std::vector<std::string> &Prefix);

/// Whether flags rule a preamble out: `-include` and friends would be read
/// before the TU's own includes in a plain parse, but after the preamble.
bool flagsAllowPreamble(const std::vector<std::string> &Flags);

/// The preamble header's text for `Includes`.
std::string preambleHeaderText(const std::vector<std::string> &Includes);

struct PreambleBuild {
  bool Built = false;
  std::string Problem;                 ///< Why not, when not built.
  std::vector<std::string> InputFiles; ///< The headers it read, absolute.
};

/// Builds the PCH of `HeaderPath` (already written) at `PchPath` in process,
/// with `Like`'s flags, side and working directory. Any error, or a header
/// of the tree among its inputs, fails it.
PreambleBuild buildPreamble(const ParseRequest &Like, const std::string &HeaderPath,
                            const std::string &PchPath);

} // namespace opmig::analyze

#endif
