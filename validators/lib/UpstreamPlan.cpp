//===- UpstreamPlan.cpp - The upstream closure, built unchanged -----------===//

#include "opmig/support/Errors.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/SourceFiles.h"
#include "opmig/validate/EntryDefinition.h"
#include "opmig/validate/LeftOutBlanking.h"
#include "opmig/validate/UpstreamBuild.h"
#include "opmig/validate/Validate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <deque>
#include <set>

namespace opmig::validate {

namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using llvm::StringRef;

} // namespace

bool isCodegenFlag(StringRef T) {
  if (T.size() == 3 && T.starts_with("-O") && StringRef("0123s").contains(T[2]))
    return true;
  if (T == "--use_fast_math" || T == "-use_fast_math" || T == "-DNDEBUG" || T == "-lineinfo")
    return true;
  for (StringRef Prefix :
       {"--ftz=", "-ftz=", "--prec-div=", "-prec-div=", "--prec-sqrt=", "-prec-sqrt=", "--fmad=",
        "-fmad=", "--maxrregcount=", "-maxrregcount=", "-Xptxas=", "--ptxas-options="})
    if (T.starts_with(Prefix) && T.size() > Prefix.size())
      return true;
  return false;
}

namespace {

std::optional<std::string> readText(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

/// The spellings of `#include "x"` and `#include <x>` in `Text`.
std::vector<std::string> includeSpellings(StringRef Text) {
  std::vector<std::string> Spellings;
  llvm::Regex Include("^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">]");
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    llvm::SmallVector<StringRef> Match;
    if (Include.match(Line, &Match))
      Spellings.push_back(Match[1].str());
  }
  return Spellings;
}

bool skippedFolder(StringRef Name) {
  return Name.starts_with(".") || Name == "build" || Name == "__pycache__" ||
         Name == "node_modules";
}

/// Every C++/CUDA file under `Root` (Root-relative, sorted), for includes a
/// closure file does not satisfy (a submodule's headers).
std::vector<std::string> treeFiles(const std::string &Root) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC)) {
    StringRef Name = path::filename(It->path());
    if (It->type() == fs::file_type::directory_file && skippedFolder(Name))
      It.no_push();
    else if (It->type() != fs::file_type::directory_file && isSourceFileName(It->path()))
      Files.push_back(It->path().substr(Root.size() + 1));
  }
  llvm::sort(Files);
  return Files;
}

/// The folder (Root-relative, "" for Root) through which `Spelling` names
/// one of `Candidates`, or nullopt.
std::optional<std::string> folderHolding(const std::string &Spelling,
                                         const std::vector<std::string> &Candidates) {
  for (const std::string &File : Candidates) {
    if (File == Spelling)
      return std::string();
    if (StringRef(File).ends_with("/" + Spelling))
      return File.substr(0, File.size() - Spelling.size() - 1);
  }
  return std::nullopt;
}

void addUnique(std::vector<std::string> &List, std::string Value) {
  if (!llvm::is_contained(List, Value))
    List.push_back(std::move(Value));
}

/// The codegen flags of DIR's setup.py and CMakeLists.txt.
void readBuildFiles(const std::string &Root, UpstreamPlan &Plan) {
  for (const char *File : {"setup.py", "CMakeLists.txt"}) {
    std::optional<std::string> Text = readText(Root + "/" + File);
    if (!Text)
      continue;
    std::vector<std::string> Flags = codegenFlagsIn(*Text);
    if (Flags.empty())
      continue;
    Plan.FlagsFrom.push_back(File);
    for (std::string &Flag : Flags)
      addUnique(Plan.NvccFlags, std::move(Flag));
  }
}

llvm::Error checkClosure(const Manifest &M, const std::string &Root) {
  for (const MigratedFileRecord &F : M.Files) {
    std::optional<std::string> Text = readText(Root + "/" + F.UpstreamPath);
    if (!Text)
      return inputError("the upstream file ", F.UpstreamPath, " (", F.TargetPath,
                        "'s origin) is not in ", Root);
    if (!F.UpstreamSha256.empty() && sha256Hex(*Text) != F.UpstreamSha256)
      return inputError("the upstream file ", F.UpstreamPath, " differs from the one ",
                        F.TargetPath, " was migrated from (sha256 ", F.UpstreamSha256.substr(0, 12),
                        "..., recorded at upstream commit ", M.Upstream.Commit,
                        "): check out that commit in ", Root);
  }
  return llvm::Error::success();
}

