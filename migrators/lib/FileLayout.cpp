#include "opmig/migrate/FileLayout.h"

#include "opmig/migrate/Migrator.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace opmig::migrate {

namespace path = llvm::sys::path;

namespace {

/// How many folders an error about a prefix lists before it says how many
/// more there are.
constexpr size_t MaxFoldersListed = 12;

/// Every folder some file of `Files` is under, sorted.
std::set<std::string> foldersOf(const std::vector<std::string> &Files) {
  std::set<std::string> Folders;
  for (llvm::StringRef File : Files)
    for (llvm::StringRef Dir = path::parent_path(File, path::Style::posix); !Dir.empty();
         Dir = path::parent_path(Dir, path::Style::posix))
      Folders.insert(Dir.str());
  return Folders;
}

std::string listFolders(const std::set<std::string> &Folders) {
  if (Folders.empty())
    return "none (every file is at the top of the upstream tree)";
  std::vector<std::string> Shown(Folders.begin(), Folders.end());
  size_t More = Shown.size() > MaxFoldersListed ? Shown.size() - MaxFoldersListed : 0;
  Shown.resize(Shown.size() - More);
  std::string Text = llvm::join(Shown, ", ");
  return More ? Text + " and " + std::to_string(More) + " more" : Text;
}

} // namespace

std::string commonFolder(const std::vector<std::string> &Paths) {
  std::vector<llvm::StringRef> Common;
  bool First = true;
  for (llvm::StringRef P : Paths) {
    std::vector<llvm::StringRef> Dirs(path::begin(P, path::Style::posix), path::end(P));
    Dirs.pop_back(); // The file name.
    if (First) {
      Common = Dirs;
      First = false;
      continue;
    }
    size_t N = 0;
    while (N < Common.size() && N < Dirs.size() && Common[N] == Dirs[N])
      ++N;
    Common.resize(N);
  }
  return llvm::join(Common, "/");
}

llvm::Expected<std::string> parseFlattenPrefix(const std::string &Spec) {
  auto Invalid = [&](const char *Why) {
    return inputError("invalid folder to flatten '", Spec, "'", inputs::Flatten, ": ", Why,
                      "; name a folder of the upstream tree relative to its root",
                      analyze::inputs::SourceRoot, ", e.g. src/kernels");
  };
  llvm::StringRef Prefix(Spec);
  if (llvm::any_of(Prefix, [](char C) { return static_cast<unsigned char>(C) < 0x20; }))
    return Invalid("it holds a control character");
  if (Prefix.starts_with("/"))
    return Invalid("it is an absolute path");
  if (Prefix.contains('\\'))
    return Invalid("it holds a backslash");
  while (Prefix.consume_front("./")) {
  }
  Prefix = Prefix.rtrim('/');
  if (Prefix.empty() || Prefix == ".")
    return Invalid("it names the upstream root, not a folder below it");
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Prefix.split(Parts, '/');
  for (llvm::StringRef Part : Parts) {
    if (Part.empty())
      return Invalid("it has an empty component (`//`)");
    if (Part == "." || Part == "..")
      return Invalid("it has a `.` or `..` component");
  }
  return Prefix.str();
}

llvm::Expected<std::map<std::string, std::string>>
layoutFiles(const std::vector<std::string> &Files, const std::vector<std::string> &Flatten) {
  // Longest first: a nested prefix wins over the one it is under.
  std::vector<std::string> Prefixes(Flatten.begin(), Flatten.end());
  std::sort(Prefixes.begin(), Prefixes.end(), [](const std::string &A, const std::string &B) {
    return A.size() != B.size() ? A.size() > B.size() : A < B;
  });
  Prefixes.erase(std::unique(Prefixes.begin(), Prefixes.end()), Prefixes.end());
  for (const std::string &Prefix : Prefixes)
    if (llvm::none_of(Files, [&](const std::string &File) { return isBelow(File, Prefix); }))
      return inputError("the folder to flatten ", Prefix, inputs::Flatten,
                        ": no file the migration ports is under it; the folders of the ported "
                        "files: ",
                        listFolders(foldersOf(Files)));

  std::string Common = commonFolder(Files);
  // In path order, so that a collision names its files the same way each run.
  std::vector<std::string> Sorted(Files.begin(), Files.end());
  std::sort(Sorted.begin(), Sorted.end());
  std::map<std::string, std::string> Layout;
  std::map<std::string, std::pair<std::string, std::string>> Landed; // Path -> file, prefix.
  for (const std::string &File : Sorted) {
    auto By = llvm::find_if(Prefixes, [&](const std::string &P) { return isBelow(File, P); });
    std::string Root = By != Prefixes.end() ? *By : Common;
    std::string Below = Root.empty() ? File : File.substr(Root.size() + 1);
    auto [It, New] = Landed.try_emplace(Below, File, By != Prefixes.end() ? *By : "");
    if (!New) {
      auto Named = [](const std::string &F, const std::string &P) {
        return F + (P.empty() ? " (not flattened)" : " (flattened from " + P + ")");
      };
      return inputError("the folders to flatten", inputs::Flatten, " place ",
                        Named(It->second.first, It->second.second), " and ",
                        Named(File, By != Prefixes.end() ? *By : ""), " both at ", Below,
                        "; flatten fewer or deeper folders");
    }
    Layout[File] = std::move(Below);
  }
  return Layout;
}

} // namespace opmig::migrate
