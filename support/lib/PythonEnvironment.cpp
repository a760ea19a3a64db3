#include "opmig/support/PythonEnvironment.h"

#include "opmig/support/CapturedOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <optional>

namespace opmig {

namespace fs = llvm::sys::fs;
using llvm::StringRef;

namespace {

/// Prints `key=value` lines; never imports torch.
constexpr StringRef ProbeScript = R"py(
import importlib.util, sysconfig
print("python_include=" + (sysconfig.get_paths().get("include") or ""))
try:
    spec = importlib.util.find_spec("torch")
except Exception:
    spec = None
for location in (spec.submodule_search_locations or []) if spec else []:
    print("torch_package=" + location)
    break
)py";

std::string readFileOrEmpty(StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

std::string versionOf(StringRef PackageDir) {
  llvm::SmallString<256> Path(PackageDir);
  llvm::sys::path::append(Path, "version.py");
  llvm::SmallVector<StringRef> Match;
  std::string Text = readFileOrEmpty(Path);
  if (llvm::Regex("__version__ *= *['\"]([^'\"]+)['\"]").match(Text, &Match))
    return Match[1].str();
  return "";
}

} // namespace

unsigned cxxStandardDemandedBy(const std::vector<std::string> &IncludeDirs) {
  // ATen.h and torch/all.h open with this check in every torch that has it.
  llvm::Regex Demand("#error C\\+\\+([0-9]+) or later compatible compiler");
  for (const std::string &Dir : IncludeDirs)
    for (StringRef Header : {"ATen/ATen.h", "torch/all.h"}) {
      llvm::SmallVector<StringRef> Match;
      if (Demand.match(readFileOrEmpty(Dir + "/" + Header.str()), &Match))
        return unsigned(std::stoul(Match[1].str()));
    }
  return 0;
}

TorchInstall torchFromPackage(StringRef PackageDir) {
  TorchInstall Torch;
  for (StringRef Sub : {"include", "include/torch/csrc/api/include"}) {
    std::string Dir = (PackageDir + "/" + Sub).str();
    if (fs::is_directory(Dir))
      Torch.IncludeDirs.push_back(Dir);
  }
  if (Torch.IncludeDirs.empty())
    return Torch;
  if (std::string Lib = (PackageDir + "/lib").str(); fs::is_directory(Lib))
    Torch.LibDir = Lib;
  Torch.Version = versionOf(PackageDir);
  Torch.CxxStandard = cxxStandardDemandedBy(Torch.IncludeDirs);
  return Torch;
}

TorchInstall torchFromIncludeDirs(const std::vector<std::string> &IncludeDirs) {
  TorchInstall Torch;
  Torch.IncludeDirs = IncludeDirs;
  Torch.CxxStandard = cxxStandardDemandedBy(IncludeDirs);
  // `<package>/include` is the usual first one; the package sits above it.
  for (const std::string &Dir : IncludeDirs) {
    StringRef Package = llvm::sys::path::parent_path(Dir);
    if (llvm::sys::path::filename(Dir) == "include" && fs::is_directory(Package.str() + "/lib")) {
      Torch.LibDir = Package.str() + "/lib";
      Torch.Version = versionOf(Package);
      break;
    }
  }
  return Torch;
}

PythonEnvironment probePythonEnvironment() {
  PythonEnvironment Env;
  llvm::ErrorOr<std::string> Python = llvm::sys::findProgramByName("python3");
  if (!Python)
    return Env;
  Env.Interpreter = *Python;
  StringRef Argv[] = {*Python, "-c", ProbeScript};
  // The probe imports nothing heavy; the limit only guards against a hang.
  std::optional<std::string> Output = captureOutput(*Python, Argv, /*SecondsToWait=*/60);
  if (!Output)
    return Env;
  bool WantTorch = llvm::sys::Process::GetEnv("OPMIG_NO_TORCH") != "1";
  llvm::SmallVector<StringRef> Lines;
  StringRef(*Output).split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    auto [Key, Value] = Line.trim().split('=');
    if (Key == "python_include" && fs::exists(Value.str() + "/Python.h"))
      Env.IncludeDir = Value.str();
    else if (Key == "torch_package" && WantTorch)
      Env.Torch = torchFromPackage(Value);
  }
  return Env;
}

} // namespace opmig
