//===- MissingSymbols.h - Which file should define a lost symbol -*- C++ -*-===//
//
// A domain that builds can still fail to load: a closure that lost an
// explicit-instantiation TU leaves `Launcher<float>::run` undefined, and the
// loader only says `undefined symbol: _ZN...`. The import layer names the
// symbol demangled and the file that should define it:
//
//   1. a TU the manifest lists that the build does not compile (missing on
//      disk, or left out of the build's sources), preferring one whose text
//      names the symbol;
//   2. else the first file of the domain whose text names it (a header that
//      declares it, with no built TU defining it).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_MISSINGSYMBOLS_H
#define OPMIG_VALIDATE_MISSINGSYMBOLS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::validate {

struct SymbolHome {
  std::string File;        ///< Root-relative; empty when nothing names it.
  std::string Explanation; ///< One clause, for the finding's message.
};

/// The identifier a file's text must contain to name `Mangled`: the class
/// of a member (`AxpyLauncher` for `ns::AxpyLauncher<float>::run`), else
/// the function's own name.
std::string symbolKeyword(const std::string &Mangled);

/// Where `Mangled` belongs. `ManifestFiles`: every file the manifest lists
/// (root-relative); `ManifestTUs`: its TUs; `CompiledTUs`: what the build
/// compiled.
SymbolHome homeOfSymbol(const std::string &Mangled, const std::string &Root,
                        const std::vector<std::string> &ManifestFiles,
                        const std::vector<std::string> &ManifestTUs,
                        const std::vector<std::string> &CompiledTUs);

} // namespace opmig::validate

#endif
