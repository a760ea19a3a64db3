#include "opmig/analyze/UpstreamBuildFlags.h"

#include "opmig/support/CapturedOutput.h"
#include "opmig/support/NvccOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <optional>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;
using llvm::StringRef;

namespace {

/// Prints `std=`, `define=`, `flag=` and `include=` lines for the setup.py
/// named by argv[1]: flags in any string constant, and the paths given to
/// `include_dirs=` or assigned to a name containing "include". A build with
/// torch's CUDAExtension first gets the nvcc flags torch puts before the
/// script's own on every nvcc command (cpp_extension's COMMON_NVCC_FLAGS).
constexpr StringRef SetupScript = R"py(
import ast, sys
tree = ast.parse(open(sys.argv[1], encoding="utf-8", errors="replace").read())
if any(getattr(n, "id", getattr(n, "attr", None)) == "CUDAExtension" for n in ast.walk(tree)):
    for name in ("HALF_OPERATORS", "HALF_CONVERSIONS", "BFLOAT16_CONVERSIONS", "HALF2_OPERATORS"):
        print("define=-D__CUDA_NO_" + name + "__")
    print("flag=--expt-relaxed-constexpr")
def text(n):
    return n.value if isinstance(n, ast.Constant) and isinstance(n.value, str) else None
def path(n):
    if text(n) is not None:
        return text(n)
    if isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", "")) == "join":
        parts = [text(a) for a in n.args if text(a) is not None]
        return "/".join(parts) if parts else None
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) and text(n.right) is not None:
        left = path(n.left)
        return left + "/" + text(n.right) if left else text(n.right)
    return None
def include_values(node):
    if isinstance(node, ast.keyword) and node.arg == "include_dirs":
        return [node.value]
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any("include" in getattr(t, "id", "").lower() for t in targets):
            return [node.value]
    return []
for node in ast.walk(tree):
    for token in (text(node) or "").split():
        if token.startswith(("-std=", "--std=")):
            print("std=" + token.split("=", 1)[1])
        elif token.startswith(("-D", "-U")) and len(token) > 2:
            print("define=" + token)
        elif token.startswith("-I") and len(token) > 2:
            print("include=" + token[2:])
        elif token.startswith("-"):
            print("flag=" + token)
    for value in include_values(node):
        elements = [value] + [e for n in ast.walk(value) if isinstance(n, (ast.List, ast.Tuple)) for e in n.elts]
        for element in elements:
            found = path(element)
            if found:
                print("include=" + found)
)py";

/// Keeps `Token` when a build of the migrated code needs it too.
void addNvccFlag(StringRef Token, UpstreamBuildFlags &Flags) {
  if (!Token.starts_with("-"))
    return;
  auto [Name, Value] = Token.drop_front(Token.starts_with("--") ? 2 : 1).split('=');
  if (std::optional<std::string> Kept = carriedNvccFlag(Name, Value))
    if (!llvm::is_contained(Flags.NvccFlags, *Kept))
      Flags.NvccFlags.push_back(std::move(*Kept));
}

/// `c++20`, `c++2a`, `gnu++17` -> 20, 20, 17; 0 for anything else.
unsigned standardNumber(StringRef Value) {
  llvm::SmallVector<StringRef> Match;
  if (!llvm::Regex("^(c|gnu)\\+\\+([0-9][0-9a-z])$").match(Value, &Match))
    return 0;
  static const std::pair<StringRef, unsigned> Drafts[] = {
      {"1z", 17}, {"2a", 20}, {"2b", 23}, {"2c", 26}};
  for (const auto &[Draft, Number] : Drafts)
    if (Match[2] == Draft)
      return Number;
  unsigned Number = 0;
  return Match[2].getAsInteger(10, Number) ? 0 : Number;
}

void addStandard(unsigned Number, UpstreamBuildFlags &Flags) {
  Flags.CxxStandard = std::max(Flags.CxxStandard, Number);
}

void addDefine(std::string Define, UpstreamBuildFlags &Flags) {
  if (!llvm::is_contained(Flags.Defines, Define))
    Flags.Defines.push_back(std::move(Define));
}

/// Keeps `Dir` (relative to `Root`, or absolute) when it is a directory
/// inside the tree: a path outside it is the build machine's, not ours.
void addIncludeDir(StringRef Dir, const std::string &Root, UpstreamBuildFlags &Flags) {
  for (StringRef Prefix :
       {"${CMAKE_CURRENT_SOURCE_DIR}/", "${PROJECT_SOURCE_DIR}/", "${CMAKE_SOURCE_DIR}/", "./"})
    Dir.consume_front(Prefix);
  if (Dir.empty() || Dir.contains("${") || Dir.contains(".."))
    return;
  llvm::SmallString<256> Path(Dir);
  if (!llvm::sys::path::is_absolute(Path))
    Path = (Root + "/" + Dir).str();
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  if (!StringRef(Path).starts_with(Root + "/") || !fs::is_directory(Path))
    return;
  if (!llvm::is_contained(Flags.IncludeDirs, std::string(Path)))
    Flags.IncludeDirs.push_back(std::string(Path));
}

