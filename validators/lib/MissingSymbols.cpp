//===- MissingSymbols.cpp - Which file should define a lost symbol --------===//

#include "opmig/validate/MissingSymbols.h"

#include "opmig/support/SymbolTables.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace opmig::validate {

namespace {

/// `a::B<float, C<int>>::run` -> `a::B::run`.
std::string withoutTemplateArguments(llvm::StringRef Name) {
  std::string Out;
  int Depth = 0;
  for (char C : Name) {
    if (C == '<')
      ++Depth;
    else if (C == '>')
      --Depth;
    else if (Depth == 0)
      Out += C;
  }
  return Out;
}

bool mentions(const std::string &Path, const std::string &Keyword) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer && !Keyword.empty() && (*Buffer)->getBuffer().contains(Keyword);
}

} // namespace

std::string symbolKeyword(const std::string &Mangled) {
  std::string Qualified = withoutTemplateArguments(qualifiedNameOf(Mangled));
  llvm::SmallVector<llvm::StringRef> Parts;
  llvm::StringRef(Qualified).split(Parts, "::", /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (Parts.empty())
    return "";
  // A member's class says more than a name like `run` does; a class starts
  // with a capital in most code bases, a namespace does not.
  if (Parts.size() >= 2 && !Parts[Parts.size() - 2].empty() &&
      llvm::isUpper(Parts[Parts.size() - 2].front()))
    return Parts[Parts.size() - 2].str();
  return Parts.back().str();
}

SymbolHome homeOfSymbol(const std::string &Mangled, const std::string &Root,
                        const std::vector<std::string> &ManifestFiles,
                        const std::vector<std::string> &ManifestTUs,
                        const std::vector<std::string> &CompiledTUs) {
  std::string Keyword = symbolKeyword(Mangled);
  std::vector<std::string> Missing;
  for (const std::string &TU : ManifestTUs) {
    if (llvm::is_contained(CompiledTUs, TU))
      continue;
    if (!llvm::sys::fs::exists(Root + "/" + TU))
      Missing.push_back(TU);
    else if (mentions(Root + "/" + TU, Keyword))
      return {TU, "the manifest's " + TU + " names it, and the build does not compile it"};
  }
  if (!Missing.empty())
    return {Missing.front(), "the manifest lists " + Missing.front() +
                                 ", which is missing from the target, so nothing compiles it"};
  for (const std::string &File : ManifestFiles)
    if (mentions(Root + "/" + File, Keyword))
      return {File, File + " names it, and no TU the build compiles defines it"};
  return {"", "no file of the domain names `" + Keyword + "`"};
}

} // namespace opmig::validate
