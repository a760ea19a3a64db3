//===- AnalysisOptions.h - Options every closure-computing command takes -*- C++ -*-===//
//
// `analyze` and `migrate` both compute a closure, so they share `--source`,
// `--entry`, `-p`, the toolchain and cache options and the Clang arguments
// after `--`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_ANALYSISOPTIONS_H
#define OPMIG_TOOLS_ANALYSISOPTIONS_H

#include "CLI/CLI.hpp"
#include "opmig/analyze/Analyzer.h"

#include <string>
#include <vector>

namespace opmig {

struct AnalysisFlags {
  analyze::AnalyzeOptions Options;
  bool NoCache = false;
  bool Quiet = false;
};

/// Declares the shared options on `Sub`, storing into `Flags`.
void addAnalysisOptions(CLI::App &Sub, AnalysisFlags &Flags);

/// Completes `Flags.Options` after parsing: Clang arguments after `--`
/// (relative paths are meant from the current directory), the cache
/// directory and the progress display.
void finishAnalysisOptions(AnalysisFlags &Flags, const std::vector<std::string> &PassThrough);

} // namespace opmig

#endif
