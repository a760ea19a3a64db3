//===- TargetFiles.cpp - Walking a target repository ----------------------===//

#include "TargetFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace opmig::audit {

namespace {

bool skippedFolder(llvm::StringRef Name) {
  return Name == ".git" || Name == "node_modules" || Name == ".opmig-staging" ||
         Name == "__pycache__" || Name.starts_with("build") || Name.starts_with(".venv");
}

} // namespace

std::vector<std::string> findTargetFiles(const std::string &Root, const std::string &Below,
                                         const std::vector<PathGlob> &Exclude,
                                         llvm::function_ref<bool(llvm::StringRef Name)> Wanted) {
  llvm::SmallString<256> Start(Root);
  if (!Below.empty())
    llvm::sys::path::append(Start, Below);
  std::vector<std::string> Found;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Start, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    std::string Relative = llvm::StringRef(It->path()).drop_front(Root.size() + 1).str();
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (skippedFolder(Name) || matchesAny(Exclude, Relative, /*IsDirectory=*/true))
        It.no_push();
      continue;
    }
    if (Wanted(Name) && !matchesAny(Exclude, Relative))
      Found.push_back(std::move(Relative));
  }
  llvm::sort(Found);
  return Found;
}

} // namespace opmig::audit
