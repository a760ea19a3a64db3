//===- CompileFlags.cpp - Clang command lines for upstream TUs ------------===//
//
// Normalization runs in two stages. An nvcc command is first translated into
// GCC-style arguments: nvcc-only options are mapped to Clang's or dropped, and
// the flags nvcc forwards to the host compiler are unpacked. Then every
// command, whatever its compiler, loses what a syntax-only parse must not see
// (the input, `-c`, `-o`, dependency-file flags) and has its include paths made
// absolute, because the parser does not run in the build's directory.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/CompileFlags.h"

#include "opmig/analyze/Analyzer.h"
#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/NvccOptions.h"
#include "opmig/support/Paths.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <iterator>
#include <optional>

namespace opmig::analyze {
namespace {

using llvm::ArrayRef;
using llvm::StringRef;

std::vector<std::string> splitList(StringRef List) {
  llvm::SmallVector<StringRef> Items;
  List.split(Items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return {Items.begin(), Items.end()};
}

//===----------------------------------------------------------------------===//
// Stage 1: nvcc options to GCC-style arguments
//===----------------------------------------------------------------------===//

/// The real (`sm_`) architecture a GPU name compiles for; none for names such
/// as `native` or `all` that do not name one.
std::optional<std::string> toRealArch(StringRef Name) {
  for (StringRef Prefix : {"sm_", "compute_", "lto_"})
    if (Name.consume_front(Prefix))
      return ("sm_" + Name).str();
  return std::nullopt;
}

/// The real architectures nvcc builds for an `arch=`/`code=` pair: the `sm_`
/// entries of `code`. With none (PTX only, or no `code` at all) the closest
/// real architecture is the virtual one's.
std::vector<std::string> realArchs(ArrayRef<std::string> Archs, ArrayRef<std::string> Codes) {
  std::vector<std::string> Result;
  for (StringRef Code : Codes)
    if (Code.starts_with("sm_"))
      Result.push_back(Code.str());
  if (!Result.empty())
    return Result;
  for (StringRef Name : Codes.empty() ? Archs : Codes)
    if (std::optional<std::string> Real = toRealArch(Name))
      Result.push_back(*Real);
  return Result;
}

/// Translates the arguments of one nvcc command (without argv[0]).
class NvccTranslator {
public:
  explicit NvccTranslator(StringRef Directory) : Directory(Directory) {}

  std::vector<std::string> translate(ArrayRef<std::string> Args) {
    translateTokens(Args);
    llvm::append_range(Archs, realArchs(ArchValues, CodeValues));
    for (const std::string &Arch : Archs)
      Out.push_back("--cuda-gpu-arch=" + Arch);
    return std::move(Out);
  }

  /// The flags met by `translate` that a migrated build carries.
  std::vector<std::string> NvccFlags;

private:
  void translateTokens(ArrayRef<std::string> Tokens) {
    for (size_t I = 0; I < Tokens.size(); ++I) {
      StringRef Token = Tokens[I];
      // Positionals are the input or values of options dropped as unknown.
      if (!Token.starts_with("-"))
        continue;
      auto [Name, InlineValue] = Token.ltrim('-').split('=');
      if (const NvccOption *Option = findNvccOption(Name)) {
        if (Option->TakesValue && !Token.contains('=') && I + 1 < Tokens.size())
          InlineValue = Tokens[++I];
        if (std::optional<std::string> Carried = carriedNvccFlag(Name, InlineValue))
          NvccFlags.push_back(std::move(*Carried));
        apply(Option->Action, InlineValue);
      } else if (!translateJoined(Token) && isHostFlag(Token)) {
        Out.push_back(Token.str());
      }
    }
  }

  /// Short options glued to their value: `-DX`, `-Ifoo`, `-O3`.
  bool translateJoined(StringRef Token) {
    static constexpr std::pair<StringRef, NvccAction> Joined[] = {{"-D", NvccAction::Define},
                                                                  {"-U", NvccAction::Undefine},
                                                                  {"-I", NvccAction::Include},
                                                                  {"-O", NvccAction::Optimize}};
    for (auto [Prefix, Action] : Joined)
      if (Token.consume_front(Prefix)) {
        apply(Action, Token);
        return true;
      }
    return false;
  }

  /// Flags nvcc forwards to the host compiler (with
  /// -forward-unknown-to-host-compiler) that Clang understands. Anything else
  /// unknown is nvcc's and would make Clang fail.
  static bool isHostFlag(StringRef Token) {
    return !Token.starts_with("--") &&
           (Token.starts_with("-f") || Token.starts_with("-W") || Token.starts_with("-m"));
  }

  void apply(NvccAction Action, StringRef Value) {
    switch (Action) {
    case NvccAction::Drop:
    case NvccAction::NvccLanguage: // Recorded by translateTokens.
    case NvccAction::NvccCodegen:
      break;
    case NvccAction::Arch:
      llvm::append_range(ArchValues, splitList(Value));
      break;
    case NvccAction::Code:
      llvm::append_range(CodeValues, splitList(Value));
      break;
    case NvccAction::GenCode:
      addGencode(Value);
      break;
    case NvccAction::Rdc:
      if (Value.equals_insensitive("true"))
        Out.push_back("-fgpu-rdc");
      break;
    case NvccAction::DeviceC:
      Out.push_back("-fgpu-rdc");
      break;
    case NvccAction::FastMath:
      Out.push_back("-ffast-math");
      break;
    case NvccAction::HostArgs:
      llvm::append_range(Out, splitList(Value));
      break;
    case NvccAction::OptionsFile:
      for (const std::string &File : splitList(Value))
        readOptionsFile(File);
      break;
    case NvccAction::Language:
      Out.insert(Out.end(), {"-x", Value == "cu" ? "cuda" : Value.str()});
      break;
    case NvccAction::Std:
      Out.push_back(("-std=" + Value).str());
      break;
    case NvccAction::Define:
      Out.push_back(("-D" + Value).str());
      break;
    case NvccAction::Undefine:
      Out.push_back(("-U" + Value).str());
      break;
    case NvccAction::Include:
      Out.push_back(("-I" + Value).str());
      break;
    case NvccAction::SystemInclude:
      Out.insert(Out.end(), {"-isystem", Value.str()});
      break;
    case NvccAction::QuoteInclude:
      Out.insert(Out.end(), {"-iquote", Value.str()});
      break;
    case NvccAction::PreInclude:
      Out.insert(Out.end(), {"-include", Value.str()});
      break;
    case NvccAction::Optimize:
      Out.push_back(("-O" + Value).str());
      break;
    }
  }

  /// `arch=compute_90a,code=[compute_90a,sm_90a]`; `code` may also be quoted
  /// (`code="sm_90a,compute_90a"`) or a bare name.
  void addGencode(StringRef Value) {
    std::string Clean = Value.str();
    llvm::erase_if(Clean, [](char C) { return StringRef("[]\"' ").contains(C); });
    std::vector<std::string> Arch, Code, *Current = nullptr;
    for (StringRef Item : splitList(Clean)) {
      if (Item.consume_front("arch="))
        Current = &Arch;
      else if (Item.consume_front("code="))
        Current = &Code;
      if (Current && !Item.empty())
        Current->push_back(Item.str());
    }
    llvm::append_range(Archs, realArchs(Arch, Code));
  }

  /// nvcc's response file; CMake's Makefile generator passes include dirs
  /// this way.
  void readOptionsFile(StringRef Name) {
    std::string Path = absolutePath(Name, Directory);
    if (!ReadOptionsFiles.insert(Path).second)
      return; // A file naming itself.
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return; // Written by the build; an unbuilt tree lacks it.
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *> Tokens;
    llvm::cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Tokens);
    translateTokens(std::vector<std::string>(Tokens.begin(), Tokens.end()));
  }

  StringRef Directory;
  std::vector<std::string> Out;
  std::vector<std::string> Archs;                  ///< From -gencode, in order.
  std::vector<std::string> ArchValues, CodeValues; ///< From -arch and -code.
  llvm::StringSet<> ReadOptionsFiles;
};

//===----------------------------------------------------------------------===//
// Stage 2: GCC-style arguments to the flags of a syntax-only parse
//===----------------------------------------------------------------------===//

bool isInputFile(StringRef Arg) {
  StringRef Ext = llvm::sys::path::extension(Arg);
  return !Arg.starts_with("-") && llvm::is_contained({".cu", ".cpp", ".cc", ".cxx", ".c"}, Ext);
}

bool isDroppedFlag(StringRef Arg) {
  return llvm::is_contained({"-c", "-M", "-MM", "-MD", "-MMD", "-MP"}, Arg);
}

/// Output and dependency-file flags: `-o X`, `-MF X`, `-MFX`, ... Returns how
/// many arguments the flag spans (0 if `Arg` is not one).
size_t droppedFlagWithValue(StringRef Arg) {
  if (Arg == "-o")
    return 2;
  for (StringRef Flag : {"-MF", "-MT", "-MQ"})
    if (Arg.starts_with(Flag))
      return Arg == Flag ? 2 : 1;
  return 0;
}

/// Adds an include-path flag with its path made absolute, if `Args[I]` is one.
/// Returns how many arguments it spans (0 if none).
size_t addIncludeFlag(ArrayRef<std::string> Args, size_t I, StringRef Directory,
                      std::vector<std::string> &Out) {
  StringRef Arg = Args[I];
  if (Arg.starts_with("-I")) {
    bool Separate = Arg == "-I";
    if (Separate && I + 1 == Args.size())
      return 1;
    Out.push_back("-I" +
                  absolutePath(Separate ? StringRef(Args[I + 1]) : Arg.drop_front(2), Directory));
    return Separate ? 2 : 1;
  }
  for (StringRef Flag : {"-isystem", "-iquote", "-include"}) {
    StringRef Path = Arg;
    // `-include-pch` and the like are other flags, not joined paths.
    if (!Path.consume_front(Flag) || Path.starts_with("-"))
      continue;
    bool Separate = Path.empty();
    if (Separate && I + 1 == Args.size())
      return 1;
    Out.push_back(Flag.str());
    Out.push_back(absolutePath(Separate ? StringRef(Args[I + 1]) : Path, Directory));
    return Separate ? 2 : 1;
  }
  return 0;
}

/// Records `--cuda-gpu-arch=X` / `--offload-arch=X` in GpuArchs; returns
/// false for a repeated arch, whose flag is dropped.
bool recordGpuArch(StringRef Arg, TUFlags &Flags) {
  for (StringRef Prefix : {"--cuda-gpu-arch=", "--offload-arch="}) {
    StringRef Arch = Arg;
    if (!Arch.consume_front(Prefix))
      continue;
    if (llvm::is_contained(Flags.GpuArchs, Arch))
      return false;
    Flags.GpuArchs.push_back(Arch.str());
  }
  return true;
}

TUFlags cleanCommand(ArrayRef<std::string> Args, const std::string &Directory) {
  TUFlags Flags;
  Flags.Directory = Directory;
  for (size_t I = 0; I < Args.size();) {
    StringRef Arg = Args[I];
    if (size_t Span = droppedFlagWithValue(Arg)) {
      I += Span;
    } else if (size_t Span = addIncludeFlag(Args, I, Directory, Flags.Args)) {
      I += Span;
    } else {
      if (!isInputFile(Arg) && !isDroppedFlag(Arg) && recordGpuArch(Arg, Flags))
        Flags.Args.push_back(Arg.str());
      ++I;
    }
  }
  return Flags;
}

//===----------------------------------------------------------------------===//
// Toolchain discovery
//===----------------------------------------------------------------------===//
/// Directories named src, csrc or include under `Root`, sorted. Hidden
/// directories (.git, editor and CI state) and symlinks are not walked: they
/// hold no upstream headers, and links may lead out of the tree or loop.
std::vector<std::string> findSourceIncludeDirs(StringRef Root) {
  std::vector<std::string> Dirs;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    if (It->type() != llvm::sys::fs::file_type::directory_file)
      continue;
    StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.starts_with("."))
      It.no_push();
    else if (Name == "src" || Name == "csrc" || Name == "include")
      Dirs.push_back(It->path());
  }
  llvm::sort(Dirs);
  return Dirs;
}

} // namespace

