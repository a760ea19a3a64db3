//===- Repository.cpp - The files an audit looks at -----------------------===//

#include "opmig/audit/Repository.h"

#include "Git.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace opmig::audit {

namespace {

/// Folders no policy is about: version control, build output, caches and
/// opmig's own staging area.
bool isSkippedFolder(llvm::StringRef Name) {
  return Name == ".git" || Name == "__pycache__" || Name == ".opmig-staging" ||
         Name == "node_modules" || Name.starts_with("build");
}

bool hasSkippedFolder(llvm::StringRef RelativePath) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  RelativePath.split(Parts, '/');
  Parts.pop_back(); // The file's own name.
  return llvm::any_of(Parts, isSkippedFolder);
}

/// The files git would show: tracked plus untracked-not-ignored. nullopt
/// when `Root` is not in a git work tree (or git is missing).
llvm::Expected<std::optional<std::vector<std::string>>> gitFiles(const std::string &Root) {
  auto Inside = runGit(Root, {"rev-parse", "--is-inside-work-tree"});
  if (!Inside)
    return Inside.takeError();
  if (!*Inside || (*Inside)->ExitCode != 0 || llvm::StringRef((*Inside)->Stdout).trim() != "true")
    return std::nullopt;
  auto Listed = runGit(Root, {"ls-files", "-z", "--cached", "--others", "--exclude-standard"});
  if (!Listed)
    return Listed.takeError();
  if (!*Listed || (*Listed)->ExitCode != 0)
    return std::nullopt;
  return splitNul((*Listed)->Stdout);
}

std::vector<std::string> walkedFiles(const std::string &Root) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file && isSkippedFolder(Name)) {
      It.no_push();
      continue;
    }
    if (It->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    llvm::StringRef Relative = llvm::StringRef(It->path()).drop_front(Root.size());
    Files.push_back(Relative.ltrim('/').str());
  }
  return Files;
}

} // namespace

llvm::Expected<Repository> Repository::open(const std::string &Root) {
  if (!llvm::sys::fs::exists(Root))
    return inputError("audited directory '", Root, "' does not exist");
  if (!llvm::sys::fs::is_directory(Root))
    return inputError("audited path '", Root, "' is not a directory");
  Repository Repo;
  Repo.Root = Root;
  auto Listed = gitFiles(Root);
  if (!Listed)
    return Listed.takeError();
  // An empty listing also happens when the root itself is ignored by an
  // enclosing repository; the files on disk are what is audited then.
  std::vector<std::string> Candidates =
      *Listed && !(*Listed)->empty() ? std::move(**Listed) : walkedFiles(Root);
  std::set<std::string> Folders;
  for (std::string &File : Candidates) {
    // git lists deleted tracked files and submodules too: keep real files.
    if (hasSkippedFolder(File) || !llvm::sys::fs::is_regular_file(Root + "/" + File))
      continue;
    for (llvm::StringRef Parent = llvm::sys::path::parent_path(File, llvm::sys::path::Style::posix);
         !Parent.empty();
         Parent = llvm::sys::path::parent_path(Parent, llvm::sys::path::Style::posix))
      Folders.insert(Parent.str());
    Repo.Files.push_back(std::move(File));
  }
  llvm::sort(Repo.Files);
  Repo.Files.erase(std::unique(Repo.Files.begin(), Repo.Files.end()), Repo.Files.end());
  Repo.Directories.assign(Folders.begin(), Folders.end());
  return Repo;
}

bool Repository::exists(const std::string &RelativePath) const {
  std::string Path = llvm::StringRef(RelativePath).rtrim('/').str();
  return std::binary_search(Files.begin(), Files.end(), Path) ||
         std::binary_search(Directories.begin(), Directories.end(), Path);
}

std::optional<std::string> Repository::text(const std::string &RelativePath) const {
  auto [It, Inserted] = Texts.try_emplace(RelativePath);
  if (!Inserted)
    return It->second;
  if (!std::binary_search(Files.begin(), Files.end(), RelativePath))
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(Root + "/" + RelativePath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  // A NUL byte means a binary file: no rule about text applies to it.
  if (Buffer && !(*Buffer)->getBuffer().contains('\0'))
    It->second = (*Buffer)->getBuffer().str();
  return It->second;
}

} // namespace opmig::audit
