#include "opmig/analyze/SourceTree.h"

#include "TreeLocations.h"
#include "opmig/support/Errors.h"
#include "opmig/support/SourceFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <set>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

const SourceFile *SourceTree::find(const std::string &Path) const {
  auto It = std::lower_bound(Files.begin(), Files.end(), Path,
                             [](const SourceFile &F, const std::string &P) { return F.Path < P; });
  return It != Files.end() && It->Path == Path ? &*It : nullptr;
}

bool TreeScope::contains(llvm::StringRef Path) const {
  if (Path.size() <= Root.size() || !isWithin(Path, Root))
    return false;
  return llvm::none_of(ExcludedDirs, [&](const std::string &Dir) { return isWithin(Path, Dir); });
}

TreeScope SourceTree::scope() const {
  TreeScope Scope{Root, {}};
  for (const std::string &Dir : SubmoduleDirs)
    Scope.ExcludedDirs.push_back(Root + "/" + Dir);
  return Scope;
}

std::string SourceTree::relative(const std::string &Path) const {
  if (!isWithin(Path, Root) || Path.size() <= Root.size())
    return Path;
  return Path.substr(Root.size() + 1);
}

namespace {

class TreeWalker {
public:
  explicit TreeWalker(SourceTree &Tree) : Tree(Tree) {}

  void walk(const std::string &Dir) {
    if (!VisitedDirs.insert(realPathOf(Dir)).second) {
      warn(finding_id::SkippedTreeEntry, Dir,
           "directory reached twice through a symbolic link (a loop?); not followed again");
      return;
    }
    std::error_code EC;
    for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
      visit(It->path());
    if (EC)
      warn(finding_id::UnreadableTreeEntry, Dir, "cannot list directory: " + EC.message());
  }

private:
  void visit(const std::string &Path) {
    llvm::StringRef Name = path::filename(Path);
    if (Name.starts_with("."))
      return;
    std::string Real = realPathOf(Path);
    if (Real != Path && !Tree.contains(Real) && Real != Tree.Root) {
      warn(finding_id::SkippedTreeEntry, Path,
           "symbolic link leaves the source tree; not followed");
      return;
    }
    fs::file_status Status;
    if (fs::status(Real, Status)) {
      warn(finding_id::UnreadableTreeEntry, Path,
           "broken symbolic link or unreadable entry; skipped");
      return;
    }
    if (fs::is_directory(Status)) {
      // A submodule is an external dependency, not part of the tree.
      std::string Relative = Tree.relative(Path);
      if (fs::exists(Path + "/.git") || llvm::is_contained(Tree.SubmoduleDirs, Relative)) {
        Tree.SubmoduleDirs.push_back(Relative);
        return;
      }
      walk(Path);
    } else if (fs::is_regular_file(Status) && isSourceFileName(Name)) {
      addFile(Real);
    }
  }

  void addFile(const std::string &Path) {
    if (!SeenFiles.insert(Path).second)
      return;
    auto Buffer =
        llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      warn(finding_id::UnreadableTreeEntry, Path,
           "cannot read file: " + Buffer.getError().message());
      return;
    }
    SourceFile File;
    File.Path = Path;
    File.Content = (*Buffer)->getBuffer().str();
    File.Hash = llvm::utohexstr(llvm::xxh3_64bits(File.Content), /*LowerCase=*/true);
    File.IsTranslationUnit = isTranslationUnitName(Path);
    const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(File.Content.data());
    if (!llvm::isLegalUTF8String(&Begin, Begin + File.Content.size()))
      warn(finding_id::NotUtf8, Path, "file is not valid UTF-8; analysed byte for byte");
    Tree.Files.push_back(std::move(File));
  }

  void warn(const char *Id, const std::string &Path, std::string Message) {
    Tree.Diagnostics.push_back(analysisWarning(Id, Tree.relative(Path), std::move(Message)));
  }

  SourceTree &Tree;
  std::set<std::string> VisitedDirs, SeenFiles;
};

/// `path = third_party/x` lines of `.gitmodules`: submodules that may not be
/// checked out, whose headers are then reported as third-party, not missing.
void readGitmodules(SourceTree &Tree) {
  auto Buffer = llvm::MemoryBuffer::getFile(Tree.Root + "/.gitmodules");
  if (!Buffer)
    return;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    auto [Key, Value] = Line.split('=');
    if (Key.trim() == "path" && !Value.trim().empty())
      Tree.SubmoduleDirs.push_back(Value.trim().str());
  }
}

} // namespace

llvm::Expected<SourceTree> readSourceTree(const std::string &Root) {
  if (!fs::is_directory(Root))
    return inputError("--source '", Root,
                      "' is not a readable directory; pass the root of the upstream tree");
  // Listing it tells a folder that cannot be read from one with no sources.
  std::error_code EC;
  fs::directory_iterator Probe(Root, EC);
  if (EC)
    return inputError("--source '", Root, "' cannot be read: ", EC.message(),
                      "; check its permissions");
  SourceTree Tree;
  Tree.Root = realPathOf(Root);
  readGitmodules(Tree);
  TreeWalker(Tree).walk(Tree.Root);
  std::sort(Tree.Files.begin(), Tree.Files.end(),
            [](const SourceFile &A, const SourceFile &B) { return A.Path < B.Path; });
  std::sort(Tree.SubmoduleDirs.begin(), Tree.SubmoduleDirs.end());
  Tree.SubmoduleDirs.erase(std::unique(Tree.SubmoduleDirs.begin(), Tree.SubmoduleDirs.end()),
                           Tree.SubmoduleDirs.end());
  if (std::none_of(Tree.Files.begin(), Tree.Files.end(),
                   [](const SourceFile &F) { return F.IsTranslationUnit; }))
    return inputError("--source '", Root,
                      "' holds no translation unit (.cu, .cpp, .cc, .cxx); pass the root of "
                      "the upstream tree");
  return Tree;
}

} // namespace opmig::analyze
