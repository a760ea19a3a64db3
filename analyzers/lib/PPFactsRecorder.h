//===- PPFactsRecorder.h - Preprocessor facts of one parse ------*- C++ -*-===//
//
// Records, for files inside the tree: include edges (also to external and
// missing headers, and `__has_include` probes), every use of a macro defined
// in the tree (expansion, #ifdef, defined()), and the registration macros
// (TORCH_LIBRARY*, PYBIND11_MODULE) whose first argument names a namespace.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_LIB_PPFACTSRECORDER_H
#define OPMIG_ANALYZE_LIB_PPFACTSRECORDER_H

#include "TreeLocations.h"
#include "opmig/analyze/TUFacts.h"

#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

namespace opmig::analyze {

/// A use of a tree macro, to be attributed to the definition enclosing it.
struct MacroUse {
  std::string File;
  unsigned Offset = 0;
  std::string MacroId;
};

/// An expansion of TORCH_LIBRARY(ns, m) and friends.
struct RegistrationBlock {
  std::string File;
  unsigned Offset = 0;
  std::string Via; ///< `torch-op` or `pybind`.
  std::string Namespace;
};

struct PreprocessorFacts {
  std::vector<MacroUse> MacroUses;
  std::vector<RegistrationBlock> Blocks;
};

class PPFactsRecorder : public clang::PPCallbacks {
public:
  PPFactsRecorder(clang::Preprocessor &PP, TreeLocations &Locs, TUFacts &Facts,
                  PreprocessorFacts &PPFacts)
      : PP(PP), Locs(Locs), Facts(Facts), PPFacts(PPFacts) {}

  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef RelativePath,
                          const clang::Module *SuggestedModule, bool ModuleImported,
                          clang::SrcMgr::CharacteristicKind FileType) override;
  void HasInclude(clang::SourceLocation Loc, llvm::StringRef FileName, bool IsAngled,
                  clang::OptionalFileEntryRef File,
                  clang::SrcMgr::CharacteristicKind FileType) override;
  void MacroExpands(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;
  void Defined(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
               clang::SourceRange Range) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
             const clang::MacroDefinition &MD) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
              const clang::MacroDefinition &MD) override;

private:
  void recordInclude(clang::SourceLocation Loc, llvm::StringRef FileName, bool IsAngled,
                     clang::OptionalFileEntryRef File, bool HasIncludeOnly);
  void recordMacroUse(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
                      clang::SourceLocation UseLoc);
  void recordRegistrationBlock(llvm::StringRef Macro, clang::SourceLocation Loc,
                               const clang::MacroArgs *Args);

  clang::Preprocessor &PP;
  TreeLocations &Locs;
  TUFacts &Facts;
  PreprocessorFacts &PPFacts;
};

} // namespace opmig::analyze

#endif
