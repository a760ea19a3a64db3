#include "opmig/support/Manifest.h"

#include "nlohmann/json.hpp"
#include "opmig/support/Errors.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/NvccOptions.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/StringExtras.h"

namespace opmig {

using nlohmann::json;

static json toJson(const UpstreamInfo &U) {
  return {{"repo", U.Repo}, {"commit", U.Commit}, {"dirty", U.Dirty}, {"path", U.PathPrefix}};
}

static json toJson(const ManifestOp &Op) {
  return {{"name", Op.Name},
          {"cpp_function", Op.CppFunction},
          {"upstream_function", Op.UpstreamFunction},
          {"schema", Op.Schema},
          {"fake_derived", Op.FakeDerived}};
}

static json toJson(const LeftOutRange &R) {
  json J = {
      {"first_line", R.FirstLine}, {"last_line", R.LastLine}, {"begin", R.Begin}, {"end", R.End}};
  if (!R.Definitions.empty())
    J["definitions"] = R.Definitions;
  if (!R.Include.empty())
    J["include"] = R.Include;
  return J;
}

template <typename T> static json arrayOf(const std::vector<T> &Items);

static json toJson(const MigratedFileRecord &F) {
  json J = {{"upstream_path", F.UpstreamPath},
            {"target_path", F.TargetPath},
            {"upstream_sha256", F.UpstreamSha256},
            {"migrated_sha256", F.MigratedSha256}};
  // Written only when something was left out: manifests of files copied
  // whole stay as older opmig versions wrote them.
  if (!F.LeftOut.empty())
    J["left_out"] = arrayOf(F.LeftOut);
  return J;
}

static json toJson(const GeneratedFileRecord &G) {
  json J = {{"target_path", G.TargetPath}};
  if (G.Blocks.empty())
    J["sha256"] = G.Sha256;
  else
    J["blocks"] = G.Blocks;
  if (G.UserEditable)
    J["user_editable"] = true;
  return J;
}

static json toJson(const BuildRecord &B) {
  return {{"cxx_standard", B.CxxStandard},
          {"defines", B.Defines},
          {"include_dirs", B.IncludeDirs},
          {"nvcc_flags", B.NvccFlags},
          {"gpu_arch", B.GpuArch}};
}

template <typename T> static json arrayOf(const std::vector<T> &Items) {
  json A = json::array();
  for (const T &Item : Items)
    A.push_back(toJson(Item));
  return A;
}

std::string serializeManifest(const Manifest &M) {
  json Renames = json::array();
  for (const NamespaceRename &R : M.Renames)
    Renames.push_back({{"from", R.From}, {"to", R.To}});
  json J = {{"schema", ManifestSchemaVersion},
            {"tool", {{"name", "opmig"}, {"version", M.ToolVersion}}},
            {"profile", M.Profile},
            {"spec", M.Spec},
            {"domain", M.Domain},
            {"upstream", toJson(M.Upstream)},
            {"entries", M.Entries},
            {"ops", arrayOf(M.Ops)},
            {"namespace_renames", Renames},
            {"wrap_global_namespace_into", M.WrapGlobalInto},
            {"files", arrayOf(M.Files)},
            {"generated", arrayOf(M.Generated)}};
  if (M.Build)
    J["build"] = toJson(*M.Build);
  return dumpJson(J, 2) + "\n";
}

static BuildRecord buildFromJson(const json &B) {
  return {B.at("cxx_standard").get<unsigned>(), B.at("defines").get<std::vector<std::string>>(),
          B.at("include_dirs").get<std::vector<std::string>>(),
          B.at("nvcc_flags").get<std::vector<std::string>>(), B.at("gpu_arch").get<std::string>()};
}

static LeftOutRange leftOutFromJson(const json &J) {
  LeftOutRange R;
  R.FirstLine = J.at("first_line").get<unsigned>();
  R.LastLine = J.at("last_line").get<unsigned>();
  R.Begin = J.at("begin").get<unsigned>();
  R.End = J.at("end").get<unsigned>();
  if (J.contains("definitions"))
    R.Definitions = J.at("definitions").get<std::vector<std::string>>();
  if (J.contains("include"))
    R.Include = J.at("include").get<std::string>();
  return R;
}

// `spec` and `build` are optional: manifests of older opmig versions lack
// them, and a review then says what it cannot judge.
static Manifest fromJson(const json &J) {
  Manifest M;
  M.ToolVersion = J.at("tool").at("version").get<std::string>();
  M.Profile = J.at("profile").get<std::string>();
  if (J.contains("spec"))
    M.Spec = J.at("spec").get<std::string>();
  M.Domain = J.at("domain").get<std::string>();
  const json &U = J.at("upstream");
  M.Upstream = {U.at("repo").get<std::string>(), U.at("commit").get<std::string>(),
                U.at("dirty").get<bool>(), U.at("path").get<std::string>()};
  M.Entries = J.at("entries").get<std::vector<std::string>>();
  for (const json &Op : J.at("ops"))
    M.Ops.push_back({Op.at("name"), Op.at("cpp_function"), Op.at("upstream_function"),
                     Op.at("schema"), Op.at("fake_derived")});
  for (const json &R : J.at("namespace_renames"))
    M.Renames.push_back({R.at("from"), R.at("to")});
  M.WrapGlobalInto = J.at("wrap_global_namespace_into").get<std::string>();
  for (const json &F : J.at("files")) {
    MigratedFileRecord Record;
    Record.UpstreamPath = F.at("upstream_path").get<std::string>();
    Record.TargetPath = F.at("target_path").get<std::string>();
    Record.UpstreamSha256 = F.at("upstream_sha256").get<std::string>();
    Record.MigratedSha256 = F.at("migrated_sha256").get<std::string>();
    if (F.contains("left_out"))
      for (const json &R : F.at("left_out"))
        Record.LeftOut.push_back(leftOutFromJson(R));
    M.Files.push_back(std::move(Record));
  }
  for (const json &G : J.at("generated")) {
    GeneratedFileRecord Record;
    Record.TargetPath = G.at("target_path").get<std::string>();
    if (G.contains("blocks"))
      Record.Blocks = G.at("blocks").get<std::map<std::string, std::string>>();
    else
      Record.Sha256 = G.at("sha256").get<std::string>();
    Record.UserEditable = G.value("user_editable", false);
    M.Generated.push_back(std::move(Record));
  }
  if (J.contains("build"))
    M.Build = buildFromJson(J.at("build"));
  return M;
}

/// A manifest is read from the target, where anyone may have edited it: a
/// path naming `..`, an absolute path or a NUL would make a re-run or a
/// review read or remove a file outside the target (or one of a shorter name).
static llvm::Error checkManifestPaths(const Manifest &M, llvm::StringRef Origin) {
  auto Check = [&](const std::string &Path, const char *Key) -> llvm::Error {
    if (isContainedRelativePath(Path))
      return llvm::Error::success();
    return inputError(Origin.str(), ": ", Key, " '", llvm::StringRef(Path).split('\0').first.str(),
                      Path.find('\0') != std::string::npos ? "<NUL>..." : "",
                      "' is not a relative path inside its tree (absolute, '..', '.', an empty "
                      "component or a control character); restore the manifest from version "
                      "control");
  };
  for (const MigratedFileRecord &F : M.Files) {
    if (llvm::Error E = Check(F.TargetPath, "target_path"))
      return E;
    if (llvm::Error E = Check(F.UpstreamPath, "upstream_path"))
      return E;
  }
  for (const GeneratedFileRecord &G : M.Generated)
    if (llvm::Error E = Check(G.TargetPath, "target_path"))
      return E;
  if (M.Build)
    for (const std::string &Dir : M.Build->IncludeDirs)
      if (llvm::Error E = Check(Dir, "build.include_dirs"))
        return E;
  return llvm::Error::success();
}

/// The build record becomes an nvcc command line in `opmig review`: a
/// manifest edited to say `-ccbin=/tmp/x` or `-o /etc/x` would run or write
/// what it names. Only what migrate records passes: defines of a macro name,
/// nvcc's language flags, an NVIDIA architecture.
static llvm::Error checkBuildRecord(const BuildRecord &B, llvm::StringRef Origin) {
  auto Bad = [&](const char *Key, llvm::StringRef Value, const char *Expected) {
    return inputError(Origin.str(), ": build.", Key, " '", Value.split('\0').first.str(),
                      "' is not ", Expected, "; restore the manifest from version control");
  };
  for (llvm::StringRef Define : B.Defines) {
    llvm::StringRef Name = Define.drop_front(2);
    if (!(Define.starts_with("-D") || Define.starts_with("-U")) || Name.empty() ||
        !(llvm::isAlpha(Name.front()) || Name.front() == '_') || Define.contains('\0'))
      return Bad("defines", Define, "a -DNAME[=VALUE] or -UNAME");
  }
  for (llvm::StringRef Flag : B.NvccFlags)
    if (!isCarriedNvccFlag(Flag))
      return Bad("nvcc_flags", Flag,
                 "one of nvcc's language, math or register flags (--expt-relaxed-constexpr, "
                 "--use_fast_math, --ftz=true, --maxrregcount=64, ...)");
  if (!B.GpuArch.empty() && !isCudaArch(B.GpuArch))
    return Bad("gpu_arch", B.GpuArch, "an NVIDIA architecture such as sm_90");
  return llvm::Error::success();
}

/// Left-out ranges become the lines `opmig validate` blanks in a copy of
/// the upstream file: an edited range that is empty, reversed or names
/// nothing would blank what migrate kept, or nothing, without a word.
static llvm::Error checkLeftOut(const MigratedFileRecord &F, llvm::StringRef Origin) {
  for (const LeftOutRange &R : F.LeftOut) {
    const char *Why = nullptr;
    if (R.FirstLine == 0 || R.LastLine < R.FirstLine)
      Why = "its lines are not 1-based and in order";
    else if (R.End <= R.Begin)
      Why = "its byte range is empty or reversed";
    else if (R.Definitions.empty() == R.Include.empty())
      Why = "it names neither definitions nor an include, or both";
    if (Why)
      return inputError(Origin.str(), ": a left_out range of ", F.UpstreamPath, " (lines ",
                        std::to_string(R.FirstLine), "-", std::to_string(R.LastLine), ", bytes ",
                        std::to_string(R.Begin), "-", std::to_string(R.End), ") is bad: ", Why,
                        "; restore the manifest from version control");
  }
  return llvm::Error::success();
}

llvm::Expected<Manifest> parseManifest(llvm::StringRef Text, llvm::StringRef Origin) {
  llvm::Expected<json> Parsed = parseJsonText(Text, Origin);
  if (!Parsed)
    return inputError(Origin.str(), ": malformed manifest (", llvm::toString(Parsed.takeError()),
                      "); restore it from version control or remove the domain and migrate again");
  try {
    const json &J = *Parsed;
    if (J.value("schema", "") != ManifestSchemaVersion)
      return inputError(
          Origin.str(), ": not an opmig manifest of schema ", ManifestSchemaVersion,
          "; remove it (and the files it lists) or migrate with the opmig that wrote it");
    Manifest M = fromJson(J);
    if (llvm::Error E = checkManifestPaths(M, Origin))
      return E;
    for (const MigratedFileRecord &F : M.Files)
      if (llvm::Error E = checkLeftOut(F, Origin))
        return E;
    if (M.Build)
      if (llvm::Error E = checkBuildRecord(*M.Build, Origin))
        return E;
    return M;
  } catch (const json::exception &E) {
    return inputError(Origin.str(), ": malformed manifest (", E.what(),
                      "); restore it from version control or remove the domain and migrate again");
  }
}

} // namespace opmig
