//===- LinkCheck.h - Link objects and name what nothing defines -*- C++ -*-===//
//
// A domain whose TUs all compile can still fail at `import`: a lost explicit
// instantiation, a pruned function a header's wrapper still calls. The
// objects are linked into a shared library, as the target's build links
// them, and every symbol it leaves undefined is looked up in what the
// library is loaded with (opmig::RuntimeSymbols):
//
//   LinkRequest Request;
//   Request.Linker = opmig::findNvcc("");
//   Request.Objects = {"/tmp/x/0-a.cu.o", "/tmp/x/1-b.cpp.o"};
//   Request.Library = "/tmp/x/libdomain.so";
//   Request.Runtime = {TorchLibDir, TorchVersion, CudaPath, "/usr/bin/c++", "..."};
//   Request.OwnNamespaces = {"cache_dit::svdq"};
//   LinkResult R = linkObjects(Request); // R.Unresolved: what the loader would miss
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_LINKCHECK_H
#define OPMIG_SUPPORT_LINKCHECK_H

#include "opmig/support/SymbolTables.h"

#include <string>
#include <vector>

namespace opmig {

struct LinkRequest {
  std::string Linker;               ///< nvcc, which links as the extension builds do.
  std::vector<std::string> Objects; ///< Absolute paths.
  std::string Library;              ///< The shared library to write.
  opmig::RuntimeLibraries Runtime;
  /// Without torch's libraries a torch symbol cannot be told from one the
  /// domain lost: then only symbols in these namespaces (`cache_dit::svdq`)
  /// count as unresolved.
  std::vector<std::string> OwnNamespaces;
};

struct UnresolvedSymbol {
  std::string Name; ///< Demangled.
  std::string Mangled;
  std::vector<std::string> ReferencedBy; ///< Objects that use it, as requested.
};

struct LinkResult {
  bool Linked = false;       ///< The linker made the library.
  std::string LinkError;     ///< The linker's first error when it did not.
  std::string LinkedAgainst; ///< RuntimeSymbols::Description.
  std::vector<UnresolvedSymbol> Unresolved;

  bool links() const { return Linked && Unresolved.empty(); }
};

LinkResult linkObjects(const LinkRequest &Request);

} // namespace opmig

#endif
