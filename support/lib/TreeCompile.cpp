//===- TreeCompile.cpp - Compile TUs as they are on disk ------------------===//

#include "opmig/support/TreeCompile.h"

#include "opmig/support/ObjectCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

namespace opmig {

std::vector<opmig::NvccVerdict>
checkAllWithNvcc(const std::vector<opmig::NvccCheckRequest> &Requests, unsigned Jobs) {
  std::vector<opmig::NvccVerdict> Verdicts(Requests.size());
  if (Requests.empty())
    return Verdicts;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Requests.size(); ++I)
    Pool.async([&, I] { Verdicts[I] = opmig::checkWithNvcc(Requests[I]); });
  Pool.wait();
  return Verdicts;
}

std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path.size() > Root.size() + 1 && Path.starts_with(Root) && Path[Root.size()] == '/')
    return Path.drop_front(Root.size() + 1).str();
  return Path.str();
}

CompiledTU toCompiledTU(std::string Path, opmig::NvccVerdict Verdict, llvm::StringRef Root) {
  CompiledTU TU{std::move(Path), Verdict.Accepted, std::move(Verdict.Errors), "", false};
  for (opmig::CompilerError &Error : TU.Errors)
    Error.File = relativeToRoot(Error.File, Root);
  // Without a parsable error a failure would otherwise say nothing.
  if (!Verdict.Ran || (!Verdict.Accepted && TU.Errors.empty()))
    TU.Errors.push_back({TU.Path, 0, Verdict.Problem});
  return TU;
}

/// `<ObjectDir>/<n>-<file name>.o`: numbered, since two folders of a
/// domain may hold TUs of the same name.
static std::string objectPath(const TreeCompileRequest &Request, size_t Index) {
  if (Request.Stage == opmig::NvccStage::FrontEnd)
    return "";
  return Request.ObjectDir + "/" + std::to_string(Index) + "-" +
         llvm::sys::path::filename(Request.TUs[Index]).str() + ".o";
}

/// The object of `Request`, from `Objects` when an earlier compile's inputs
/// are unchanged (then `Reused`), else compiled and kept there.
static opmig::NvccVerdict compileObject(const opmig::NvccCheckRequest &Request,
                                        const ObjectCache &Objects, const std::string &Root,
                                        bool &Reused) {
  ObjectCompile C{opmig::nvccCheckCommand(Request), Root, Request.ObjectFile};
  if ((Reused = Objects.fetch(C)))
    return {/*Ran=*/true, /*Accepted=*/true, {}, ""};
  opmig::NvccVerdict Verdict = opmig::runNvccCommand(C.commandWritingInputs());
  if (Verdict.Accepted)
    Objects.store(C);
  llvm::sys::fs::remove(C.depFile());
  return Verdict;
}

std::vector<CompiledTU> compileTree(const TreeCompileRequest &Request) {
  std::vector<opmig::NvccCheckRequest> Requests;
  for (size_t I = 0; I < Request.TUs.size(); ++I)
    Requests.push_back({Request.Nvcc, Request.Root + "/" + Request.TUs[I], Request.Flags,
                        Request.NvccFlags, Request.GpuArch, Request.Stage, objectPath(Request, I)});
  // A front-end check leaves no object to keep.
  bool Cached = !Request.ObjectCacheDir.empty() && Request.Stage != opmig::NvccStage::FrontEnd;
  ObjectCache Objects(Request.ObjectCacheDir);
  std::vector<opmig::NvccVerdict> Verdicts(Requests.size());
  std::vector<char> Reused(Requests.size(), false);
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Request.Jobs));
  for (size_t I = 0; I < Requests.size(); ++I)
    Pool.async([&, I] {
      bool WasReused = false;
      Verdicts[I] = Cached ? compileObject(Requests[I], Objects, Request.Root, WasReused)
                           : opmig::checkWithNvcc(Requests[I]);
      Reused[I] = WasReused;
    });
  Pool.wait();
  std::vector<CompiledTU> Results;
  for (size_t I = 0; I < Request.TUs.size(); ++I) {
    Results.push_back(toCompiledTU(Request.TUs[I], std::move(Verdicts[I]), Request.Root));
    if (Results.back().Compiles)
      Results.back().Object = Requests[I].ObjectFile;
    Results.back().Reused = Reused[I];
  }
  return Results;
}

} // namespace opmig
