//===- GlobalWrapper.h - Move global-namespace code into a namespace -*- C++ -*-===//
//
// With `WrapGlobalInto` set, the top-level declarations of ported files that
// live in the global namespace move into that namespace. Each maximal run of
// such declarations is wrapped where it stands; `#include`s, conditional
// directives, `extern "C"` blocks, namespace blocks, `main`, operators on
// types from elsewhere (found through their operands, not by a qualified
// name: `float2 operator*(float2, float2)`), out-of-line
// definitions of namespace members and explicit instantiations of templates
// that do not move stay outside and end a run (one of a template that moves
// moves with it):
//
//   #include <ATen/ATen.h>            #include <ATen/ATen.h>
//                                     namespace cache_dit::attn {
//   // Checks one input.              // Checks one input.
//   void check(at::Tensor x);   ->    void check(at::Tensor x);
//   int kBlock = 256;                 int kBlock = 256;
//                                     } // namespace cache_dit::attn
//   extern "C" void entry();          extern "C" void entry();
//
// The policy answers, during a parse, which declarations end up wrapped (so
// that references can follow them); the edits are computed once all parses
// are in, from the union of what they saw.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_GLOBALWRAPPER_H
#define OPMIG_MIGRATE_LIB_GLOBALWRAPPER_H

#include "ParseLocations.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <utility>
#include <vector>

namespace opmig::migrate {

class WrapPolicy {
public:
  explicit WrapPolicy(ParseLocations &Locs) : Locs(Locs) {}

  bool enabled() const { return !Locs.context().wrapNamespace().empty(); }
  const std::string &target() const { return Locs.context().wrapNamespace(); }
  /// Whether `D`, written at file scope, moves into the wrap namespace.
  bool isWrappedTopLevel(const clang::Decl *D);
  /// Whether the entity `D` declares ends up in the wrap namespace (any of
  /// its declarations is wrapped).
  bool isWrappedEntity(const clang::NamedDecl *D);
  /// Leaves the file-scope code of the ported files that hold explicit
  /// instantiations of single members of class templates that do not move
  /// (those of a namespace) global: Clang keeps no record of the types such
  /// an instantiation spells (`template void ns::X<half_t>::run(const
  /// half_t *);`, often through a macro), so a wrapped `half_t` could not be
  /// requalified there. Call before any other question.
  void keepInstantiatingFilesGlobal(llvm::ArrayRef<clang::Decl *> TopLevel);

private:
  bool staysWithItsOperands(const clang::FunctionDecl *FD);
  void noteInstantiation(clang::TemplateSpecializationKind Kind, clang::SourceLocation Point);

  ParseLocations &Locs;
  llvm::DenseMap<const clang::Decl *, bool> Entities;
  llvm::DenseSet<const PortedFile *> KeptGlobal;
};

/// The offsets of the explicit instantiation statement whose instantiated
/// name is at `NameOffset` (`template void X<half_t>::run(const half_t *);`,
/// from `template` or `extern` through the `;`), or none when the name is
/// not written in such a statement (a macro spells it).
std::optional<std::pair<unsigned, unsigned>> instantiationStatement(const SourceLayout &Layout,
                                                                    unsigned NameOffset);

/// The statement a file-scope macro invocation at `Span` makes
/// (`INSTANTIATE(half_t);`): the invocation and the `;` after it, if any.
std::pair<unsigned, unsigned> invocationStatement(const SourceLayout &Layout,
                                                  std::pair<unsigned, unsigned> Span);

/// Records the file-scope declarations `TopLevel` of ported files as wrap
/// items or barriers.
void collectTopLevelItems(llvm::ArrayRef<clang::Decl *> TopLevel, ParseLocations &Locs,
                          WrapPolicy &Policy);

/// The edits that wrap `File`'s runs of global declarations into
/// `Namespace`. `Items` come from every parse; those inside `Removed` ranges
/// (sliced definitions) neither wrap nor end a run.
std::vector<FileEdit> wrapEdits(const PortedFile &File, const std::vector<TopLevelItem> &Items,
                                const std::vector<std::pair<unsigned, unsigned>> &Removed,
                                const std::string &Namespace);

} // namespace opmig::migrate

#endif
