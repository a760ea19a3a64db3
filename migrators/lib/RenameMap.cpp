#include "RenameMap.h"

#include <algorithm>
#include <set>

namespace opmig::migrate {

std::vector<std::string> splitPath(llvm::StringRef Path) {
  std::vector<std::string> Parts;
  while (!Path.empty()) {
    auto [Head, Tail] = Path.split("::");
    Parts.push_back(Head.str());
    Path = Tail;
  }
  return Parts;
}

std::string joinPath(const std::vector<std::string> &Parts) {
  std::string Joined;
  for (const std::string &Part : Parts)
    Joined = appendPath(Joined, Part);
  return Joined;
}

std::string appendPath(llvm::StringRef Path, llvm::StringRef Name) {
  if (Path.empty())
    return Name.str();
  if (Name.empty())
    return Path.str();
  return (Path + "::" + Name).str();
}

std::string parentPath(llvm::StringRef Path) {
  size_t Split = Path.rfind("::");
  return Split == llvm::StringRef::npos ? std::string() : Path.substr(0, Split).str();
}

bool enclosesPath(llvm::StringRef Prefix, llvm::StringRef Path) {
  if (Prefix.empty() || Prefix == Path)
    return true;
  return Path.starts_with(Prefix) && Path.substr(Prefix.size()).starts_with("::");
}

RenameMap::RenameMap(std::vector<NamespaceRename> List) : Renames(std::move(List)) {
  auto Trim = [](std::string &Name) {
    llvm::StringRef Trimmed = llvm::StringRef(Name).trim();
    Trimmed.consume_front("::");
    Name = Trimmed.str();
  };
  for (NamespaceRename &R : Renames) {
    Trim(R.From);
    Trim(R.To);
  }
  llvm::erase_if(Renames, [](const NamespaceRename &R) { return R.From.empty(); });
  // Longest first, so that `a::b=x` wins over `a=y` for `a::b::c`; the sort
  // is stable so that of two identical `From`s the first given wins.
  std::stable_sort(Renames.begin(), Renames.end(),
                   [](const NamespaceRename &A, const NamespaceRename &B) {
                     return splitPath(A.From).size() > splitPath(B.From).size();
                   });
}

std::string RenameMap::apply(llvm::StringRef Path) const {
  for (const NamespaceRename &R : Renames)
    if (!Path.empty() && enclosesPath(R.From, Path))
      return appendPath(R.To, Path.substr(std::min(Path.size(), R.From.size() + 2)));
  return Path.str();
}

std::vector<std::string> RenameMap::vanishingNames() const {
  std::set<std::string> Names;
  for (const NamespaceRename &R : Renames) {
    std::vector<std::string> From = splitPath(R.From), To = splitPath(R.To);
    for (size_t I = 0; I < From.size(); ++I)
      if (I >= To.size() || From[I] != To[I]) {
        Names.insert(From[I]);
        break;
      }
  }
  return {Names.begin(), Names.end()};
}

} // namespace opmig::migrate
