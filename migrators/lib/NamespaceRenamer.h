//===- NamespaceRenamer.h - Namespace renames through the AST ---*- C++ -*-===//
//
// Computes, on one parse's AST, the edits that apply the rename map and make
// references follow the global wrap:
//
//   namespace sample_ops {                namespace cache_dit::attn {
//   } // namespace sample_ops             } // namespace cache_dit::attn
//   void sample_ops::f() {}               void cache_dit::attn::f() {}
//   using namespace sample_ops;     ->    using namespace cache_dit::attn;
//   namespace so = sample_ops;            namespace so = cache_dit::attn;
//   ::helper();  (helper wrapped)         ::cache_dit::attn::helper();
//
// Every namespace named in a nested-name-specifier (expressions, types,
// declarators, using-declarations, template arguments, friends, explicit
// specializations and instantiations) is checked: a spelling that still
// resolves after the renames is kept, any other is respelled in full, and
// only the components that differ are edited, where they are written (a
// macro argument, or the macro's `#define`). Names made by `##`, chains
// written across a macro boundary, and namespaces opened in pieces that a
// rename splits (`namespace a { namespace b {` with `a::b=c::d`) become
// blocking issues with their location.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_NAMESPACERENAMER_H
#define OPMIG_MIGRATE_LIB_NAMESPACERENAMER_H

#include "GlobalWrapper.h"
#include "ParseLocations.h"

#include "clang/AST/ASTContext.h"

namespace opmig::migrate {

/// Adds the rename and wrap-reference edits of one parse, found in the
/// file-scope declarations `TopLevel` of ported files, to `Locs.record()`,
/// and marks every namespace-name token it resolved as handled.
void renameNamespaces(clang::ASTContext &AST, llvm::ArrayRef<clang::Decl *> TopLevel,
                      ParseLocations &Locs, WrapPolicy &Wrap);

/// The namespace path of `DC` (its enclosing named namespaces, outermost
/// first, anonymous ones skipped), e.g. `sample_ops::detail`.
std::string namespacePath(const clang::DeclContext *DC);

} // namespace opmig::migrate

#endif
