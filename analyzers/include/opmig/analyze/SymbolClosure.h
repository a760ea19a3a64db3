//===- SymbolClosure.h - What the entries need, over merged facts -*- C++ -*-===//
//
// Follows references from the entry symbols through the facts of every TU
// parsed so far: definitions, class members, explicit instantiations in
// other TUs, macros, and the in-tree headers each needed file includes. A
// TU that also defines what the entries do not need (siblings, which
// `migrate` leaves out) takes along only the headers its needed code uses.
// It also says what is still unknown (needed symbols with no definition
// seen, specializations no parsed TU provides), which tells the analyzer
// what to parse next.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_SYMBOLCLOSURE_H
#define OPMIG_ANALYZE_SYMBOLCLOSURE_H

#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUFacts.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace opmig::analyze {

/// Why one file is needed.
struct FileNeed {
  std::set<std::string> Defines;      ///< USRs of needed symbols defined here.
  std::set<std::string> Instantiates; ///< Templates with needed specializations here.
  std::set<std::string> Provides;     ///< Names of the needed specializations provided here.
  std::set<std::string> IncludedBy;   ///< Needed files including it.
  /// For a TU that defines siblings: its includes of tree headers that only
  /// those siblings use, which stay behind and are left out with them.
  std::vector<IncludeFact> DroppedIncludes;
};

struct SymbolClosure {
  std::set<std::string> Symbols;            ///< Needed USRs and macro ids.
  std::map<std::string, FileNeed> Files;    ///< By absolute path.
  std::set<std::string> MissingDefinitions; ///< Needed, never defined.
  /// Templates with a needed specialization that no parsed TU provides.
  std::set<std::string> UnprovidedTemplates;
};

/// Computes the closure of `Entries` (USRs) over `Program` (merged facts);
/// only files in `Scope` join the closure.
/// Files in `NoFollow` are recorded when they define something needed but
/// their includes and file-scope macros are not followed: a registration
/// TU is regenerated, not copied.
SymbolClosure computeClosure(const TUFacts &Program, const TreeScope &Scope,
                             const std::vector<std::string> &Entries,
                             const std::set<std::string> &NoFollow = {});

} // namespace opmig::analyze

#endif
