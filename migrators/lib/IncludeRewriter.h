//===- IncludeRewriter.h - Respell includes for the target layout -*- C++ -*-===//
//
// Every `#include` of a ported file that names another ported file is
// respelled for where both land, however upstream spelled it:
//
//   upstream csrc/attention/merge.cu -> attn/merge.cu
//   #include "common/checks.h"        #include "attn/common/checks.h"  (RelativeToRoot)
//   #include "../common/checks.h"     #include "common/checks.h"       (RelativeToFile)
//
// Includes of external headers (CUDA, torch, CCCL, system, submodules) stay
// as written; one of a tree file that is not ported is a blocking issue.
// The preprocessor resolves the includes a parse runs; those in branches no
// parse entered are resolved afterwards against the includer's directory
// and the `-iquote`/`-I`/`-isystem` directories of the TUs that include the
// file, the way the preprocessor would look them up.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_INCLUDEREWRITER_H
#define OPMIG_MIGRATE_LIB_INCLUDEREWRITER_H

#include "ParseLocations.h"

#include "clang/Lex/PPCallbacks.h"

#include <functional>
#include <set>

namespace opmig::migrate {

/// `"attn/common/checks.h"`: how `Includer` (a ported file) names `Included`.
std::string includeSpelling(const RewriteRequest &Request, const PortedFile &Includer,
                            const PortedFile &Included);

/// `To` relative to the directory `FromDir` (both relative, `/`-separated),
/// with `..` where needed.
std::string relativePath(llvm::StringRef FromDir, llvm::StringRef To);

/// Respells the includes a parse runs in ported files.
class IncludeRewriter : public clang::PPCallbacks {
public:
  explicit IncludeRewriter(ParseLocations &Locs) : Locs(Locs) {}

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef RelativePath,
                          const clang::Module *SuggestedModule, bool ModuleImported,
                          clang::SrcMgr::CharacteristicKind FileType) override;

private:
  ParseLocations &Locs;
};

/// Include directories of a TU's flags, in search order: quoted includes
/// look in `Quote` then `Angled`.
struct IncludeSearchPath {
  std::vector<std::string> Quote;
  std::vector<std::string> Angled;
};
IncludeSearchPath searchPathOf(const std::vector<std::string> &Flags, llvm::StringRef Root);

/// Edits and issues for the includes of `File` no parse ran. `IsSeen`
/// tells, per directive offset, whether code there was seen by a parse (an
/// include of an unported tree file then blocks).
void rewriteUnparsedIncludes(const RewriteContext &Ctx, const PortedFile &File,
                             const std::set<unsigned> &SeenIncludes,
                             const IncludeSearchPath &Search,
                             const std::function<bool(unsigned)> &IsSeen,
                             std::vector<FileEdit> &Edits, std::vector<Finding> &Issues);

} // namespace opmig::migrate

#endif
