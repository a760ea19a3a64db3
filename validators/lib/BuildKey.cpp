//===- BuildKey.cpp - When a domain's build can be reused -----------------===//

#include "opmig/validate/BuildKey.h"

#include "opmig/support/Hashing.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace opmig::validate {

namespace {

/// Changing how builds are made changes this, so old builds are not reused.
constexpr const char *KeyFormat = "opmig.validate.build/1";

std::string contentHash(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? sha256Hex((*Buffer)->getBuffer()) : "missing";
}

/// A compiler is known by where it is and which file it is.
std::string fileIdentity(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (Path.empty() || llvm::sys::fs::status(Path, Status))
    return Path + " (absent)";
  return Path + " " + std::to_string(Status.getSize()) + " " +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

} // namespace

std::string buildKeyText(const BuildPlan &Plan, const std::string &Root,
                         const BuildToolchain &Toolchain) {
  std::string Text = std::string("format: ") + KeyFormat + "\n";
  auto Line = [&](llvm::StringRef Name, const std::string &Value) {
    Text += (Name + ": " + Value + "\n").str();
  };
  Line("profile", Plan.Profile);
  Line("domain", Plan.Domain);
  Line("archs", torchArchList(Plan.Archs));
  Line("cmake source", Plan.CMakeSourceDir);
  const ExtensionDeclaration &E = Plan.Extension;
  Line("extension", E.Name);
  Line("sources", llvm::join(E.Sources, " "));
  Line("include dirs", llvm::join(E.IncludeDirs, " "));
  Line("cxx flags", llvm::join(E.CxxFlags, " "));
  Line("nvcc flags", llvm::join(E.NvccFlags, " "));
  for (const std::string &File : Plan.KeyedFiles)
    Line("file " + File, contentHash(Root + "/" + File));
  Line("torch", Toolchain.TorchVersion + " " + Toolchain.TorchDir);
  Line("nvcc", fileIdentity(Toolchain.Nvcc));
  Line("host compiler", fileIdentity(Toolchain.HostCompiler));
  Line("python headers", Toolchain.PythonIncludeDir);
  return Text;
}

std::string buildKey(const BuildPlan &Plan, const std::string &Root,
                     const BuildToolchain &Toolchain) {
  return sha256Hex(buildKeyText(Plan, Root, Toolchain)).substr(0, 16);
}

} // namespace opmig::validate
