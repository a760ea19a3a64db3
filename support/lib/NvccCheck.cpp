#include "opmig/support/NvccCheck.h"

#include "opmig/support/CommandRunner.h"
#include "opmig/support/SourceFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

namespace opmig {

namespace {

constexpr size_t MaxErrors = 20;
/// A front-end pass over the heaviest torch TU takes well under a minute.
constexpr unsigned TimeoutSeconds = 900;

/// The flags both compilers read the same way; Clang's own (resource dir,
/// CUDA path, warnings) and the CCCL directory nvcc adds by itself are left
/// out.
std::vector<std::string> portableFlags(const std::vector<std::string> &Flags) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef Flag = Flags[I];
    bool TakesNext = (Flag == "-isystem" || Flag == "-include" || Flag == "-I" || Flag == "-D" ||
                      Flag == "-U") &&
                     I + 1 < Flags.size();
    if (TakesNext) {
      if (!llvm::StringRef(Flags[I + 1]).ends_with("/include/cccl"))
        Out.insert(Out.end(), {Flags[I], Flags[I + 1]});
      ++I;
    } else if (Flag.starts_with("-D") || Flag.starts_with("-U") || Flag.starts_with("-I") ||
               Flag.starts_with("-std=")) {
      Out.push_back(Flags[I]);
    }
  }
  return Out;
}

/// `sm_90a` -> `compute_90a`.
std::string virtualArch(llvm::StringRef GpuArch) {
  llvm::StringRef Number = GpuArch;
  Number.consume_front("sm_");
  return ("compute_" + Number).str();
}

/// `sm_90a` stays `sm_90a`; `compute_90` (an upstream that ships PTX only)
/// is assembled for `sm_90`.
std::string realArch(llvm::StringRef GpuArch) {
  llvm::StringRef Number = GpuArch;
  if (!Number.consume_front("sm_"))
    Number.consume_front("compute_");
  return ("sm_" + Number).str();
}

} // namespace

std::string findNvcc(const std::string &CudaPath) {
  if (!CudaPath.empty()) {
    std::string Candidate = CudaPath + "/bin/nvcc";
    if (llvm::sys::fs::can_execute(Candidate))
      return Candidate;
  }
  if (llvm::ErrorOr<std::string> OnPath = llvm::sys::findProgramByName("nvcc"))
    return *OnPath;
  return "";
}

std::vector<std::string> nvccCheckCommand(const NvccCheckRequest &Request) {
  bool Cuda = isCudaSource(Request.MainFile);
  bool FrontEnd = Request.Stage == NvccStage::FrontEnd;
  std::vector<std::string> Args = {Request.Nvcc, "-x", Cuda ? "cu" : "c++"};
  for (std::string &Flag : portableFlags(Request.Flags))
    Args.push_back(std::move(Flag));
  if (Cuda) {
    Args.insert(Args.end(), Request.NvccFlags.begin(), Request.NvccFlags.end());
    std::string Arch = virtualArch(Request.GpuArch);
    std::string Code = Request.Stage == NvccStage::Object ? realArch(Request.GpuArch) : Arch;
    Args.push_back("-gencode=arch=" + Arch + ",code=" + Code);
    if (Request.Stage != NvccStage::Object)
      Args.insert(Args.end(), {"-Xcicc", "-O0"});
    if (FrontEnd)
      Args.push_back("-cuda");
  } else if (FrontEnd) {
    Args.insert(Args.end(), {"-Xcompiler", "-fsyntax-only"});
  }
  if (!FrontEnd)
    Args.insert(Args.end(), {"-Xcompiler", "-fPIC"});
  if (!FrontEnd || !Cuda)
    Args.push_back("-c");
  Args.insert(Args.end(), {"-o", FrontEnd ? "/dev/null" : Request.ObjectFile, Request.MainFile});
  return Args;
}

std::vector<CompilerError> parseCompilerErrors(llvm::StringRef Output) {
  static const llvm::Regex Nvcc("^(.+)\\(([0-9]+)\\): (catastrophic )?error: (.*)$");
  static const llvm::Regex Host("^(.+):([0-9]+):[0-9]+: (fatal )?error: (.*)$");
  std::vector<CompilerError> Errors;
  llvm::SmallVector<llvm::StringRef> Lines;
  Output.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 5> Match;
    if (!Nvcc.match(Line.rtrim(), &Match) && !Host.match(Line.rtrim(), &Match))
      continue;
    CompilerError Error{Match[1].str(), 0, Match[4].str()};
    Match[2].getAsInteger(10, Error.Line);
    Errors.push_back(std::move(Error));
  }
  return Errors;
}

NvccVerdict checkWithNvcc(const NvccCheckRequest &Request) {
  return runNvccCommand(nvccCheckCommand(Request));
}

NvccVerdict runNvccCommand(const std::vector<std::string> &Command) {
  NvccVerdict Verdict;
  CommandOptions Options;
  Options.TimeoutSeconds = TimeoutSeconds;
  CommandRun Run = runCommand(Command, Options);
  if (!Run.Finished) {
    Verdict.Problem = Run.firstError();
    return Verdict;
  }
  Verdict.Ran = true;
  Verdict.Accepted = Run.ExitCode == 0;
  Verdict.Errors = parseCompilerErrors(Run.Output);
  if (Verdict.Errors.size() > MaxErrors)
    Verdict.Errors.resize(MaxErrors);
  if (!Verdict.Accepted && Verdict.Errors.empty())
    Verdict.Problem = Run.firstError();
  return Verdict;
}

} // namespace opmig
