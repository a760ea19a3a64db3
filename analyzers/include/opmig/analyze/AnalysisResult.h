//===- AnalysisResult.h - What `opmig analyze` computes ---------*- C++ -*-===//
//
// The minimal native closure of one or more operator entry points: the files
// and symbols that are needed, the files that stay behind, the external
// dependencies, and how the analysis went. Plain data: renderers live in the
// driver, so the library never prints.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_ANALYSISRESULT_H
#define OPMIG_ANALYZE_ANALYSISRESULT_H

#include "opmig/support/Finding.h"
#include "opmig/support/PythonEnvironment.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace opmig::analyze {

/// Version of the JSON document written by `opmig analyze --format json`.
/// Bump on any incompatible change; docs/analyze-json-schema.md describes it.
inline constexpr const char *AnalyzeSchemaVersion = "opmig.analyze/2";

enum class SymbolKind { Kernel, Function, Template, Class, Enum, Alias, Variable, Macro };
enum class FileRole { Entry, Registration, Source, Header };
enum class ExternalClass { Cuda, Cccl, Torch, Pybind11, System, ThirdParty, Missing };

const char *toString(SymbolKind K);
/// A definition the linker sees: functions, kernels and variables.
bool isLinkable(SymbolKind K);
const char *toString(FileRole R);
const char *toString(ExternalClass C);

/// A position in the analysed tree; `File` is relative to `--source`.
struct Location {
  std::string File;
  unsigned Line = 0;
};

struct ClosureSymbol {
  std::string Name; ///< Fully qualified, e.g. `demo::gemm::launch_gemm`.
  SymbolKind Kind = SymbolKind::Function;
  Location Loc; ///< Where it is defined.
};

/// An include a TU loses with its sibling definitions: the header it names
/// holds only what those siblings use, and stays behind.
struct DroppedInclude {
  unsigned Line = 0;
  std::string Spelling; ///< As written, e.g. `"fused/fused_bwd.h"`.
  std::string File;     ///< The header, relative to `--source`.
};

struct ClosureFile {
  std::string Path; ///< Relative to `--source`.
  FileRole Role = FileRole::Header;
  /// Qualified names of the needed symbols defined here; for a file needed
  /// only because a needed file includes it, `IncludedBy` says by which.
  std::vector<std::string> Symbols;
  /// Templates it explicitly instantiates for the entries (per-dtype TUs).
  std::vector<std::string> Instantiates;
  /// The needed specializations it provides, with their arguments
  /// (`tl::Launcher<float>::run`): which use pulled the file in.
  std::vector<std::string> Provides;
  std::vector<std::string> IncludedBy;
  /// Includes that `migrate` removes along with the file's siblings.
  std::vector<DroppedInclude> DroppedIncludes;
};

struct ExternalInclude {
  std::string Spelling; ///< As written, e.g. `cuda_fp16.h`.
  ExternalClass Class = ExternalClass::System;
  std::string ResolvedPath; ///< Empty when the header was not found.
  std::vector<Location> IncludedFrom;
  bool Optional = false; ///< Only probed through `__has_include`.
};

/// A definition in a closure file that the entries do not need, e.g. the
/// backward op living in the same binding TU as the forward entry.
struct SiblingDefinition {
  std::string Name;
  Location Loc;
  /// [Begin, End) bytes of the definition in its file; both 0 when a macro
  /// spreads it over several files.
  unsigned Begin = 0, End = 0;
  /// Symbols it references whose definitions are outside the closure: when
  /// non-empty, the closure does not link as copied.
  std::vector<std::string> MissingDependencies;
  /// Tree files outside the closure that it would drag in: the headers
  /// declaring what it uses, the TUs defining or providing it.
  std::vector<std::string> WouldNeed;
};

/// Ids of the analysis' findings (Producer `analyze`), one per kind of
/// problem; docs/user-guide.md lists them.
namespace finding_id {
inline constexpr const char *HostParseError = "host-parse-error";
inline constexpr const char *DeviceParseError = "device-parse-error";
inline constexpr const char *UnreadableTreeEntry = "unreadable-tree-entry";
inline constexpr const char *SkippedTreeEntry = "skipped-tree-entry";
inline constexpr const char *NotUtf8 = "not-utf8";
inline constexpr const char *DatabaseDirectoryMissing = "compile-database-directory-missing";
inline constexpr const char *NotInDatabase = "not-in-compile-database";
} // namespace finding_id

/// A finding of the analysis (Producer `analyze`) about `File` (relative to
/// the source root) at `Line` (0: the whole file).
Finding analysisFinding(const char *Id, Severity Level, std::string File, unsigned Line,
                        std::string Message);

/// A warning of the analysis about a file of the tree, from no parse.
Finding analysisWarning(const char *Id, std::string File, std::string Message);

/// nvcc's verdict on a TU that Clang rejected (see NvccCheck.h).
struct NvccJudgement {
  std::string TU;         ///< Relative to `--source`.
  bool Judged = false;    ///< False when nvcc was not asked (none found, or `--no-nvcc`).
  bool Accepted = false;  ///< nvcc compiles it: its Clang errors do not make the result partial.
  std::string FirstError; ///< nvcc's first error, or why it could not run.
};

struct StageTime {
  std::string Stage;
  double Seconds = 0;
};

