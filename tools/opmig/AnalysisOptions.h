//===- AnalysisOptions.h - Options every closure-computing command takes -*- C++ -*-===//
//
// `analyze` and `migrate` both compute a closure, so they share `--source`,
// `--entry`, `-p`, the toolchain and cache options and the Clang arguments
// after `--`; `review` recomputes one and shares all but the first two.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_ANALYSISOPTIONS_H
#define OPMIG_TOOLS_ANALYSISOPTIONS_H

#include "CLI/CLI.hpp"
#include "InputSpellings.h"
#include "opmig/analyze/Analyzer.h"

#include <string>
#include <vector>

namespace opmig {

struct AnalysisFlags {
  analyze::AnalyzeOptions Options;
  bool NoCache = false;
  bool NoNvcc = false;
  bool NoPreamble = false;
  bool Quiet = false;
};

/// Declares the shared options on `Sub`, storing into `Flags`: `--source`,
/// `--entry` and the toolchain options; records their spellings.
void addAnalysisOptions(CLI::App &Sub, AnalysisFlags &Flags, InputSpellings &Spellings);

/// Declares only how to parse (`-p`, `-j`, the cache, `--cuda-path`,
/// `--torch-include`, `--gpu-arch`, `-q`): for commands that know the
/// source and the entries otherwise, like `review` from a manifest. The
/// arguments after `--` are spelled so too.
void addToolchainOptions(CLI::App &Sub, AnalysisFlags &Flags, InputSpellings &Spellings);

/// Completes `Flags.Options` after parsing: Clang arguments after `--`
/// (relative paths are meant from the current directory), the cache
/// directory and the progress display.
void finishAnalysisOptions(AnalysisFlags &Flags, const std::vector<std::string> &PassThrough);

} // namespace opmig

#endif
