//===- LinkCheck.cpp - Link objects and name what nothing defines ---------===//

#include "opmig/support/LinkCheck.h"

#include "opmig/support/CommandRunner.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

namespace opmig {

namespace {

/// Runs the link; an empty string when it made the library, else the
/// linker's first error (`multiple definition of ...`).
std::string runLinker(const LinkRequest &Request) {
  std::vector<std::string> Command = {Request.Linker, "-shared", "-o", Request.Library};
  llvm::append_range(Command, Request.Objects);
  return runCommand(Command).firstError();
}

bool inNamespaces(const std::string &Mangled, const std::vector<std::string> &Namespaces) {
  std::string Name = opmig::qualifiedNameOf(Mangled);
  return llvm::any_of(Namespaces, [&](const std::string &NS) {
    return llvm::StringRef(Name).starts_with(NS + "::");
  });
}

} // namespace

LinkResult linkObjects(const LinkRequest &Request) {
  LinkResult Result;
  Result.LinkError = runLinker(Request);
  Result.Linked = Result.LinkError.empty();
  if (!Result.Linked)
    return Result;
  opmig::SymbolTable Library;
  if (!opmig::readSymbols(Request.Library, Library)) {
    Result.Linked = false;
    Result.LinkError = "cannot read the linked library " + Request.Library;
    return Result;
  }
  opmig::RuntimeSymbols Runtime = opmig::loadRuntimeSymbols(Request.Runtime);
  Result.LinkedAgainst = Runtime.Description;
  std::map<std::string, UnresolvedSymbol> Missing;
  for (const std::string &Symbol : Library.Undefined)
    if (!Runtime.provides(Symbol) &&
        (Runtime.HasTorch || inNamespaces(Symbol, Request.OwnNamespaces)))
      Missing[Symbol] = {opmig::demangleSymbol(Symbol), Symbol, {}};
  if (Missing.empty())
    return Result;
  for (const std::string &Object : Request.Objects) {
    opmig::SymbolTable Table;
    if (opmig::readSymbols(Object, Table))
      for (auto &[Symbol, Unresolved] : Missing)
        if (Table.Undefined.count(Symbol))
          Unresolved.ReferencedBy.push_back(Object);
  }
  for (auto &[Symbol, Unresolved] : Missing)
    Result.Unresolved.push_back(std::move(Unresolved));
  return Result;
}

} // namespace opmig
