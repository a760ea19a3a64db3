//===- TUParser.h - Extract TUFacts from one Clang parse --------*- C++ -*-===//
//
// Runs the Clang frontend on one translation unit for one side (host, or
// device for one GPU architecture) and returns the facts about code inside
// the source tree. Code behind `#if __CUDA_ARCH__` is only seen by a device
// parse, so CUDA TUs are parsed once per side and the facts merged.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_TUPARSER_H
#define OPMIG_ANALYZE_TUPARSER_H

#include "opmig/analyze/TUFacts.h"

#include <string>
#include <vector>

namespace opmig::analyze {

struct ParseRequest {
  std::string MainFile;                  ///< Absolute path.
  std::string SourceRoot;                ///< Absolute real path; facts cover files under it,
  std::vector<std::string> ExternalDirs; ///< except those under these (submodules).
  ParseSide Side = ParseSide::Host;
  std::string GpuArch = "sm_90"; ///< For the device side.
  /// Clang flags (see CompileFlags.h), without side selection or input.
  std::vector<std::string> Flags;
  std::string Directory; ///< Working directory of the compile.
  /// A precompiled preamble (Preamble.h) to parse with, and the headers it
  /// read. Not part of the command line: a parse with it has the facts of
  /// a parse without it, so both share one cache entry.
  std::string PreamblePch;
  std::string PreambleHeader; ///< The header it precompiles.
  std::vector<std::string> PreambleInputs;
};

/// The full command line the parser runs, also used by `--verify` and the
/// benchmark's `-fsyntax-only` baseline so that all three see the same code.
std::vector<std::string> parseCommandLine(const ParseRequest &Request);

/// Parses one TU (with `PreamblePch` when set). Never fails: code Clang rejects becomes diagnostics
/// in the result (the AST Clang recovered is still used), and a frontend that could not run at all
/// leaves `Completed` false.
TUFacts parseTranslationUnit(const ParseRequest &Request);

} // namespace opmig::analyze

#endif