TUFlags normalizeCompileCommand(const std::vector<std::string> &Argv,
                                const std::string &Directory) {
  if (Argv.empty())
    return cleanCommand({}, Directory);
  ArrayRef<std::string> Args = ArrayRef(Argv).drop_front();
  if (!llvm::sys::path::filename(Argv.front()).contains("nvcc"))
    return cleanCommand(Args, Directory);
  NvccTranslator Translator(Directory);
  TUFlags Flags = cleanCommand(Translator.translate(Args), Directory);
  Flags.NvccFlags = std::move(Translator.NvccFlags);
  return Flags;
}

llvm::Expected<CompileDatabase> loadCompileDatabase(const std::string &BuildDir) {
  llvm::SmallString<256> PathStorage(BuildDir);
  llvm::sys::path::append(PathStorage, "compile_commands.json");
  std::string Path(PathStorage);
  auto Fail = [&](const std::string &Reason, const char *Fix) {
    return opmig::inputError("cannot use compile database ", Path, inputs::BuildDir, ": ", Reason,
                             "; ", Fix);
  };
  if (!llvm::sys::fs::is_directory(BuildDir))
    return Fail(BuildDir + " is not a directory",
                "pass the build directory that holds compile_commands.json");
  if (!llvm::sys::fs::exists(Path))
    return Fail("no such file",
                "configure the build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON (or run it under "
                "bear) to write one");
  // LLVM's own reader prints parse errors to stderr; check the JSON first so
  // the one error message is ours, with its line and column.
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path)) {
    // LLVM's JSON parser recurses once per level: bound it before it runs.
    if (opmig::jsonNestingDepth((*Buffer)->getBuffer()) > opmig::MaxJsonDepth)
      return Fail("nested deeper than " + std::to_string(opmig::MaxJsonDepth) + " levels",
                  "regenerate it; a compile database is a list of flat objects");
    if (auto Parsed = llvm::json::parse((*Buffer)->getBuffer()); !Parsed)
      return Fail(llvm::toString(Parsed.takeError()), "regenerate it, or fix the JSON");
  }
  std::string Error;
  auto Database = clang::tooling::JSONCompilationDatabase::loadFromFile(
      Path, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Database)
    return Fail(StringRef(Error).rtrim(". ").str(), "regenerate it, or fix the JSON");
  std::vector<clang::tooling::CompileCommand> Commands = Database->getAllCompileCommands();
  if (Commands.empty())
    return Fail("it has no entries", "regenerate it from a configured build");
  CompileDatabase Result;
  // A file compiled several times keeps its first command: a stable choice,
  // and the database lists commands in build order.
  for (const clang::tooling::CompileCommand &Command : Commands)
    Result.ByFile.try_emplace(absolutePath(Command.Filename, Command.Directory),
                              normalizeCompileCommand(Command.CommandLine, Command.Directory));
  return Result;
}

