//===- EntryResolver.h - From `--entry NAME` to entry symbols ---*- C++ -*-===//
//
// An entry is a qualified C++ name (`ns::fn`, matched on whole `::`
// components), an unqualified one (ambiguous when it names functions in
// different scopes), or the name of an op registered in the tree
// (`TORCH_LIBRARY` def/impl, pybind `m.def`), which resolves to the bound
// C++ function. Overloads of one qualified name are one entry.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_ENTRYRESOLVER_H
#define OPMIG_ANALYZE_ENTRYRESOLVER_H

#include "opmig/analyze/AnalysisResult.h"
#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUFacts.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace opmig::analyze {

struct EntryMatch {
  ResolvedEntry Entry;
  std::vector<std::string> Usrs;
  /// Files registering the entry as an op (TORCH_LIBRARY def/impl, pybind
  /// m.def), however the entry was named; absolute.
  std::set<std::string> RegistrationFiles;
};

/// The last `::` component of an entry name: what the token index looks up.
std::string entryBaseName(const std::string &Requested);

/// Resolves `Requested` against the merged facts of the TUs parsed for it.
/// An InputError lists the candidates (file:line) when the name is
/// ambiguous, or the nearest of `KnownNames` when nothing matches.
llvm::Expected<EntryMatch> resolveEntry(const std::string &Requested, const TUFacts &Program,
                                        const SourceTree &Tree,
                                        const std::vector<std::string> &KnownNames);

} // namespace opmig::analyze

#endif
