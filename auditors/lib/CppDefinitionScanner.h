//===- CppDefinitionScanner.h - Namespace-scope definitions of a file -*- C++ -*-===//
//
// `namespace-follows-directory` asks in which namespace each function, class
// and variable of a file is defined. Clang answers that with a
// `-fsyntax-only` parse of the file with the repository's own include roots
// only: no system or toolkit include paths (a header that is not found is
// skipped, not fatal), function bodies skipped, errors tolerated and never
// printed. The project's headers are read, so a macro of theirs that
// explicitly instantiates a template is seen as the instantiation it is. A definition whose type
// comes from a missing header (`torch::Tensor f(...)`) is still seen, with
// an invalid type; its namespace is what matters here.
//
//   int g;                                  // g: the global namespace
//   namespace cache_dit::attn {
//   namespace { void helper() {} }          // helper: cache_dit::attn (anonymous)
//   __global__ void merge_kernel() {}       // merge_kernel: cache_dit::attn
//   }
//   void cache_dit::attn::launch() {}       // launch: cache_dit::attn
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_CPPDEFINITIONSCANNER_H
#define OPMIG_AUDIT_CPPDEFINITIONSCANNER_H

#include <optional>
#include <string>
#include <vector>

namespace opmig::audit {

struct NamespaceScopeDefinition {
  std::string Name;
  std::string Kind; ///< `function`, `class`, `enum` or `variable`.
  /// The enclosing namespaces, outermost first; an anonymous one is "".
  std::vector<std::string> Namespaces;
  unsigned Line = 0, Column = 0; ///< Of the name, 1-based.
};

/// For each file of `Paths` (absolute), parsed with `IncludeDirs` (absolute,
/// as `-I`), the definitions at namespace scope
/// written in it: not those of included headers, not those a macro
/// generates under a name it pastes together (`PYBIND11_MODULE`,
/// `TORCH_LIBRARY`), not template specializations (their namespace is their
/// template's), not members defined out of their class (the class is what is
/// checked). `.cu` and `.cuh` files are parsed as CUDA (host side), others
/// as C++, several at a time. nullopt for a file Clang could not parse at
/// all (unreadable).
std::vector<std::optional<std::vector<NamespaceScopeDefinition>>>
scanDefinitions(const std::vector<std::string> &Paths, const std::vector<std::string> &IncludeDirs);

} // namespace opmig::audit

#endif
