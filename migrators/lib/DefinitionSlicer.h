//===- DefinitionSlicer.h - Leave unneeded definitions out of a copy -*- C++ -*-===//
//
// A closure TU may define more than the entries need: the backward op next
// to the forward one, and the registration of every op of the library. The
// copy leaves those out, each with its `template <...>` header and the
// comment block directly above it, and keeps every other byte:
//
//   // Forward.                        // Forward.
//   at::Tensor fwd(at::Tensor x) {...}  at::Tensor fwd(at::Tensor x) {...}
//                                 ->
//   // Backward: not needed.
//   at::Tensor bwd(at::Tensor g) {...}
//
//   TORCH_LIBRARY(ops, m) { m.def(...); }
//
// Registration blocks (`TORCH_LIBRARY`, `TORCH_LIBRARY_IMPL`,
// `TORCH_LIBRARY_FRAGMENT`, `PYBIND11_MODULE`) always go: the target
// regenerates its binding. Ranges come from the AST and the macro
// expansions each parse saw.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_DEFINITIONSLICER_H
#define OPMIG_MIGRATE_LIB_DEFINITIONSLICER_H

#include "ParseLocations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"

#include <utility>
#include <vector>

namespace opmig::migrate {

/// A registration macro expanded at file scope of a ported file.
struct RegistrationExpansion {
  const PortedFile *File = nullptr;
  unsigned Begin = 0, End = 0; ///< The macro name through its `)`.
  unsigned Line = 0;
};

/// Records the registration macros a parse expands in ported files.
class RegistrationRecorder : public clang::PPCallbacks {
public:
  RegistrationRecorder(ParseLocations &Locs, std::vector<RegistrationExpansion> &Out)
      : Locs(Locs), Out(Out) {}

  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &MD,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;

private:
  ParseLocations &Locs;
  std::vector<RegistrationExpansion> &Out;
};

/// Records, as FoundDefinitions of the files they are in, the registration
/// blocks (the macro plus the body written after it) and the definitions
/// the request drops, among the file-scope declarations `TopLevel` of
/// ported files.
void findDefinitions(llvm::ArrayRef<clang::Decl *> TopLevel, ParseLocations &Locs,
                     const std::vector<RegistrationExpansion> &Registrations);

struct SlicePlan {
  std::vector<std::pair<unsigned, unsigned>> Removed; ///< Sorted, disjoint.
  /// The qualified names in each range of `Removed`, by index.
  std::vector<std::vector<std::string>> RemovedNames;
  std::vector<std::string> Dropped; ///< Upstream qualified names.
};

/// What to remove from `File`, given what the parses found; a requested
/// definition no parse found, and a registration block no parse expanded,
/// become blocking issues.
SlicePlan planSlices(const PortedFile &File, const std::vector<FoundDefinition> &Found,
                     const std::vector<analyze::SiblingDefinition> &Wanted,
                     std::vector<Finding> &Issues);

} // namespace opmig::migrate

#endif
