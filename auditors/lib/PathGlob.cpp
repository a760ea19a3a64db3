//===- PathGlob.cpp - Globs over repository-relative paths ----------------===//

#include "opmig/audit/PathGlob.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

namespace {

/// Enough for `{a,b,c}` lists in practice, small enough that a typo cannot
/// blow up.
constexpr size_t MaxSubPatterns = 64;

std::vector<llvm::StringRef> splitPath(llvm::StringRef Path) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Path.split(Parts, '/', -1, /*KeepEmpty=*/false);
  return {Parts.begin(), Parts.end()};
}

} // namespace

llvm::Expected<PathGlob> PathGlob::create(llvm::StringRef Pattern) {
  if (Pattern.empty())
    return llvm::createStringError("empty glob");
  if (Pattern.starts_with("/"))
    return llvm::createStringError("glob '" + Pattern.str() +
                                   "' is absolute; globs are relative to the audited root");
  PathGlob Glob;
  Glob.Pattern = Pattern.str();
  Glob.DirectoryOnly = Pattern.ends_with("/");
  for (llvm::StringRef Part : splitPath(Pattern)) {
    Segment S;
    if (Part != "**") {
      S.Text = std::make_shared<const std::string>(Part.str());
      llvm::Expected<llvm::GlobPattern> Compiled =
          llvm::GlobPattern::create(*S.Text, MaxSubPatterns);
      if (!Compiled)
        return llvm::createStringError("bad glob '" + Pattern.str() +
                                       "': " + llvm::toString(Compiled.takeError()));
      S.Glob = std::move(*Compiled);
    }
    Glob.Segments.push_back(std::move(S));
  }
  return Glob;
}

bool PathGlob::matchFrom(size_t SegmentIndex, const std::vector<llvm::StringRef> &Parts,
                         size_t PartIndex) const {
  if (SegmentIndex == Segments.size())
    return PartIndex == Parts.size();
  const Segment &S = Segments[SegmentIndex];
  if (!S.Glob) {
    // `**` takes zero or more whole segments.
    for (size_t Next = PartIndex; Next <= Parts.size(); ++Next)
      if (matchFrom(SegmentIndex + 1, Parts, Next))
        return true;
    return false;
  }
  if (PartIndex == Parts.size() || !S.Glob->match(Parts[PartIndex]))
    return false;
  return matchFrom(SegmentIndex + 1, Parts, PartIndex + 1);
}

bool PathGlob::match(llvm::StringRef Path, bool IsDirectory) const {
  if (DirectoryOnly && !IsDirectory)
    return false;
  return matchFrom(0, splitPath(Path), 0);
}

bool matchesAny(const std::vector<PathGlob> &Globs, llvm::StringRef Path, bool IsDirectory) {
  for (const PathGlob &Glob : Globs)
    if (Glob.match(Path, IsDirectory))
      return true;
  return false;
}

} // namespace opmig::audit