struct AnalysisStats {
  unsigned FilesIndexed = 0;
  unsigned TUsInTree = 0;
  unsigned TUsParsed = 0;             ///< Distinct TUs whose AST was needed.
  std::vector<std::string> ParsedTUs; ///< Their relative paths, sorted.
  unsigned ParsesRun = 0;             ///< Host + device parses actually executed.
  unsigned ParsesCached = 0;          ///< Parses answered from the cache.
  unsigned ParsesWithPreamble = 0;    ///< Parses run with a shared preamble.
  std::vector<std::string> Preambles; ///< How each preamble was built or found.
  /// How many parses ran at once and why (the memory cap), once per cap.
  std::vector<std::string> Concurrency;
  std::vector<StageTime> Stages;
};

/// A tree function whose body calls an entry: for a kernel-level entry (one
/// taking the upstream's own `Tensor`), the torch-facing wrapper a user
/// most likely means.
struct EntryCaller {
  std::string Name; ///< Qualified.
  Location Loc;     ///< Its definition.
};

struct ResolvedEntry {
  std::string Requested;              ///< As given with `--entry`.
  std::string Function;               ///< The C++ function it resolved to.
  std::string Via;                    ///< `function`, `torch-op` or `pybind`.
  Location Loc;                       ///< The function's definition.
  std::vector<Location> RegisteredAt; ///< Registration calls binding it as an op.
  std::vector<EntryCaller> Callers;   ///< In the parsed TUs, by location.
  /// The schema of the upstream's own `def` of the op bound to it
  /// (`(Tensor(a!) out, Tensor x) -> ()`), and where; empty when it has none.
  std::string UpstreamSchema;
  Location UpstreamSchemaAt;
};

/// What `--verify` found by compiling the closure alone, in a scratch copy.
struct VerifyReport {
  bool Ran = false;
  /// `nvcc` or `clang`, the executable run, and why Clang built the closure
  /// when it did (`--no-nvcc`, or no nvcc found).
  std::string Compiler, CompilerPath, CompilerNote;
  bool Compiles = false;
  bool Links = false;
  /// `file: first error` per TU (and side) that failed to compile.
  std::vector<std::string> CompileFailures;
  /// Tree symbols left undefined when the objects are linked together.
  std::vector<std::string> UndefinedSymbols;
  /// What undefined symbols were resolved against: the runtime libraries
  /// found, or why the check fell back to the tree's own objects.
  std::string LinkedAgainst;
  /// With `--verify-minimal`: closure files whose removal changed nothing.
  bool MinimalityChecked = false;
  std::vector<std::string> UnneededFiles;
  std::string ScratchDir; ///< Kept only with `--keep-scratch`.

  bool passed() const { return Ran && Compiles && Links && UnneededFiles.empty(); }
};

struct AnalysisResult {
  std::string SourceRoot;
  std::vector<ResolvedEntry> Entries;
  std::vector<ClosureFile> Files;
  std::vector<ClosureSymbol> Symbols;
  std::vector<ExternalInclude> External;
  std::vector<std::string> LeftBehind;
  std::vector<ClosureSymbol> Unresolved; ///< Needed, declared, never defined.
  std::map<std::string, std::vector<SiblingDefinition>> Siblings; ///< Per file.
  bool LinksAsCopied = true;
  /// Whether the closure links once the sibling definitions in its TUs are
  /// left out, as `opmig migrate` leaves them out: false only for what the
  /// closure itself lacks (or cannot know, on a partial result).
  bool LinksAfterSlicing = true;
  std::vector<Finding> Diagnostics;
  /// Why the result may be incomplete; empty when every parse was clean or
  /// nvcc compiles every TU Clang rejected.
  std::vector<std::string> PartialReasons;
  std::vector<NvccJudgement> NvccJudged; ///< One per TU Clang rejected, by path.
  /// Flags inferred for the tree when no compile database was given, and
  /// the upstream build files they were read from (`setup.py`, ...).
  std::vector<std::string> InferredFlags;
  std::vector<std::string> InferredFrom;
  /// The nvcc flags the upstream build files give, as a migrated build
  /// carries them (UpstreamBuildFlags::NvccFlags).
  std::vector<std::string> UpstreamNvccFlags;
  /// Carried nvcc flags of each closure TU, by relative path: the compile
  /// database's for its entry, else the upstream build's.
  std::map<std::string, std::vector<std::string>> TUNvccFlags;
  /// The torch parsed against (and linked against by `--verify`).
  TorchInstall Torch;
  /// Clang flags (no side selection) of each closure TU, by relative path:
  /// what `--verify` compiles with.
  std::map<std::string, std::vector<std::string>> TUFlags;
  std::string GpuArch; ///< The device side that was parsed.
  /// Submodule directories inside the tree (relative): external, but
  /// `--verify` must see them where the closure's flags point.
  std::vector<std::string> SubmoduleDirs;
  /// Clang flags of the tree's other TUs, by relative path: where `--verify`
  /// looks for the provider of a symbol the closure leaves undefined.
  std::map<std::string, std::vector<std::string>> OtherTUFlags;
  std::string CudaPath; ///< The toolkit parsed against (its runtime is linked), or empty.
  /// USRs of the pointer fields any parsed TU writes through (a `Params`
  /// struct's outputs): what migrate's schema derivation reads to tell which
  /// tensor a data pointer stored in a field belongs to.
  std::set<std::string> WrittenPointerFields;
  VerifyReport Verify;
  AnalysisStats Stats;

  bool isPartial() const { return !PartialReasons.empty(); }
  /// The closure file at `Path` (relative), or null.
  const ClosureFile *file(const std::string &Path) const;
  /// The carried nvcc flags of the TU at `Path` (relative): its own,
  /// else the upstream build's.
  const std::vector<std::string> &nvccFlagsOf(const std::string &Path) const;
};

} // namespace opmig::analyze

#endif
