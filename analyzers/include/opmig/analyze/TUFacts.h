//===- TUFacts.h - What one parse of one TU tells about the tree -*- C++ -*-===//
//
// The facts a parse extracts (definitions and what each references, macro
// uses, include edges, op registrations, errors) for code inside the source
// tree only. Facts are plain data so that they can be cached per TU and
// merged across TUs and across the host and device passes.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_TUFACTS_H
#define OPMIG_ANALYZE_TUFACTS_H

#include "nlohmann/json_fwd.hpp"
#include "opmig/analyze/AnalysisResult.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace opmig::analyze {

/// Which compilation a parse modelled: CUDA code differs between them.
enum class ParseSide { Host, Device };
const char *toString(ParseSide S);

/// A declaration or definition in the tree. Symbols are keyed by Clang USR
/// (macros by `macro:NAME@FILE:LINE`); template specializations fold into
/// their primary template so that every use of `f<half>` needs `f`.
struct SymbolFact {
  std::string Name; ///< Qualified name.
  SymbolKind Kind = SymbolKind::Function;
  std::string File; ///< Absolute path.
  unsigned Line = 0;
  unsigned BeginOffset = 0, EndOffset = 0; ///< [Begin, End) bytes of a definition.
  bool IsDefinition = false;
  /// A definition whose code every TU that includes its file emits (a
  /// function neither inline nor a template): in a header, it links only if
  /// what it calls comes along, needed or not.
  bool EmittedWhereIncluded = false;
  std::set<std::string> Refs; ///< Symbols a definition needs.
  /// Template specializations it uses whose code this TU cannot generate
  /// (explicit specializations, or templates whose body is not visible):
  /// specialization USR -> template USR. Some TU must provide each.
  std::map<std::string, std::string> Specializations;
  std::string Parent; ///< Enclosing class, for members.
  /// Tree files holding any of its declarations (or the specialization a
  /// use named): a TU that uses it needs one of them included.
  std::set<std::string> DeclaredIn;
};

struct IncludeFact {
  std::string Includer; ///< Absolute path of the including file.
  unsigned Line = 0;
  std::string Spelling;
  bool Angled = false;
  std::string Resolved;        ///< Absolute path, empty when not found.
  bool HasIncludeOnly = false; ///< Seen only inside `__has_include`.
};

/// `m.def(...)` / `m.impl(...)` in a TORCH_LIBRARY block or a pybind module.
struct RegistrationFact {
  std::string Via;       ///< `torch-op` or `pybind`.
  std::string Namespace; ///< Torch library namespace or pybind module name.
  std::string OpName;    ///< Without schema or namespace.
  /// A torch `def`'s schema after the name, `(Tensor(a!) out, Tensor x) -> ()`;
  /// empty for a bare name, an `impl` and pybind.
  std::string Schema;
  std::string Function; ///< USR of the bound function; empty for a bare def.
  std::string File;
  unsigned Line = 0;
};

/// `template void f<half>(...)`, `template <> void f<half>(...) {...}`,
/// `template struct X<half>;` (one fact per member), `template void
/// X<half>::run(...)`: where a specialization is provided.
struct InstantiationFact {
  std::string Template;       ///< USR of the primary template (or member pattern).
  std::string Specialization; ///< USR of the specialization.
  std::string File;
  unsigned Line = 0;
  std::string Name; ///< The specialization with its arguments, for reports.
};

/// An error Clang reported in a parse (warnings are off); the analysis turns
/// those of a TU nvcc rejects too into findings.
struct ParseErrorFact {
  std::string File; ///< Absolute; may be outside the tree.
  unsigned Line = 0;
  std::string Message;
};

struct TUFacts {
  std::string MainFile;
  ParseSide Side = ParseSide::Host;
  std::map<std::string, SymbolFact> Symbols; ///< By USR.
  /// Macros expanded at file scope, outside any definition, per file.
  std::map<std::string, std::set<std::string>> FileScopeRefs;
  std::vector<InstantiationFact> Instantiations;
  std::vector<IncludeFact> Includes;
  std::vector<RegistrationFact> Registrations;
  std::vector<ParseErrorFact> Errors;
  /// USRs of the pointer fields the tree's code writes through
  /// (PointerFieldWrites.h): which tensors a `Params` struct's kernels write.
  std::set<std::string> WrittenPointerFields;
  std::vector<std::string> InputFiles; ///< Every file the parse read.
  bool Completed = true;               ///< False when the frontend could not run at all.

  /// Adds everything `Other` knows; used to merge host and device passes and
  /// to build the whole-program view.
  void merge(const TUFacts &Other);
};

void to_json(nlohmann::json &J, const TUFacts &F);
void from_json(const nlohmann::json &J, TUFacts &F);

} // namespace opmig::analyze

#endif
