#include "opmig/analyze/PreamblePruning.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <map>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;
using TimePoint = std::chrono::system_clock::time_point;

namespace {

std::optional<TimePoint> modifiedAt(const std::string &Path) {
  fs::file_status Status;
  if (fs::status(Path, Status))
    return std::nullopt;
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(
      Status.getLastModificationTime());
}

/// The files of `Folder` by the key they belong to: everything before the
/// first dot (`<key>.pch`, `<key>.pch.json`, `<key>.cuh`, temporaries).
std::map<std::string, std::vector<std::string>> filesByKey(const std::string &Folder) {
  std::map<std::string, std::vector<std::string>> Files;
  std::error_code EC;
  for (fs::directory_iterator It(Folder, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    llvm::StringRef Key = Name.split('.').first;
    if (!Key.empty() && Key != Name)
      Files[Key.str()].push_back(It->path());
  }
  return Files;
}

} // namespace

std::vector<std::string> preamblesToPrune(std::vector<CachedPreamble> Preambles, TimePoint Now,
                                          const PrunePolicy &Policy) {
  std::vector<std::string> Gone;
  std::vector<CachedPreamble> Kept;
  for (CachedPreamble &P : Preambles) {
    bool Stale = P.HasEntry ? !P.Valid || Now - P.LastUsed > Policy.UnusedFor
                            : Now - P.LastUsed > Policy.Unfinished; // Else a build in progress.
    if (Stale)
      Gone.push_back(std::move(P.Key));
    else if (P.HasEntry)
      Kept.push_back(std::move(P));
  }
  // The most recently used first; ties by key, so that the choice is stable.
  std::sort(Kept.begin(), Kept.end(), [](const CachedPreamble &A, const CachedPreamble &B) {
    return A.LastUsed != B.LastUsed ? A.LastUsed > B.LastUsed : A.Key < B.Key;
  });
  for (size_t I = Policy.Keep; I < Kept.size(); ++I)
    Gone.push_back(std::move(Kept[I].Key));
  std::sort(Gone.begin(), Gone.end());
  return Gone;
}

std::vector<CachedPreamble> listPreambles(const std::string &Folder, FactsCache &Cache) {
  std::vector<CachedPreamble> Preambles;
  for (const auto &[Key, Files] : filesByKey(Folder)) {
    CachedPreamble P;
    P.Key = Key;
    std::string Pch = Folder + "/" + Key + ".pch";
    std::optional<TimePoint> Used = modifiedAt(Pch + ".json");
    P.HasEntry = Used && fs::exists(Pch);
    if (P.HasEntry) {
      P.LastUsed = *Used;
      P.Valid = Cache.lookupPreamble(Pch).has_value();
    } else {
      // Unfinished or abandoned: as old as its newest file.
      for (const std::string &File : Files)
        if (std::optional<TimePoint> At = modifiedAt(File))
          P.LastUsed = std::max(P.LastUsed, *At);
    }
    Preambles.push_back(std::move(P));
  }
  return Preambles;
}

unsigned prunePreambles(const std::string &Folder, FactsCache &Cache, const PrunePolicy &Policy) {
  std::vector<std::string> Gone =
      preamblesToPrune(listPreambles(Folder, Cache), std::chrono::system_clock::now(), Policy);
  if (Gone.empty())
    return 0;
  std::map<std::string, std::vector<std::string>> Files = filesByKey(Folder);
  for (const std::string &Key : Gone)
    for (const std::string &File : Files[Key])
      fs::remove(File); // A PCH another run has open stays readable until it closes it.
  return Gone.size();
}

void touchPreamble(const std::string &PchPath) {
  int FD;
  if (fs::openFileForReadWrite(PchPath + ".json", FD, fs::CD_OpenExisting, fs::OF_None))
    return;
  (void)fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(FD);
}

} // namespace opmig::analyze
