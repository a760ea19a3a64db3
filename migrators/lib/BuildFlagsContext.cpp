#include "BuildFlagsContext.h"

#include "opmig/support/Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace opmig::migrate {

using llvm::StringRef;
using nlohmann::json;

unsigned closureCxxStandard(const std::map<std::string, std::vector<std::string>> &TUFlags) {
  // The glue builds against the target's torch, and current torch's headers
  // (the pinned 2.15's among them) demand C++20: an upstream's older
  // standard (17, as most say) or none would make glue that torch rejects.
  unsigned Standard = 20;
  for (const auto &[File, Flags] : TUFlags)
    for (StringRef Flag : Flags) {
      unsigned Number = 0;
      if ((Flag.consume_front("-std=c++") || Flag.consume_front("-std=gnu++")) &&
          !Flag.getAsInteger(10, Number))
        Standard = std::max(Standard, Number);
    }
  return Standard;
}

namespace {

/// `-DNAME[=VALUE]` and `-UNAME` of the closure TUs, first seen first; the
/// Clang driver's own (`-D__CUDACC__`...) are never in these flags.
std::vector<std::string> closureDefines(const analyze::AnalysisResult &Analysis) {
  std::vector<std::string> Defines;
  for (const auto &[File, Flags] : Analysis.TUFlags)
    for (size_t I = 0; I < Flags.size(); ++I) {
      StringRef Flag = Flags[I];
      std::string Define;
      if ((Flag == "-D" || Flag == "-U") && I + 1 < Flags.size())
        Define = Flag.str() + Flags[++I];
      else if ((Flag.starts_with("-D") || Flag.starts_with("-U")) && Flag.size() > 2)
        Define = Flag.str();
      if (!Define.empty() && !llvm::is_contained(Defines, Define))
        Defines.push_back(std::move(Define));
    }
  return Defines;
}

/// The nvcc flags the closure TUs were built with that a build of them
/// repeats: the compile database's per TU, else the upstream build files'.
std::vector<std::string> closureNvccFlags(const analyze::AnalysisResult &Analysis) {
  std::vector<std::string> Flags;
  for (const auto &[File, Unused] : Analysis.TUFlags)
    for (const std::string &Flag : Analysis.nvccFlagsOf(File))
      if (!llvm::is_contained(Flags, Flag))
        Flags.push_back(Flag);
  return Analysis.TUFlags.empty() ? Analysis.UpstreamNvccFlags : Flags;
}

/// Include directories (`-I`, `-isystem`) of the closure TUs, absolute.
std::vector<std::string> closureIncludeDirs(const analyze::AnalysisResult &Analysis) {
  std::vector<std::string> Dirs;
  for (const auto &[File, Flags] : Analysis.TUFlags)
    for (size_t I = 0; I < Flags.size(); ++I) {
      StringRef Flag = Flags[I];
      std::string Dir;
      if ((Flag == "-I" || Flag == "-isystem") && I + 1 < Flags.size())
        Dir = Flags[++I];
      else if (Flag.starts_with("-I") && Flag.size() > 2)
        Dir = Flag.drop_front(2).str();
      if (!Dir.empty() && !llvm::is_contained(Dirs, Dir))
        Dirs.push_back(std::move(Dir));
    }
  return Dirs;
}

/// Whether the closure includes what needs Python's headers to compile:
/// `torch/extension.h` and `torch/python.h` (pybind11 under them), pybind11
/// itself or `Python.h`, as a TU kept after its pybind module was left out.
bool needsPythonHeaders(const analyze::AnalysisResult &Analysis) {
  return llvm::any_of(Analysis.External, [](const analyze::ExternalInclude &Include) {
    StringRef Spelling = Include.Spelling;
    return Spelling == "torch/extension.h" || Spelling == "torch/python.h" ||
           Spelling == "Python.h" || Spelling.starts_with("pybind11/");
  });
}

} // namespace