/// What migrate left out of each file; a range that does not fit the file
/// is bad input (checkClosure has compared the sha256 already, where the
/// manifest records one).
llvm::Error addLeftOut(const Manifest &M, UpstreamPlan &Plan) {
  for (const MigratedFileRecord &F : M.Files) {
    // A header is included as it is: its left-out definitions are inline
    // or templates, which need nothing unless used.
    if (F.LeftOut.empty() || !isTranslationUnitName(F.UpstreamPath))
      continue;
    std::optional<std::string> Text = readText(Plan.SourceRoot + "/" + F.UpstreamPath);
    llvm::Expected<std::string> Blanked =
        blankLeftOut(Text.value_or(""), F.LeftOut, F.UpstreamPath);
    if (!Blanked)
      return Blanked.takeError();
    Plan.LeftOut[F.UpstreamPath] = F.LeftOut;
  }
  return llvm::Error::success();
}

/// The registration TU's include for `Spelling`, included by `TU`: the
/// file beside the TU (absolute), else as spelled, through the include dirs.
std::string includeFor(const std::string &Root, const std::string &TU,
                       const std::string &Spelling) {
  std::string Beside = Root + "/" + path::parent_path(TU).str();
  Beside += (StringRef(Beside).ends_with("/") ? "" : "/") + Spelling;
  if (fs::exists(Beside))
    return Beside;
  return "<" + Spelling + ">";
}

/// The entry as the closure TU that defines it writes it, for an entry no
/// header declares; InputError when no TU defines it or none can call it.
llvm::Expected<UpstreamEntry> definedEntry(const ManifestOp &Op, const UpstreamPlan &Plan) {
  for (const std::string &TU : Plan.Sources) {
    std::optional<std::string> Text = readText(Plan.SourceRoot + "/" + TU);
    if (!Text)
      continue;
    llvm::Expected<std::optional<EntryDefinition>> Found =
        findEntryDefinition(Op.UpstreamFunction, *Text, TU);
    if (!Found)
      return inputError("op ", Op.Name, ": ", llvm::toString(Found.takeError()));
    if (!*Found)
      continue;
    UpstreamEntry E;
    E.Op = Op.Name;
    E.Schema = Op.Schema;
    E.Function = (*Found)->qualifiedName();
    E.Declaration = (*Found)->declaration();
    for (const std::string &Spelling : (*Found)->Includes)
      E.Includes.push_back(includeFor(Plan.SourceRoot, TU, Spelling));
    return E;
  }
  return inputError("no header of the upstream closure declares ", Op.UpstreamFunction, " (op ",
                    Op.Name, "), and no TU of it (", llvm::join(Plan.Sources, ", "),
                    ") defines it at namespace scope: the registration TU cannot declare it");
}

llvm::Error addEntries(const Manifest &M, UpstreamPlan &Plan) {
  std::vector<std::string> Headers;
  for (const std::string &File : Plan.Files)
    if (!isTranslationUnitName(File))
      Headers.push_back(Plan.SourceRoot + "/" + File);
  for (const ManifestOp &Op : M.Ops) {
    std::string Header = declaringHeader(Op.UpstreamFunction, Headers);
    if (!Header.empty()) {
      Plan.Entries.push_back({Op.Name, Op.Schema, Op.UpstreamFunction, Header, {}, ""});
      continue;
    }
    llvm::Expected<UpstreamEntry> Defined = definedEntry(Op, Plan);
    if (!Defined)
      return Defined.takeError();
    Plan.Entries.push_back(std::move(*Defined));
  }
  return llvm::Error::success();
}

} // namespace

std::vector<std::string> codegenFlagsIn(StringRef Text) {
  std::vector<std::string> Flags;
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (Line.ltrim().starts_with("#"))
      continue;
    llvm::SmallVector<StringRef> Tokens;
    llvm::SplitString(Line, Tokens, " \t\"'(),[]{}<>:;");
    for (StringRef Token : Tokens)
      if (isCodegenFlag(Token))
        addUnique(Flags, Token.str());
  }
  return Flags;
}

