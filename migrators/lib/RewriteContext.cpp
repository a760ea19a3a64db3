#include "RewriteContext.h"

#include "opmig/support/Errors.h"
#include "opmig/support/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace opmig::migrate {

std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

RewriteContext::RewriteContext(const RewriteRequest &Request)
    : Request(Request), Renames(Request.Renames), Root(realPathOf(Request.SourceRoot)) {
  for (const std::string &Dir : Request.ExternalDirs) {
    llvm::SmallString<256> Abs(Dir);
    if (llvm::sys::path::is_relative(Abs))
      llvm::sys::path::make_absolute(Root, Abs);
    ExternalDirs.push_back(realPathOf(Abs));
  }
}

llvm::Expected<std::unique_ptr<RewriteContext>>
RewriteContext::create(const RewriteRequest &Request) {
  std::unique_ptr<RewriteContext> Ctx(new RewriteContext(Request));
  for (const auto &[Upstream, Target] : Request.FileMap) {
    std::string Path = Ctx->Root + "/" + Upstream;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      return inputError("cannot read ", Path, ": ", Buffer.getError().message());
    std::string Real = realPathOf(Path);
    Ctx->ByReal[Real] = Ctx->Files.size();
    Ctx->Files.push_back({Upstream, Target, Real, SourceLayout((*Buffer)->getBuffer().str())});
  }
  return Ctx;
}

const PortedFile *RewriteContext::byRealPath(llvm::StringRef RealPath) const {
  auto It = ByReal.find(RealPath.str());
  return It == ByReal.end() ? nullptr : &Files[It->second];
}

PathClass RewriteContext::classify(llvm::StringRef RealPath) const {
  if (byRealPath(RealPath))
    return PathClass::Ported;
  if (!isWithin(RealPath, Root))
    return PathClass::External;
  for (const std::string &Dir : ExternalDirs)
    if (isWithin(RealPath, Dir))
      return PathClass::External;
  return PathClass::TreeNotPorted;
}

std::string RewriteContext::relative(llvm::StringRef RealPath) const {
  if (!isWithin(RealPath, Root) || RealPath.size() == Root.size())
    return RealPath.str();
  return RealPath.substr(Root.size() + 1).str();
}

} // namespace opmig::migrate