void readSetupFlags(StringRef Output, const std::string &Root, UpstreamBuildFlags &Flags) {
  llvm::SmallVector<StringRef> Lines;
  Output.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    auto [Key, Value] = Line.split('=');
    if (Key == "std")
      addStandard(standardNumber(Value), Flags);
    else if (Key == "define")
      addDefine(Value.str(), Flags);
    else if (Key == "include")
      addIncludeDir(Value, Root, Flags);
    else if (Key == "flag")
      addNvccFlag(Value, Flags);
  }
}

/// The arguments of every `Command(...)` call in a CMake file, split on
/// whitespace, with quotes removed.
std::vector<std::vector<StringRef>> commandArguments(StringRef Text, StringRef Command) {
  std::vector<std::vector<StringRef>> Calls;
  llvm::Regex Call("(^|[^A-Za-z_])" + Command.str() + "[ \t]*\\(([^)]*)\\)",
                   llvm::Regex::IgnoreCase);
  llvm::SmallVector<StringRef> Match;
  while (Call.match(Text, &Match)) {
    llvm::SmallVector<StringRef> Words;
    llvm::SplitString(Match[2], Words);
    std::vector<StringRef> Arguments;
    for (StringRef Word : Words)
      if (StringRef Clean = Word.trim('"'); !Clean.empty())
        Arguments.push_back(Clean);
    Calls.push_back(std::move(Arguments));
    Text = Text.substr(Match[0].end() - Text.begin());
  }
  return Calls;
}

/// nvcc flags anywhere in CMake code (`CMAKE_CUDA_FLAGS`, compile options,
/// inside generator expressions such as `$<$<COMPILE_LANGUAGE:CUDA>:...>`),
/// comments left out.
void readCMakeNvccFlags(StringRef Text, UpstreamBuildFlags &Flags) {
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    llvm::SmallVector<StringRef> Tokens;
    llvm::SplitString(Line.split('#').first, Tokens, " \t\"'();$<>:");
    for (StringRef Token : Tokens)
      addNvccFlag(Token, Flags);
  }
}

bool isCMakeKeyword(StringRef Word) {
  return llvm::is_contained({"PUBLIC", "PRIVATE", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}, Word);
}

} // namespace

void readCMakeFlags(StringRef Text, const std::string &Root, UpstreamBuildFlags &Flags) {
  llvm::SmallVector<StringRef> Match;
  for (StringRef Rest = Text;
       llvm::Regex("CMAKE_(CXX|CUDA)_STANDARD[ \t]+\"?([0-9]+)").match(Rest, &Match);
       Rest = Rest.substr(Match[0].end() - Rest.begin()))
    addStandard(unsigned(std::stoul(Match[2].str())), Flags);
  for (StringRef Rest = Text; llvm::Regex("(cxx|cuda)_std_([0-9]+)").match(Rest, &Match);
       Rest = Rest.substr(Match[0].end() - Rest.begin()))
    addStandard(unsigned(std::stoul(Match[2].str())), Flags);
  for (StringRef Command : {"add_compile_definitions", "add_definitions"})
    for (const auto &Arguments : commandArguments(Text, Command))
      for (StringRef Word : Arguments)
        if (Word.starts_with("-D") || Word.starts_with("-U"))
          addDefine(Word.str(), Flags);
        else if (Command == "add_compile_definitions" && !Word.contains("$"))
          addDefine("-D" + Word.str(), Flags);
  for (const auto &Arguments : commandArguments(Text, "target_compile_definitions"))
    for (StringRef Word : llvm::drop_begin(Arguments))
      if (!isCMakeKeyword(Word) && !Word.contains("$"))
        addDefine("-D" + Word.str(), Flags);
  for (const auto &Arguments : commandArguments(Text, "include_directories"))
    for (StringRef Word : Arguments)
      if (!isCMakeKeyword(Word))
        addIncludeDir(Word, Root, Flags);
  for (const auto &Arguments : commandArguments(Text, "target_include_directories"))
    for (StringRef Word : llvm::drop_begin(Arguments))
      if (!isCMakeKeyword(Word))
        addIncludeDir(Word, Root, Flags);
  readCMakeNvccFlags(Text, Flags);
}

UpstreamBuildFlags readUpstreamBuildFlags(const std::string &Root, const std::string &Python) {
  UpstreamBuildFlags Flags;
  std::string SetupPy = Root + "/setup.py";
  if (!Python.empty() && fs::is_regular_file(SetupPy))
    if (std::optional<std::string> Output =
            captureOutput(Python, {Python, "-c", SetupScript, SetupPy}, /*SecondsToWait=*/60)) {
      readSetupFlags(*Output, Root, Flags);
      Flags.ReadFrom.push_back("setup.py");
    }
  std::string CMakeLists = Root + "/CMakeLists.txt";
  if (auto Buffer = llvm::MemoryBuffer::getFile(CMakeLists)) {
    readCMakeFlags((*Buffer)->getBuffer(), Root, Flags);
    Flags.ReadFrom.push_back("CMakeLists.txt");
  }
  return Flags;
}

} // namespace opmig::analyze
