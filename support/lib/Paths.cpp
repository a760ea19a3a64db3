#include "opmig/support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace opmig {

bool isWithin(llvm::StringRef Path, llvm::StringRef Dir) {
  return !Dir.empty() && Path.starts_with(Dir) &&
         (Path.size() == Dir.size() || llvm::sys::path::is_separator(Path[Dir.size()]));
}

bool isBelow(llvm::StringRef Path, llvm::StringRef Dir) {
  return Path.size() > Dir.size() && isWithin(Path, Dir);
}

std::string replacePathPrefix(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To) {
  static constexpr llvm::StringRef Ends("/\"\0", 3);
  std::string Out;
  size_t Done = 0;
  for (size_t At = From.empty() ? Text.npos : Text.find(From); At != Text.npos;
       At = Text.find(From, At + 1)) {
    size_t After = At + From.size();
    if (At < Done || (After < Text.size() && !Ends.contains(Text[After])))
      continue;
    Out.append(Text.slice(Done, At).str()).append(To.str());
    Done = After;
  }
  return Out.append(Text.drop_front(Done).str());
}

bool isContainedRelativePath(llvm::StringRef Path) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path) || Path.contains('\\'))
    return false;
  for (char C : Path)
    if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
      return false;
  llvm::SmallVector<llvm::StringRef> Parts;
  Path.split(Parts, '/');
  for (llvm::StringRef Part : Parts)
    if (Part.empty() || Part == "." || Part == "..")
      return false;
  return true;
}

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Directory) {
  llvm::SmallString<256> Result;
  if (!llvm::sys::path::is_absolute(Path))
    Result = Directory;
  llvm::sys::path::append(Result, Path);
  llvm::sys::path::remove_dots(Result, /*remove_dot_dot=*/true);
  return std::string(Result);
}

std::string absoluteFromCwd(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return absolutePath(Path, "");
  return absolutePath(Path, Cwd);
}

} // namespace opmig
