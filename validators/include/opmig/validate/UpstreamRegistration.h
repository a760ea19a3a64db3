//===- UpstreamRegistration.h - The upstream entries as torch ops -*- C++ -*-===//
//
// The diff and perf layers call the upstream entry and the migrated op on
// the same inputs. The upstream's own binding TU (its pybind module or
// TORCH_LIBRARY block) is not built: it may drag in sibling ops. Instead a
// small generated TU registers each entry under `<op namespace>_upstream`
// with the migrated op's schema:
//
//   #include "<the upstream header that declares the entry>"
//   (or, when none does, the headers its defining TU includes and
//    `namespace ns { void entry(const at::Tensor &x, ...); }` as that TU
//    defines it: EntryDefinition.h; the TU is linked as the closure's others)
//   namespace { at::Tensor upstream_scale_add(const at::Tensor &x, ...) {
//     return ::scale_add(x, y, alpha); } }
//   TORCH_LIBRARY(opmig_scale_ops_upstream, m) { m.def("scale_add(...) -> Tensor"); }
//   TORCH_LIBRARY_IMPL(opmig_scale_ops_upstream, CUDA, m) {
//     m.impl("scale_add", TORCH_FN(upstream_scale_add)); }
//
// The wrapper takes the dispatcher's types for the schema (`double` for
// `float`, `int64_t` for `int`), so an entry declared with `float` or `int`
// is called through C++'s conversions, as the migrated glue's adapters do.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_UPSTREAMREGISTRATION_H
#define OPMIG_VALIDATE_UPSTREAMREGISTRATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::validate {

/// One op to register: the migrated op's name and schema, and the upstream
/// function (qualified as the manifest records it) with the header that
/// declares it (absolute; empty when a declaration is given instead).
struct UpstreamEntry {
  std::string Op;
  std::string Schema; ///< `(Tensor x, float alpha) -> Tensor`.
  std::string Function;
  std::string Header;
  /// When no header declares the entry (a pybind TU defines it): the
  /// headers its defining TU includes (absolute, or `<spelling>`), and the
  /// declaration as that TU writes it (EntryDefinition.h).
  std::vector<std::string> Includes;
  std::string Declaration;
};

/// The C++ type a kernel registered for `Type` (a schema argument type,
/// alias marks included: `Tensor(a!)`, `int[]?`) takes; InputError for a
/// type this release does not map.
llvm::Expected<std::string> dispatcherArgumentType(llvm::StringRef Type);

/// The C++ return type for a schema's returns (`Tensor`, `()`,
/// `(Tensor, Tensor)`); InputError for one this release does not map.
llvm::Expected<std::string> dispatcherReturnType(llvm::StringRef Returns);

/// The `<namespace>_upstream` namespace the upstream entries go in.
std::string upstreamNamespace(llvm::StringRef OpNamespace);

/// The registration TU. InputError when an op's schema does not parse or
/// uses a type dispatcherArgumentType() does not map.
llvm::Expected<std::string> upstreamRegistrationSource(const std::string &Namespace,
                                                       const std::vector<UpstreamEntry> &Entries);

/// The header among `Headers` (absolute paths) that declares `Function`
/// (its unqualified name followed by `(`), preferring one whose name says
/// "ops" or "api"; empty when none does.
std::string declaringHeader(const std::string &Function, const std::vector<std::string> &Headers);

} // namespace opmig::validate

#endif
