#include "opmig/migrate/CompileCheck.h"

#include "opmig/support/Paths.h"
#include "opmig/support/SourceFiles.h"
#include "opmig/support/TreeCompile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig::migrate {

namespace fs = llvm::sys::fs;
using llvm::StringRef;

bool CompileCheckReport::addsErrors() const {
  return llvm::any_of(TUs, [](const TUCompile &TU) { return TU.addsErrors(); });
}

namespace {

class Checker {
public:
  Checker(const MigrationResult &R, const CompileCheckOptions &Options) : R(R), Options(Options) {}

  CompileCheckReport run();

private:
  llvm::Error makeScratch();
  std::string buildsLike(const PlannedChange &Change) const;
  std::vector<std::string> flagsFor(const PlannedChange &Change) const;
  NvccCheckRequest frontEnd(const std::string &MainFile, std::vector<std::string> Flags,
                            const std::string &UpstreamTU) const;
  std::string mapIncludeDir(StringRef Dir) const;
  void compareWithUpstream(std::vector<TUCompile> &TUs) const;
  static void blameSharedErrors(std::vector<TUCompile> &TUs);

  const MigrationResult &R;
  const CompileCheckOptions &Options;
  std::string Scratch, Nvcc;
};

llvm::Error Checker::makeScratch() {
  llvm::SmallString<256> Dir;
  if (std::error_code EC = fs::createUniqueDirectory("opmig-compile-check", Dir))
    return llvm::createStringError(EC, "cannot create a scratch directory");
  Scratch = std::string(Dir);
  for (const PlannedChange &Change : R.Changes) {
    if (Change.Action == ChangeAction::Remove)
      continue;
    std::string To = Scratch + "/" + Change.Path;
    std::error_code EC = fs::create_directories(llvm::sys::path::parent_path(To));
    llvm::raw_fd_ostream OS(To, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write " + To);
    OS << Change.NewContent;
  }
  // Third-party code is not the migration's: the target's copy when it has
  // one, else the upstream's submodule, where the glue looks for it.
  for (const ThirdPartyDependency &Party : R.ThirdParty) {
    std::string From = Options.TargetRoot + "/" + Party.TargetDir;
    if (!fs::is_directory(From))
      From = R.Analysis.SourceRoot + "/" + Party.UpstreamDir;
    std::string To = Scratch + "/" + Party.TargetDir;
    if (fs::exists(To) || !fs::is_directory(From))
      continue;
    fs::create_directories(llvm::sys::path::parent_path(To));
    if (std::error_code EC = fs::create_link(From, To))
      return llvm::createStringError(EC, "cannot link " + Party.TargetDir + " into the scratch");
  }
  return llvm::Error::success();
}

/// An upstream include directory as the migrated tree has it: a submodule's
/// moves with it; the tree's own are replaced by the include root; external
/// ones (torch, Python) stay.
std::string Checker::mapIncludeDir(StringRef Dir) const {
  const std::string &Root = R.Analysis.SourceRoot;
  if (!isWithin(Dir, Root))
    return Dir.str();
  for (const ThirdPartyDependency &Party : R.ThirdParty) {
    std::string Upstream = Root + "/" + Party.UpstreamDir;
    if (isWithin(Dir, Upstream))
      return Scratch + "/" + Party.TargetDir + Dir.drop_front(Upstream.size()).str();
  }
  return "";
}

/// The upstream TU whose flags `Change` is compiled with: its own; for
/// glue, the entry's, beside which it is built; else any closure TU's.
std::string Checker::buildsLike(const PlannedChange &Change) const {
  const auto &TUFlags = R.Analysis.TUFlags;
  if (TUFlags.count(Change.UpstreamPath))
    return Change.UpstreamPath;
  if (!R.Analysis.Entries.empty() && TUFlags.count(R.Analysis.Entries.front().Loc.File))
    return R.Analysis.Entries.front().Loc.File;
  return TUFlags.empty() ? "" : TUFlags.begin()->first;
}

NvccCheckRequest Checker::frontEnd(const std::string &MainFile, std::vector<std::string> Flags,
                                   const std::string &UpstreamTU) const {
  return {Nvcc,
          MainFile,
          std::move(Flags),
          R.Analysis.nvccFlagsOf(UpstreamTU),
          R.Analysis.GpuArch,
          opmig::NvccStage::FrontEnd,
          ""};
}

std::vector<std::string> Checker::flagsFor(const PlannedChange &Change) const {
  std::vector<std::string> Flags = {"-I" + Scratch + "/" + R.Plan.IncludeRoot,
                                    "-I" + Options.TargetRoot + "/" + R.Plan.IncludeRoot};
  auto Upstream = R.Analysis.TUFlags.find(buildsLike(Change));
  if (Upstream == R.Analysis.TUFlags.end())
    return Flags;
  const std::vector<std::string> &From = Upstream->second;
  for (size_t I = 0; I < From.size(); ++I) {
    StringRef Flag = From[I];
    bool Separate = (Flag == "-I" || Flag == "-isystem") && I + 1 < From.size();
    if (!Separate && !Flag.starts_with("-I")) {
      Flags.push_back(From[I]);
      continue;
    }
    std::string Kind = Separate ? Flag.str() : "-I";
    std::string Mapped = mapIncludeDir(Separate ? StringRef(From[++I]) : Flag.drop_front(2));
    if (Mapped.empty())
      continue;
    if (Kind == "-I")
      Flags.push_back("-I" + Mapped);
    else
      Flags.insert(Flags.end(), {Kind, Mapped});
  }
  return Flags;
}

/// Upstream's verdicts on the TUs failing ones were ported from: the
/// analysis' where nvcc judged it there, else a compile now (in parallel).
void Checker::compareWithUpstream(std::vector<TUCompile> &TUs) const {
  std::vector<TUCompile *> Unjudged;
  std::vector<NvccCheckRequest> Requests;
  for (TUCompile &TU : TUs) {
    if (TU.Compiles || TU.UpstreamPath.empty())
      continue;
    auto Judged = llvm::find_if(R.Analysis.NvccJudged,
                                [&](const auto &J) { return J.TU == TU.UpstreamPath && J.Judged; });
    if (Judged != R.Analysis.NvccJudged.end()) {
      TU.UpstreamCompiles = Judged->Accepted;
      TU.UpstreamFirstError = Judged->FirstError;
      continue;
    }
    auto Flags = R.Analysis.TUFlags.find(TU.UpstreamPath);
    if (Flags == R.Analysis.TUFlags.end())
      continue;
    Unjudged.push_back(&TU);
    Requests.push_back(
        frontEnd(R.Analysis.SourceRoot + "/" + TU.UpstreamPath, Flags->second, TU.UpstreamPath));
  }
  std::vector<NvccVerdict> Verdicts = checkAllWithNvcc(Requests, Options.Jobs);
  for (size_t I = 0; I < Unjudged.size(); ++I) {
    TUCompile &TU = *Unjudged[I];
    TU.UpstreamCompiles = !Verdicts[I].Ran || Verdicts[I].Accepted;
    if (!Verdicts[I].Errors.empty())
      TU.UpstreamFirstError = std::to_string(Verdicts[I].Errors.front().Line) + ": " +
                              Verdicts[I].Errors.front().Message;
  }
}

/// Generated glue has no upstream TU of its own; when it fails on the very
/// error a ported TU fails on upstream too (a third-party header the
/// upstream's build cannot compile either), that error is not the glue's.
void Checker::blameSharedErrors(std::vector<TUCompile> &TUs) {
  auto SameFirstError = [](const TUCompile &A, const TUCompile &B) {
    const opmig::CompilerError &X = A.Errors.front(), &Y = B.Errors.front();
    return X.File == Y.File && X.Line == Y.Line && X.Message == Y.Message;
  };
  for (TUCompile &Glue : TUs) {
    if (Glue.Compiles || !Glue.UpstreamPath.empty())
      continue;
    for (const TUCompile &Ported : TUs)
      if (!Ported.Compiles && !Ported.UpstreamPath.empty() && !Ported.UpstreamCompiles &&
          SameFirstError(Glue, Ported)) {
        Glue.UpstreamCompiles = false;
        Glue.UpstreamFirstError = "the first error of " + Ported.Path + ", which upstream " +
                                  Ported.UpstreamPath + " fails on too";
        break;
      }
  }
}

CompileCheckReport Checker::run() {
  CompileCheckReport Report;
  Nvcc = opmig::findNvcc(R.Analysis.CudaPath);
  if (Nvcc.empty()) {
    Report.NotRunBecause = "no nvcc (neither <cuda-path>/bin/nvcc nor on PATH)";
    return Report;
  }
  std::vector<const PlannedChange *> TUs;
  for (const PlannedChange &Change : R.Changes)
    if (Change.Action != ChangeAction::Remove && opmig::isTranslationUnitName(Change.Path))
      TUs.push_back(&Change);
  if (TUs.empty()) {
    Report.NotRunBecause = "the migration writes no translation unit";
    return Report;
  }
  if (llvm::Error E = makeScratch()) {
    Report.NotRunBecause = llvm::toString(std::move(E));
    if (!Scratch.empty())
      fs::remove_directories(Scratch);
    return Report;
  }
  Report.Ran = true;
  Report.Nvcc = Nvcc;
  Report.GpuArch = R.Analysis.GpuArch;
  std::vector<NvccCheckRequest> Requests;
  for (const PlannedChange *Change : TUs)
    Requests.push_back(
        frontEnd(Scratch + "/" + Change->Path, flagsFor(*Change), buildsLike(*Change)));
  std::vector<NvccVerdict> Verdicts = checkAllWithNvcc(Requests, Options.Jobs);
  for (size_t I = 0; I < TUs.size(); ++I) {
    CompiledTU Compiled = toCompiledTU(TUs[I]->Path, std::move(Verdicts[I]), Scratch);
    TUCompile TU;
    TU.Path = std::move(Compiled.Path);
    TU.UpstreamPath = TUs[I]->UpstreamPath;
    TU.Compiles = Compiled.Compiles;
    TU.Errors = std::move(Compiled.Errors);
    Report.TUs.push_back(std::move(TU));
  }
  compareWithUpstream(Report.TUs);
  blameSharedErrors(Report.TUs);
  fs::remove_directories(Scratch);
  return Report;
}

} // namespace

CompileCheckReport checkMigrationCompiles(const MigrationResult &Result,
                                          const CompileCheckOptions &Options) {
  return Checker(Result, Options).run();
}

} // namespace opmig::migrate
