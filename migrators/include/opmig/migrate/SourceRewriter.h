//===- SourceRewriter.h - Port closure files into the target layout -*- C++ -*-===//
//
// Produces the migrated text of every closure file, through Clang
// (tooling::Replacements computed on the AST and the preprocessor, never by
// searching text):
//
//   namespace sample_ops {            namespace cache_dit::attn {
//   void launch();              ->    void launch();
//   }                                 }
//   void sample_ops::launch() {}      void cache_dit::attn::launch() {}
//   #include "../common/checks.h"     #include "attn/common/checks.h"
//   int entry(at::Tensor x);          namespace cache_dit::attn {
//                                     int entry(at::Tensor x);
//                                     } // namespace cache_dit::attn
//
// Every reference follows a rename: qualified names, out-of-line
// definitions, using-declarations and -directives, namespace aliases,
// template specializations, friend and forward declarations. A name that
// cannot be rewritten safely (made by token pasting, spelled in a disabled
// `#if` branch, a namespace opened in pieces) is reported with its location,
// never left silently. Definitions the entries do not need (sibling ops in a
// shared TU) are left out of the copy, with their comments.
//
// How: every ported TU is parsed (host, and device for CUDA TUs); headers
// are rewritten through the TUs that include them, and a ported header no
// TU includes is parsed on its own, included from a probe file compiled with
// the flags of the first ported TU. The edits of all parses are unioned per
// file (identical ones once; disagreeing ones are a blocking issue). Each
// parse's record is cached beside the analysis' facts (RewriteCache.h), and
// a parse that runs uses the analysis' shared preamble where it applies.
//
// Names left behind: after the edits, each output file is raw-lexed (every
// `#if` branch) and each identifier that named a renamed namespace and no
// longer does (`sample_ops` for `sample_ops=cache_dit::attn`) is checked,
// outside comments, strings and include names. One the AST accounts for (a
// relative spelling kept on purpose, a variable or member that merely shares
// the name) is fine. Any other is an
// issue at its upstream line: not blocking when no parse saw that code (an
// `#if` branch none entered, a macro none expanded), since the migration
// then compiles as the parses did and the name only matters if that branch
// is built; blocking anywhere else (a stringized name, for instance), since
// compiled code would then still name the old namespace.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_SOURCEREWRITER_H
#define OPMIG_MIGRATE_SOURCEREWRITER_H

#include "opmig/analyze/AnalysisResult.h"
#include "opmig/support/Finding.h"
#include "opmig/support/Manifest.h"
#include "opmig/support/NamespaceRename.h"

#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace opmig::migrate {

/// `From` and `To` are qualified namespace names without a leading `::`,
/// e.g. `nunchaku::kernels` -> `svdq::kernels`.
enum class IncludeStyle {
  RelativeToRoot, ///< `"attn/common/checks.h"`, spelled from `IncludeRoot`.
  RelativeToFile, ///< `"../common/checks.h"`, spelled from the includer.
};

struct RewriteRequest {
  std::string SourceRoot; ///< Absolute real path of the upstream tree.
  /// Files to port: upstream path -> target path, both relative (to
  /// `SourceRoot` and to the target root).
  std::map<std::string, std::string> FileMap;
  /// Clang flags of each TU to parse, by upstream relative path (as in
  /// AnalysisResult::TUFlags); every ported TU has an entry.
  std::map<std::string, std::vector<std::string>> TUFlags;
  std::vector<std::string> ExtraArgs;    ///< Appended to every parse.
  std::vector<std::string> ExternalDirs; ///< Submodules: external, never rewritten.
  std::string GpuArch = "sm_90";         ///< Device side of CUDA TUs.
  std::vector<NamespaceRename> Renames;
  /// Target namespace that wraps the closure's global-namespace code, e.g.
  /// `cache_dit::attn`; empty leaves global code where it is.
  std::string WrapGlobalInto;
  IncludeStyle Includes = IncludeStyle::RelativeToRoot;
  std::string IncludeRoot; ///< Target-relative directory, for RelativeToRoot.
  /// Definitions to leave out, by upstream relative path.
  std::map<std::string, std::vector<analyze::SiblingDefinition>> DropDefinitions;
  /// Lines of the includes to leave out with those definitions (headers
  /// only they use, which are not ported), by upstream relative path.
  std::map<std::string, std::set<unsigned>> DropIncludeLines;
  /// Comment line(s) put first in each file, by upstream relative path.
  std::map<std::string, std::string> Headers;
  /// Flags of the tree's other TUs (AnalysisResult::OtherTUFlags): the
  /// shared preamble's run is chosen over every TU, as the analysis does.
  std::map<std::string, std::vector<std::string>> OtherTUFlags;
  /// The analysis' cache folder (AnalyzeOptions::CacheDir): each parse's
  /// record is kept there, keyed like the analysis' facts; empty: none.
  std::string CacheDir;
  /// Parse with the analysis' shared precompiled preamble where it applies
  /// (AnalyzeOptions::UsePreamble); the records are the same.
  bool UsePreamble = true;
  unsigned Jobs = 0; ///< Parallel parses; 0 means one per core.
};

/// How the rewrite's parses went, for `--verbose` and the JSON report.
struct RewriteStats {
  unsigned ParsesRun = 0;             ///< Clang parses actually executed.
  unsigned ParsesCached = 0;          ///< Records read from the cache instead.
  unsigned ParsesWithPreamble = 0;    ///< Of those run, with a shared preamble.
  std::vector<std::string> Preambles; ///< How each preamble was found or built.
  /// Why the parses (and preamble builds) ran as many at once as they did:
  /// the memory cap of ParseBudget.h, as the analysis says it.
  std::vector<std::string> Concurrency;
};

struct RewrittenFile {
  std::string UpstreamPath;
  std::string TargetPath;
  std::string Content;
  unsigned Replacements = 0;
  std::vector<std::string> DroppedDefinitions; ///< Qualified names left out.
  /// The upstream stretches left out (definitions and the includes only
  /// they needed), in upstream offsets, sorted by where they begin.
  std::vector<LeftOutRange> LeftOut;
};

struct RewriteResult {
  std::vector<RewrittenFile> Files; ///< In FileMap order.
  /// Code the rewrite could not port as it should, located upstream; an
  /// error blocks the migration (the port would not compile or would be
  /// wrong).
  std::vector<Finding> Issues;
  RewriteStats Stats;
};

/// Rewrites every file of `Request.FileMap`. Fails only when a file cannot
/// be read or a TU cannot be parsed at all; code problems become issues.
llvm::Expected<RewriteResult> rewriteSources(const RewriteRequest &Request);

/// The name `Qualified` (an upstream declaration, no leading `::`) has
/// after the renames and the wrapping: `sample_ops::f` with
/// `sample_ops=cache_dit::attn` gives `cache_dit::attn::f`; a global `f`
/// with WrapGlobalInto `cache_dit::attn` gives `cache_dit::attn::f`. The
/// longest matching rename wins.
std::string renamedQualifiedName(const std::string &Qualified,
                                 const std::vector<NamespaceRename> &Renames,
                                 const std::string &WrapGlobalInto);

} // namespace opmig::migrate

#endif
