//===- DomainBuild.cpp - The review's build check of a domain -------------===//

#include "DomainBuild.h"

#include "opmig/support/Errors.h"
#include "opmig/support/NvccCheck.h"
#include "opmig/support/NvccOptions.h"
#include "opmig/support/SourceFiles.h"
#include "opmig/support/Toolchain.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <map>

namespace opmig::audit {

namespace {

namespace fs = llvm::sys::fs;

/// The domain's TUs on disk: migrated ones, then owned generated ones (a
/// block in a target-owned file is never a TU). Missing ones are already
/// `missing-file` findings.
std::vector<std::string> domainTUs(const opmig::Manifest &M, const std::string &Target) {
  std::vector<std::string> TUs;
  auto Add = [&](const std::string &Path) {
    if (opmig::isTranslationUnitName(Path) && fs::is_regular_file(Target + "/" + Path))
      TUs.push_back(Path);
  };
  for (const opmig::MigratedFileRecord &F : M.Files)
    Add(F.TargetPath);
  for (const opmig::GeneratedFileRecord &G : M.Generated)
    if (G.Blocks.empty())
      Add(G.TargetPath);
  return TUs;
}

/// Whether the arguments after `--` name an include dir: stand-ins for
/// torch's headers, as the tests pass them.
bool namesIncludeDir(const std::vector<std::string> &Args) {
  return llvm::any_of(
      Args, [](llvm::StringRef A) { return A.starts_with("-I") || A.starts_with("-isystem"); });
}

/// What the glue passes, then torch and Python, then what follows `--`.
/// The standard is raised to what the torch found here demands: the one
/// recorded is what the migration's torch (or stand-ins) asked for.
std::vector<std::string> domainFlags(const opmig::BuildRecord &B, const std::string &Target,
                                     const opmig::ToolchainPaths &Toolchain,
                                     const BuildCheckOptions &Options) {
  unsigned Standard = std::max(B.CxxStandard, Toolchain.Torch.CxxStandard);
  std::vector<std::string> Flags = {"-std=c++" + std::to_string(Standard)};
  llvm::append_range(Flags, B.Defines);
  for (const std::string &Dir : B.IncludeDirs)
    Flags.push_back("-I" + Target + "/" + Dir);
  for (const std::string &Dir : Toolchain.Torch.IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  if (!Toolchain.PythonIncludeDir.empty())
    Flags.insert(Flags.end(), {"-isystem", Toolchain.PythonIncludeDir});
  llvm::append_range(Flags, Options.ExtraArgs);
  return Flags;
}

/// The namespaces only the domain defines: where renames and the wrap put
/// upstream code, and the ops' C++ functions'.
std::vector<std::string> ownNamespaces(const opmig::Manifest &M) {
  std::vector<std::string> Namespaces;
  for (const opmig::NamespaceRename &R : M.Renames)
    Namespaces.push_back(R.To);
  if (!M.WrapGlobalInto.empty())
    Namespaces.push_back(M.WrapGlobalInto);
  for (const opmig::ManifestOp &Op : M.Ops)
    if (size_t At = Op.CppFunction.rfind("::"); At != std::string::npos)
      Namespaces.push_back(Op.CppFunction.substr(0, At));
  return Namespaces;
}

std::string hostCompiler() {
  for (llvm::StringRef Name : {"c++", "g++"})
    if (llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName(Name))
      return *Path;
  return "";
}

/// Links the objects of a domain whose TUs all compiled; says why not
/// otherwise.
void linkDomain(BuildCheckResult &Result, const opmig::Manifest &M,
                const opmig::ToolchainPaths &Toolchain, const std::string &ObjectDir) {
  if (!llvm::all_of(Result.TUs, [](const CompiledTU &TU) { return TU.Compiles; })) {
    Result.LinkNotRunBecause = "a TU does not compile";
    return;
  }
  LinkRequest Request;
  Request.Linker = Result.Nvcc;
  for (const CompiledTU &TU : Result.TUs)
    Request.Objects.push_back(TU.Object);
  Request.Library = ObjectDir + "/lib" + M.Domain + ".so";
  Request.Runtime = {Toolchain.Torch.LibDir, Toolchain.Torch.Version, Toolchain.CudaPath,
                     hostCompiler(),
                     "only symbols of the domain's own namespaces count as missing"};
  Request.OwnNamespaces = ownNamespaces(M);
  Result.Link = linkObjects(Request);
  Result.Linked = true;
}

/// A result whose `NotRunBecause` is set: nothing was compiled or linked.
BuildCheckResult notRun(BuildCheckResult Result) {
  Result.LinkNotRunBecause = "the build check did not run";
  return Result;
}

std::string absolute(const std::string &Path) {
  llvm::SmallString<256> Absolute(Path);
  fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

} // namespace

size_t BuildCheckResult::compiling() const {
  return llvm::count_if(TUs, [](const CompiledTU &TU) { return TU.Compiles; });
}

size_t BuildCheckResult::reused() const {
  return llvm::count_if(TUs, [](const CompiledTU &TU) { return TU.Reused; });
}

llvm::Error checkBuildCheckOptions(const BuildCheckOptions &Options) {
  if (!Options.GpuArch.empty() && !isCudaArch(Options.GpuArch))
    return inputError("invalid GPU architecture '", Options.GpuArch, "'", inputs::BuildGpuArch,
                      "; name an NVIDIA architecture such as sm_80, sm_90 or sm_90a");
  return llvm::Error::success();
}

BuildCheckResult checkDomainBuilds(const opmig::Manifest &M, const std::string &TargetArg,
                                   const std::optional<BuildCheckOptions> &Options) {
  BuildCheckResult Result;
  Result.Asked = Options.has_value();
  std::string Target = absolute(TargetArg);
  std::vector<std::string> TUs = domainTUs(M, Target);
  if (!Options)
    Result.NotRunBecause = "not asked for";
  else if (!M.Build)
    Result.NotRunBecause = "the manifest records no build flags (written by an older opmig); "
                           "re-run opmig migrate to record them";
  else if (TUs.empty())
    Result.NotRunBecause = "the domain has no translation unit in the target";
  if (!Result.NotRunBecause.empty())
    return notRun(std::move(Result));
  opmig::ToolchainPaths Toolchain =
      opmig::findToolchain(Options->CudaPath, Options->TorchIncludeDirs);
  Result.Nvcc = opmig::findNvcc(Toolchain.CudaPath);
  if (Result.Nvcc.empty())
    Result.NotRunBecause = "no nvcc (neither <cuda-path>/bin/nvcc nor on PATH)";
  else if (Toolchain.Torch.IncludeDirs.empty() && !namesIncludeDir(Options->ExtraArgs))
    Result.NotRunBecause = "no torch headers (no torch package for python3, no torch include "
                           "dir given, no include dir among the Clang arguments)";
  if (!Result.NotRunBecause.empty())
    return notRun(std::move(Result));
  TreeCompileRequest Request;
  Request.Nvcc = Result.Nvcc;
  Request.Root = Target;
  Request.TUs = std::move(TUs);
  Request.Flags = domainFlags(*M.Build, Target, Toolchain, *Options);
  Request.NvccFlags = M.Build->NvccFlags;
  Request.GpuArch = !Options->GpuArch.empty()   ? Options->GpuArch
                    : !M.Build->GpuArch.empty() ? M.Build->GpuArch
                                                : "sm_90";
  Request.Jobs = Options->Jobs;
  llvm::SmallString<128> ObjectDir;
  if (std::error_code EC = fs::createUniqueDirectory("opmig-review-build", ObjectDir)) {
    Result.NotRunBecause = "cannot create a scratch folder for the objects: " + EC.message();
    return notRun(std::move(Result));
  }
  Request.Stage = opmig::NvccStage::HostObject;
  Request.ObjectDir = std::string(ObjectDir);
  Request.ObjectCacheDir = Options->ObjectCacheDir;
  Result.Ran = true;
  Result.GpuArch = Request.GpuArch;
  Result.TUs = compileTree(Request);
  linkDomain(Result, M, Toolchain, Request.ObjectDir);
  fs::remove_directories(ObjectDir);
  return Result;
}

std::vector<Finding> buildFindings(const BuildCheckResult &Build) {
  std::vector<Finding> Findings;
  for (const CompiledTU &TU : Build.TUs) {
    if (TU.Compiles)
      continue;
    const opmig::CompilerError &First = TU.Errors.front();
    std::string Where = First.File + (First.Line ? ":" + std::to_string(First.Line) : "");
    Findings.push_back(reviewFinding(ReviewKind::DoesNotCompile, TU.Path,
                                     "nvcc (host objects for " + Build.GpuArch +
                                         ") rejects it: " + Where + ": " + First.Message));
  }
  return Findings;
}

std::vector<Finding> linkFindings(const BuildCheckResult &Build) {
  if (!Build.Linked)
    return {};
  // A failed link is about the domain as a whole: it is reported on its first TU.
  std::string FirstTU = Build.TUs.empty() ? "" : Build.TUs.front().Path;
  if (!Build.Link.Linked)
    return {
        reviewFinding(ReviewKind::DoesNotLink, FirstTU, "the link fails: " + Build.Link.LinkError)};
  std::map<std::string, std::string> TUOfObject;
  for (const CompiledTU &TU : Build.TUs)
    TUOfObject[TU.Object] = TU.Path;
  std::vector<Finding> Findings;
  for (const UnresolvedSymbol &S : Build.Link.Unresolved) {
    std::string User = S.ReferencedBy.empty() ? FirstTU : TUOfObject[S.ReferencedBy.front()];
    Findings.push_back(reviewFinding(ReviewKind::DoesNotLink, User,
                                     "uses `" + S.Name +
                                         "`, which no TU of the domain defines, nor what it is "
                                         "loaded with"));
  }
  return Findings;
}

} // namespace opmig::audit
