//===- CppBindingScanner.h - pybind bindings and function declarations -*- C++ -*-===//
//
// "A kernel never gets registered in another family's pybind TU": which
// C++ function each `.def("name", &fn)` of a binding TU binds, and which
// functions each file declares at namespace scope, both read from the raw
// lexer's tokens (CppRawTokens.h), so that missing torch and pybind11
// headers hide nothing.
//
//   m.def("merge", &cache_dit::attn::merge_states, "doc");  // merge_states
//   ops.def("quant", fp8_quant);                             // fp8_quant
//   m.def("cast", py::overload_cast<int>(&cast_impl));       // cast_impl
//   m.def("lambda", [](int x) { return x; });                // not judged
//
//   namespace cache_dit::attn {
//   at::Tensor merge_states(at::Tensor a, at::Tensor b);     // declared
//   struct S { void method(); };                              // not: a member
//   }
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_CPPBINDINGSCANNER_H
#define OPMIG_AUDIT_CPPBINDINGSCANNER_H

#include <string>
#include <vector>

namespace opmig::audit {

struct BoundFunction {
  std::string PythonName; ///< The `.def` string, without quotes.
  std::string Target;     ///< The bound function as written (`cache_dit::attn::merge`).
  std::string Name;       ///< Its last name (`merge`).
  unsigned Line = 0, Column = 0;
};

struct DeclaredFunction {
  std::string Name;
  unsigned Line = 0;
};

/// Every `.def("name", <function>)` of `Text` whose second argument names a
/// function: `fn`, `&ns::fn`, or a call around one (`overload_cast<...>(&fn)`).
std::vector<BoundFunction> scanBoundFunctions(const std::string &Text);

/// The functions `Text` declares or defines at namespace scope (not in a
/// class, function or other braces), by their last name.
std::vector<DeclaredFunction> scanDeclaredFunctions(const std::string &Text);

} // namespace opmig::audit

#endif
