//===- LinkCheck.cpp - Link objects and name what nothing defines ---------===//

#include "opmig/support/LinkCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <map>

namespace opmig {

namespace {

/// The linker's first line that says what went wrong (`multiple definition
/// of ...`), or its exit status.
std::string firstLinkError(llvm::StringRef Log, int Code) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.contains("error") || Line.contains("multiple definition") ||
        Line.contains("undefined reference"))
      return Line.trim().str();
  return "the linker exited with status " + std::to_string(Code);
}

/// Runs the link; an empty string when it made the library.
std::string runLinker(const LinkRequest &Request) {
  llvm::SmallString<128> LogPath;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-link", "log", LogPath))
    return "cannot create a log file: " + EC.message();
  llvm::FileRemover RemoveLog(LogPath);
  std::vector<std::string> Command = {Request.Linker, "-shared", "-o", Request.Library};
  llvm::append_range(Command, Request.Objects);
  llvm::SmallVector<llvm::StringRef> Argv(Command.begin(), Command.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(LogPath),
                                                llvm::StringRef(LogPath)};
  std::string ExecError;
  int Code =
      llvm::sys::ExecuteAndWait(Command.front(), Argv, std::nullopt, Redirects, 0, 0, &ExecError);
  if (Code == 0)
    return "";
  if (Code < 0)
    return ExecError.empty() ? "the linker did not finish" : ExecError;
  auto Log = llvm::MemoryBuffer::getFile(LogPath);
  return firstLinkError(Log ? (*Log)->getBuffer() : "", Code);
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