TUFlags inferFlags(const std::string &SourceRoot, const ToolchainPaths &Toolchain,
                   const UpstreamBuildFlags &Upstream) {
  TUFlags Flags;
  Flags.Directory = absoluteFromCwd(SourceRoot);
  unsigned Standard = std::max({17u, Toolchain.Torch.CxxStandard, Upstream.CxxStandard});
  Flags.Args = {"-std=c++" + std::to_string(Standard)};
  Flags.Args.insert(Flags.Args.end(), Upstream.Defines.begin(), Upstream.Defines.end());
  Flags.Args.push_back("-I" + Flags.Directory);
  std::vector<std::string> Dirs = Upstream.IncludeDirs;
  for (std::string &Dir : findSourceIncludeDirs(Flags.Directory))
    if (!llvm::is_contained(Dirs, Dir))
      Dirs.push_back(std::move(Dir));
  for (const std::string &Dir : Dirs)
    Flags.Args.push_back("-I" + Dir);
  for (const std::string &Dir : Toolchain.Torch.IncludeDirs)
    Flags.Args.insert(Flags.Args.end(), {"-isystem", Dir});
  if (!Toolchain.PythonIncludeDir.empty())
    Flags.Args.insert(Flags.Args.end(), {"-isystem", Toolchain.PythonIncludeDir});
  return Flags;
}

std::vector<std::string> commonClangFlags(const ToolchainPaths &Toolchain) {
  std::vector<std::string> Flags;
  // A default-constructed ToolchainPaths has none; an empty -resource-dir=
  // would hide Clang's own headers.
  if (!Toolchain.ResourceDir.empty())
    Flags.push_back("-resource-dir=" + Toolchain.ResourceDir);
  if (Toolchain.CudaPath.empty()) {
    Flags.insert(Flags.end(), {"-nocudainc", "-nocudalib"});
  } else {
    Flags.push_back("--cuda-path=" + Toolchain.CudaPath);
    // CUDA 13 keeps CCCL (cub, thrust, cuda::std) here; nvcc adds it itself,
    // Clang does not.
    Flags.insert(Flags.end(), {"-isystem", Toolchain.CudaPath + "/include/cccl"});
  }
  // The toolkit may be newer than Clang knows; only errors are reported.
  Flags.insert(Flags.end(), {"-Wno-unknown-cuda-version", "-w", "-ferror-limit=0"});
  return Flags;
}

} // namespace opmig::analyze
