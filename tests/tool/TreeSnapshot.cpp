#include "TreeSnapshot.h"

#include "ToolRunner.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

namespace opmig::test {

namespace fs = std::filesystem;

Tree snapshotTree(const std::string &Root) {
  Tree Files;
  for (const fs::directory_entry &Entry : fs::recursive_directory_iterator(Root))
    if (Entry.is_regular_file() && !Entry.is_symlink())
      Files[fs::relative(Entry.path(), Root).generic_string()] = readFile(Entry.path().string());
  return Files;
}

std::string fullListing(const std::string &Root) {
  std::vector<std::string> Lines;
  for (const fs::directory_entry &Entry : fs::recursive_directory_iterator(Root)) {
    fs::file_status Status = Entry.symlink_status();
    std::ostringstream Line;
    Line << fs::relative(Entry.path(), Root).generic_string() << " " << int(Status.type()) << " "
         << std::oct << int(Status.permissions()) << std::dec;
    if (fs::is_symlink(Status))
      Line << " -> " << fs::read_symlink(Entry.path()).string();
    else if (fs::is_regular_file(Status))
      Line << " " << fs::file_size(Entry.path()) << " "
           << std::hash<std::string>()(readFile(Entry.path().string()));
    Lines.push_back(Line.str());
  }
  std::sort(Lines.begin(), Lines.end());
  std::string Out;
  for (const std::string &L : Lines)
    Out += L + "\n";
  return Out;
}

std::string copyToTemp(const std::string &From) {
  std::string To = makeTempDir() + "/tree";
  fs::copy(From, To, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  return To;
}

void copyTreeInto(const std::string &From, const std::string &To) {
  fs::create_directories(fs::path(To).parent_path());
  fs::copy(From, To, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

Tree treeChanges(const Tree &Before, const Tree &After) {
  Tree Changes;
  for (const auto &[Path, Content] : After)
    if (auto It = Before.find(Path); It == Before.end() || It->second != Content)
      Changes[Path] = Content;
  for (const auto &[Path, Content] : Before)
    if (!After.count(Path))
      Changes[Path] = "<removed>";
  return Changes;
}

void writeTree(const std::string &Dir, const Tree &Files) {
  fs::remove_all(Dir);
  for (const auto &[Path, Content] : Files)
    writeFile(Dir + "/" + Path, Content);
}

namespace {

std::string firstDifferentLine(const std::string &A, const std::string &B) {
  std::istringstream SA(A), SB(B);
  std::string LA, LB;
  for (unsigned Line = 1;; ++Line) {
    bool HasA = bool(std::getline(SA, LA)), HasB = bool(std::getline(SB, LB));
    if (!HasA && !HasB)
      return "(differs only in line endings)";
    if (!HasA || !HasB || LA != LB)
      return "line " + std::to_string(Line) + ": expected `" + (HasA ? LA : "<end>") + "`, got `" +
             (HasB ? LB : "<end>") + "`";
  }
}

} // namespace

std::string describeTreeDifference(const Tree &Expected, const Tree &Actual) {
  std::string Out;
  for (const auto &[Path, Content] : Expected) {
    auto It = Actual.find(Path);
    if (It == Actual.end())
      Out += "missing: " + Path + "\n";
    else if (It->second != Content)
      Out += "differs: " + Path + ": " + firstDifferentLine(Content, It->second) + "\n";
  }
  for (const auto &[Path, Content] : Actual)
    if (!Expected.count(Path))
      Out += "unexpected: " + Path + "\n";
  return Out;
}

} // namespace opmig::test
