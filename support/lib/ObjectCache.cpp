//===- ObjectCache.cpp - Objects reused across builds ---------------------===//

#include "opmig/support/ObjectCache.h"

#include "opmig/support/Hashing.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

namespace fs = llvm::sys::fs;

namespace {

/// Changing what an entry holds or how it is keyed changes this.
constexpr const char *KeyFormat = "opmig.object/2";
constexpr llvm::StringLiteral RootMark = "<root>";
constexpr llvm::StringLiteral InputsFile = "inputs";

bool isUnder(llvm::StringRef Path, llvm::StringRef Root) {
  return Path.size() > Root.size() + 1 && Path.starts_with(Root) && Path[Root.size()] == '/';
}

std::string statOf(const std::string &Path) {
  fs::file_status Status;
  if (fs::status(Path, Status) || Status.type() != fs::file_type::regular_file)
    return "missing";
  return "stat " + std::to_string(Status.getSize()) + " " +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

/// What an input is now: its content inside the built tree, which edits
/// change; its size and modification time outside it, where the toolkit's
/// and torch's thousands of headers would cost a read each.
std::string fingerprint(const std::string &Path, llvm::StringRef Root) {
  if (isUnder(Path, Root)) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    return Buffer ? "sha256 " + sha256Hex((*Buffer)->getBuffer()) : "missing";
  }
  return statOf(Path);
}

/// `Path` as an entry records it: inside the tree relative to its root.
std::string recorded(const std::string &Path, llvm::StringRef Root) {
  return isUnder(Path, Root) ? (RootMark + Path.substr(Root.size())).str() : Path;
}

std::string resolved(llvm::StringRef Recorded, llvm::StringRef Root) {
  return Recorded.starts_with(RootMark) ? (Root + Recorded.drop_front(RootMark.size())).str()
                                        : Recorded.str();
}

/// Through a temporary file renamed into place (llvm::writeToOutput).
bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  return !llvm::errorToBool(llvm::writeToOutput(Path, [&](llvm::raw_ostream &Out) {
    Out << Text;
    return llvm::Error::success();
  }));
}

bool copyAtomically(const std::string &From, const std::string &To) {
  llvm::SmallString<256> Temp;
  if (fs::createUniqueFile(To + ".tmp-%%%%%%", Temp))
    return false;
  if (fs::copy_file(From, Temp) || fs::rename(Temp, To)) {
    fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace

std::vector<std::string> parseDependencyFile(const std::string &Text) {
  // Tokens split at blanks that no backslash escapes; `\` + newline continues.
  std::vector<std::string> Tokens(1);
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size() && (Text[I + 1] == ' ' || Text[I + 1] == '#')) {
      Tokens.back() += Text[++I];
      continue;
    }
    if (C == '\\' && I + 1 < Text.size() && (Text[I + 1] == '\n' || Text[I + 1] == '\r')) {
      ++I;
      C = ' ';
    }
    if (C == '$' && I + 1 < Text.size() && Text[I + 1] == '$')
      ++I;
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      if (!Tokens.back().empty())
        Tokens.emplace_back();
      continue;
    }
    Tokens.back() += C;
  }
  // Drop each rule's target: `target:` or `target :`.
  std::vector<std::string> Paths;
  for (std::string &Token : Tokens) {
    if (Token.empty())
      continue;
    if (Token == ":") {
      if (!Paths.empty())
        Paths.pop_back();
      continue;
    }
    if (Token.back() == ':')
      continue;
    Paths.push_back(std::move(Token));
  }
  return Paths;
}

std::string ObjectCache::entryDir(const ObjectCompile &C) const {
  std::string Key = KeyFormat;
  // The compiler itself, replaced in place by another release, is an input too.
  if (!C.Command.empty())
    Key += '\0' + statOf(C.Command.front());
  for (const std::string &Arg : C.Command)
    Key += '\0' + replacePathPrefix(replacePathPrefix(Arg, C.Object, "<object>"), C.Root, RootMark);
  return Dir + "/" + sha256Hex(Key).substr(0, 24);
}

bool ObjectCache::fetch(const ObjectCompile &C) const {
  if (Dir.empty())
    return false;
  std::string Entry = entryDir(C);
  auto Inputs = llvm::MemoryBuffer::getFile(Entry + "/" + InputsFile.str());
  if (!Inputs)
    return false;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Inputs)->getBuffer().split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return false;
  // The first line names the object; each other one an input and what it was.
  for (llvm::StringRef Line : llvm::drop_begin(Lines)) {
    auto [Path, Was] = Line.split('\t');
    if (fingerprint(resolved(Path, C.Root), C.Root) != Was)
      return false;
  }
  return copyAtomically(Entry + "/" + Lines.front().str(), C.Object);
}

void ObjectCache::store(const ObjectCompile &C) const {
  if (Dir.empty())
    return;
  auto Deps = llvm::MemoryBuffer::getFile(C.depFile());
  if (!Deps)
    return;
  std::string Inputs;
  for (const std::string &Path : parseDependencyFile((*Deps)->getBuffer().str())) {
    llvm::SmallString<256> Absolute(Path);
    fs::make_absolute(Absolute);
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    std::string Input = Absolute.str().str();
    if (Input.find_first_of("\t\n") != std::string::npos)
      return; // A name the entry cannot hold: keep nothing rather than a wrong record.
    Inputs += recorded(Input, C.Root) + "\t" + fingerprint(Input, C.Root) + "\n";
  }
  if (Inputs.empty())
    return;
  std::string Entry = entryDir(C);
  // The object is named by its inputs, so that the inputs file, renamed
  // into place last, never names an object made from other inputs.
  std::string Object = "object-" + sha256Hex(Inputs).substr(0, 16) + ".o";
  if (fs::create_directories(Entry) || !copyAtomically(C.Object, Entry + "/" + Object))
    return;
  writeAtomically(Entry + "/" + InputsFile.str(), Object + "\n" + Inputs);
}

std::vector<std::string> ObjectCompile::commandWritingInputs() const {
  std::vector<std::string> WithInputs = Command;
  WithInputs.insert(WithInputs.end(), {"-MD", "-MF", depFile()});
  return WithInputs;
}

} // namespace opmig
