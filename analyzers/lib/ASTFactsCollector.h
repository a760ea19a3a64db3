//===- ASTFactsCollector.h - Symbol facts from one AST ----------*- C++ -*-===//
//
// Walks a translation unit and records, for every declaration inside the
// tree, what it is and where, and for every definition the tree symbols its
// body, type and initializer reference. Template instantiations add their
// references to the primary template, so a dependent call resolved only at
// instantiation still counts. Also finds op registrations (`m.def`,
// `m.impl`) and explicit instantiation definitions.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_LIB_ASTFACTSCOLLECTOR_H
#define OPMIG_ANALYZE_LIB_ASTFACTSCOLLECTOR_H

#include "PPFactsRecorder.h"
#include "TreeLocations.h"
#include "opmig/analyze/TUFacts.h"

#include "clang/AST/ASTContext.h"

namespace opmig::analyze {

/// Fills `Facts` from `Ctx`, then attributes the macro uses in `PPFacts` to
/// the innermost definition around them (file scope otherwise) and binds
/// registrations to the namespace of their enclosing registration block.
void collectASTFacts(clang::ASTContext &Ctx, TreeLocations &Locs, const PreprocessorFacts &PPFacts,
                     TUFacts &Facts);

} // namespace opmig::analyze

#endif