std::vector<std::string> upstreamIncludeDirs(const std::string &Root,
                                             const std::vector<std::string> &Files) {
  std::vector<std::string> Dirs;
  std::optional<std::vector<std::string>> Tree; // read once, when needed
  std::set<std::string> Seen(Files.begin(), Files.end());
  std::deque<std::string> Queue(Files.begin(), Files.end());
  while (!Queue.empty()) {
    std::string File = Queue.front();
    Queue.pop_front();
    std::optional<std::string> Text = readText(Root + "/" + File);
    if (!Text)
      continue;
    StringRef Folder = path::parent_path(File);
    for (const std::string &Spelling : includeSpellings(*Text)) {
      std::string Beside = Folder.empty() ? Spelling : (Folder + "/" + Spelling).str();
      if (fs::exists(Root + "/" + Beside))
        continue;
      std::optional<std::string> Holder = folderHolding(Spelling, Files);
      if (!Holder) {
        if (!Tree)
          Tree = treeFiles(Root);
        Holder = folderHolding(Spelling, *Tree);
      }
      if (!Holder)
        continue; // torch, CUDA, the standard library
      addUnique(Dirs, Holder->empty() ? Root : Root + "/" + *Holder);
      std::string Found = Holder->empty() ? Spelling : *Holder + "/" + Spelling;
      if (Seen.insert(Found).second)
        Queue.push_back(Found);
    }
  }
  return Dirs;
}

llvm::Expected<UpstreamPlan> planUpstreamBuild(const Manifest &M, const std::string &SourceRoot,
                                               const std::string &OpNamespace,
                                               const std::vector<CudaArch> &Archs,
                                               const std::vector<std::string> &ExtraFlags,
                                               const std::vector<std::string> &MigratedFlags) {
  if (!fs::is_directory(SourceRoot))
    return inputError("the upstream tree '", SourceRoot, "'", inputs::Source,
                      " is not a directory");
  if (llvm::Error E = checkClosure(M, SourceRoot))
    return E;
  UpstreamPlan Plan;
  Plan.SourceRoot = SourceRoot;
  Plan.Namespace = upstreamNamespace(OpNamespace);
  for (const MigratedFileRecord &F : M.Files) {
    Plan.Files.push_back(F.UpstreamPath);
    if (isTranslationUnitName(F.UpstreamPath))
      Plan.Sources.push_back(F.UpstreamPath);
  }
  Plan.IncludeDirs = upstreamIncludeDirs(SourceRoot, Plan.Files);
  if (llvm::Error E = addLeftOut(M, Plan))
    return E;
  if (M.Build) {
    Plan.CommonFlags.push_back("-std=c++" + std::to_string(M.Build->CxxStandard));
    llvm::append_range(Plan.CommonFlags, M.Build->Defines);
    llvm::append_range(Plan.NvccFlags, M.Build->NvccFlags);
    Plan.FlagsFrom.push_back("the manifest");
  }
  readBuildFiles(SourceRoot, Plan);
  if (!ExtraFlags.empty())
    Plan.FlagsFrom.push_back("the upstream flags given");
  for (const std::string &Flag : ExtraFlags)
    addUnique(Plan.NvccFlags, Flag);
  Plan.CodegenFlagsKnown = Plan.FlagsFrom.size() > (M.Build ? 1u : 0u);
  if (!Plan.CodegenFlagsKnown) {
    // Nothing says how upstream generates code: build it as the migrated
    // build does, so that a difference is the code's, not the flags'.
    for (const std::string &Flag : MigratedFlags)
      if (isCodegenFlag(Flag))
        addUnique(Plan.NvccFlags, Flag);
    Plan.FlagsFrom.push_back("the migrated build's code-generation flags (the upstream's are "
                             "written nowhere in " +
                             SourceRoot + ")");
  }
  for (const CudaArch &Arch : Archs)
    llvm::append_range(Plan.NvccFlags, Arch.gencodeFlags());
  if (llvm::Error E = addEntries(M, Plan))
    return E;
  return Plan;
}

std::string upstreamBuildKeyText(const UpstreamPlan &Plan, const std::string &Registration,
                                 const std::string &Toolchain) {
  std::string Text = "format: opmig.validate.upstream-build/1\n";
  auto Line = [&](StringRef Name, const std::string &Value) {
    Text += (Name + ": " + Value + "\n").str();
  };
  Line("source", Plan.SourceRoot);
  Line("sources", llvm::join(Plan.Sources, " "));
  Line("include dirs", llvm::join(Plan.IncludeDirs, " "));
  Line("common flags", llvm::join(Plan.CommonFlags, " "));
  Line("nvcc flags", llvm::join(Plan.NvccFlags, " "));
  Line("registration", sha256Hex(Registration));
  for (const std::string &File : Plan.Files)
    Line("file " + File, sha256Hex(readText(Plan.SourceRoot + "/" + File).value_or("missing")));
  for (const auto &[File, Ranges] : Plan.LeftOut)
    for (const LeftOutRange &R : Ranges)
      Line("left out " + File,
           std::to_string(R.Begin) + "-" + std::to_string(R.End) + " " + describeLeftOut({R}));
  Line("toolchain", Toolchain);
  return Text;
}

} // namespace opmig::validate