std::vector<ThirdPartyDependency> thirdPartyDependencies(const analyze::AnalysisResult &Analysis,
                                                         const MigrationPlan &Plan) {
  std::vector<ThirdPartyDependency> Found;
  std::vector<std::string> IncludeDirs = closureIncludeDirs(Analysis);
  for (const std::string &Submodule : Analysis.SubmoduleDirs) {
    std::string Root = Analysis.SourceRoot + "/" + Submodule;
    ThirdPartyDependency Party{
        StringRef(Submodule).rsplit('/').second.str(), Submodule, "", {}, {}, false};
    if (Party.Name.empty())
      Party.Name = Submodule;
    std::string TargetRoot = Party.TargetDir = Plan.ThirdPartyDir + "/" + Party.Name;
    for (const analyze::ExternalInclude &Include : Analysis.External) {
      if (!isBelow(Include.ResolvedPath, Root))
        continue;
      std::string Header = TargetRoot + Include.ResolvedPath.substr(Root.size());
      if (!llvm::is_contained(Party.Headers, Header))
        Party.Headers.push_back(Header);
      // The include dir the header was found through: the longest that holds it.
      std::string Through;
      for (const std::string &Dir : IncludeDirs)
        if (isWithin(Dir, Root) && isBelow(Include.ResolvedPath, Dir) &&
            Dir.size() > Through.size())
          Through = Dir;
      std::string Mapped = TargetRoot + (Through.empty() ? "" : Through.substr(Root.size()));
      if (!Through.empty() && !llvm::is_contained(Party.IncludeDirs, Mapped))
        Party.IncludeDirs.push_back(Mapped);
    }
    if (!Party.Headers.empty())
      Found.push_back(std::move(Party));
  }
  return Found;
}

json buildFlagsContext(const analyze::AnalysisResult &Analysis, const MigrationPlan &Plan,
                       const std::vector<ThirdPartyDependency> &ThirdParty) {
  json Parties = json::array(), IncludeDirs = json::array(), InNativeDir = json::array(),
       Headers = json::array();
  for (const ThirdPartyDependency &Party : ThirdParty) {
    Parties.push_back({{"name", Party.Name},
                       {"upstream_dir", Party.UpstreamDir},
                       {"target_dir", Party.TargetDir},
                       {"include_dirs", Party.IncludeDirs},
                       {"headers", Party.Headers}});
    for (const std::string &Dir : Party.IncludeDirs) {
      IncludeDirs.push_back(Dir);
      if (isBelow(Dir, Plan.NativeDir))
        InNativeDir.push_back(Dir.substr(Plan.NativeDir.size() + 1));
    }
    for (const std::string &Header : Party.Headers)
      Headers.push_back(Header);
  }
  return {{"cxx_standard", closureCxxStandard(Analysis.TUFlags)},
          {"defines", closureDefines(Analysis)},
          {"nvcc_flags", closureNvccFlags(Analysis)},
          {"third_party", Parties},
          {"third_party_include_dirs", IncludeDirs},
          {"third_party_include_dirs_in_native_dir", InNativeDir},
          {"third_party_headers", Headers},
          {"python_headers", needsPythonHeaders(Analysis)}};
}

BuildRecord buildRecord(const analyze::AnalysisResult &Analysis, const MigrationPlan &Plan,
                        const std::vector<ThirdPartyDependency> &ThirdParty) {
  BuildRecord B;
  B.CxxStandard = closureCxxStandard(Analysis.TUFlags);
  B.Defines = closureDefines(Analysis);
  // A relative-to-file profile has no include root: its glue passes none.
  if (!Plan.IncludeRoot.empty())
    B.IncludeDirs.push_back(Plan.IncludeRoot);
  for (const ThirdPartyDependency &Party : ThirdParty)
    for (const std::string &Dir : Party.IncludeDirs)
      if (!llvm::is_contained(B.IncludeDirs, Dir))
        B.IncludeDirs.push_back(Dir);
  B.NvccFlags = closureNvccFlags(Analysis);
  B.GpuArch = Analysis.GpuArch;
  return B;
}

} // namespace opmig::migrate
