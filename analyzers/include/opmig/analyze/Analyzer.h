//===- Analyzer.h - The `opmig analyze` pipeline ----------------*- C++ -*-===//
//
// read tree -> token index -> parse the TUs that can define the entries ->
// resolve entries -> closure; while the closure needs symbols no parsed TU
// defines (or templates instantiated elsewhere), parse the TUs that mention
// them and recompute. Parses run in parallel and are cached per TU.
//
//   AnalyzeOptions Opts;
//   Opts.SourceRoot = "upstream";
//   Opts.Entries = {"merge_attn_states"};
//   llvm::Expected<AnalysisResult> R = analyzeClosure(Opts);
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_ANALYZER_H
#define OPMIG_ANALYZE_ANALYZER_H

#include "opmig/analyze/AnalysisResult.h"
#include "opmig/support/Errors.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace opmig::analyze {

/// Reported as each parse finishes; calls are serialized.
struct Progress {
  unsigned Done = 0, Total = 0;
  std::string Current; ///< Relative path of the TU that finished.
};

struct AnalyzeOptions {
  std::string SourceRoot;
  std::vector<std::string> Entries;
  std::string BuildDir;               ///< `-p`: holds compile_commands.json.
  std::vector<std::string> ExtraArgs; ///< After `--`, appended to every parse.
  std::string CudaPath;               ///< Empty: $CUDA_HOME or /usr/local/cuda.
  std::vector<std::string> TorchIncludeDirs;
  std::string GpuArch;  ///< Device side; empty: the database's, else sm_90.
  unsigned Jobs = 0;    ///< Parallel parses; 0 means one per core.
  std::string CacheDir; ///< Empty disables the cache.
  /// Ask nvcc about TUs Clang rejects (NvccCheck.h); off, Clang's errors
  /// always make the result partial.
  bool JudgeWithNvcc = true;
  /// Parse TUs that start with the same external includes with a shared
  /// precompiled preamble of them (Preamble.h); the facts are the same.
  bool UsePreamble = true;
  std::function<void(const Progress &)> OnProgress;
};

/// The options of AnalyzeOptions that the analysis' messages name (see
/// InputName in Errors.h).
namespace inputs {
inline constexpr InputName SourceRoot{"analyze.SourceRoot"};
inline constexpr InputName Entries{"analyze.Entries"};
inline constexpr InputName BuildDir{"analyze.BuildDir"};
inline constexpr InputName ExtraArgs{"analyze.ExtraArgs"};
inline constexpr InputName CudaPath{"analyze.CudaPath"};
inline constexpr InputName TorchIncludeDirs{"analyze.TorchIncludeDirs"};
inline constexpr InputName GpuArch{"analyze.GpuArch"};
} // namespace inputs

/// Computes the closure. Fails with an InputError for bad input (see
/// Errors.h); code that Clang rejects is not an error but makes the result
/// partial.
llvm::Expected<AnalysisResult> analyzeClosure(const AnalyzeOptions &Options);

} // namespace opmig::analyze

#endif
