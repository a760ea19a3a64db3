//===- RuleLoader.cpp - Rule files into validated Rules -------------------===//

#include "opmig/audit/RuleLoader.h"

#include "Exemptions.h"
#include "YamlJson.h"
#include "opmig/audit/Audit.h"
#include "opmig/audit/Checker.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"

namespace opmig::audit {

namespace {

const char *const KnownKeys[] = {"id",    "severity", "profiles",   "kind",
                                 "files", "exclude",  "message",    "fix",
                                 "spec",  "match",    "exemptions", "tests"};

/// One rule file being read: its parsed text and where to point errors.
class RuleReader {
public:
  RuleReader(LocatedJson Doc, std::string Origin)
      : Doc(std::move(Doc)), Origin(std::move(Origin)) {}

  llvm::Expected<Rule> read() {
    if (!Doc.Value.is_object())
      return error("", "a rule file must be a mapping of keys (id, severity, kind, ...)");
    for (auto &[Key, Value] : Doc.Value.items())
      if (!llvm::is_contained(KnownKeys, Key))
        return error("/" + pointerToken(Key),
                     "unknown key '" + Key + "'; expected one of: " +
                         llvm::join(std::begin(KnownKeys), std::end(KnownKeys), ", "));
    Rule R;
    R.Origin = Origin;
    R.Line = Doc.lineOf("/id");
    if (llvm::Error E = readCommon(R))
      return E;
    if (llvm::Error E = readScope(R))
      return E;
    auto Exemptions = readExemptions(Doc, Origin);
    if (!Exemptions)
      return Exemptions.takeError();
    R.Exemptions = std::move(*Exemptions);
    return R;
  }

private:
  llvm::Error error(const std::string &Pointer, const std::string &Problem) const {
    return inputError(Origin, ":", std::to_string(Doc.lineOf(Pointer)), ": ", Problem);
  }

  llvm::Expected<std::string> string(const std::string &Key, bool Required) const {
    if (!Doc.Value.contains(Key)) {
      if (Required)
        return error("", "missing required key '" + Key + "'");
      return "";
    }
    const nlohmann::json &V = Doc.Value[Key];
    if (!V.is_string() || V.get<std::string>().empty())
      return error("/" + Key, "'" + Key + "' must be a non-empty string");
    return V.get<std::string>();
  }

  llvm::Expected<std::vector<std::string>> strings(const std::string &Key, bool Required) const {
    if (!Doc.Value.contains(Key) || Doc.Value[Key].is_null()) {
      if (Required)
        return error("", "missing required key '" + Key + "'");
      return std::vector<std::string>();
    }
    const nlohmann::json &V = Doc.Value[Key];
    if (!V.is_array())
      return error("/" + Key, "'" + Key + "' must be a list of strings");
    std::vector<std::string> Out;
    for (size_t I = 0; I < V.size(); ++I) {
      if (!V[I].is_string() || V[I].get<std::string>().empty())
        return error("/" + Key + "/" + std::to_string(I),
                     "'" + Key + "' must be a list of non-empty strings");
      Out.push_back(V[I].get<std::string>());
    }
    if (Required && Out.empty())
      return error("/" + Key, "'" + Key + "' must not be empty");
    return Out;
  }

  llvm::Error readCommon(Rule &R) {
    auto Id = string("id", true);
    if (!Id)
      return Id.takeError();
    R.Id = *Id;
    static const llvm::Regex KebabCase("^[a-z0-9]+(-[a-z0-9]+)*$");
    if (!KebabCase.match(R.Id))
      return error("/id", "rule id '" + R.Id + "' must be kebab-case (a-z, 0-9, '-')");
    llvm::StringRef Stem = llvm::sys::path::stem(Origin);
    if (Stem != R.Id)
      return error("/id", "rule id '" + R.Id + "' must equal the file name '" + Stem.str() + "'");
    auto Level = string("severity", true);
    if (!Level)
      return Level.takeError();
    std::optional<Severity> S = parseSeverity(*Level);
    if (!S)
      return error("/severity",
                   "unknown severity '" + *Level + "'; expected error, warning or note");
    R.Level = *S;
    auto Profiles = strings("profiles", true);
    if (!Profiles)
      return Profiles.takeError();
    R.Profiles = *Profiles;
    if (llvm::Error E = checkFamily(R))
      return E;
    for (auto [Key, Field] :
         {std::pair{"message", &R.Message}, {"fix", &R.Fix}, {"spec", &R.Spec}}) {
      auto Text = string(Key, true);
      if (!Text)
        return Text.takeError();
      *Field = *Text;
    }
    auto Tests = strings("tests", false);
    if (!Tests)
      return Tests.takeError();
    R.Tests = *Tests;
    return llvm::Error::success();
  }

  /// Ids carry their family: a profile the rule belongs to, or the folder
  /// that groups it (`rules/audit/common/common-*.yaml`).
  llvm::Error checkFamily(const Rule &R) const {
    llvm::StringRef Folder = llvm::sys::path::filename(llvm::sys::path::parent_path(Origin));
    std::vector<std::string> Families(R.Profiles);
    Families.push_back(Folder.str());
    for (const std::string &Family : Families)
      if (Family != "any" && llvm::StringRef(R.Id).starts_with(Family + "-"))
        return llvm::Error::success();
    return error("/id", "rule id '" + R.Id +
                            "' must start with its family: one of its profiles or "
                            "its folder name followed by '-'");
  }

  llvm::Error readScope(Rule &R) {
    auto Kind = string("kind", true);
    if (!Kind)
      return Kind.takeError();
    R.Kind = *Kind;
    // Path rules name their paths in `match`; every other kind reads files.
    auto Files = strings("files", R.Kind != "path");
    if (!Files)
      return Files.takeError();
    R.Files = *Files;
    auto Exclude = strings("exclude", false);
    if (!Exclude)
      return Exclude.takeError();
    R.Exclude = *Exclude;
    for (const char *Key : {"files", "exclude"}) {
      const std::vector<std::string> &Globs = std::string(Key) == "files" ? R.Files : R.Exclude;
      for (size_t I = 0; I < Globs.size(); ++I)
        if (auto Glob = PathGlob::create(Globs[I]); !Glob)
          return error(std::string("/") + Key + "/" + std::to_string(I),
                       llvm::toString(Glob.takeError()));
    }
    if (!Doc.Value.contains("match"))
      return error("", "missing required key 'match'");
    if (!Doc.Value["match"].is_object())
      return error("/match", "'match' must be a mapping of the checker's parameters");
    R.Match = Doc.Value["match"];
    for (auto &[Key, Value] : R.Match.items())
      R.MatchLines[Key] = Doc.lineOf("/match/" + pointerToken(Key));
    R.MatchLines[""] = Doc.lineOf("/match");
    return llvm::Error::success();
  }

  LocatedJson Doc;
  std::string Origin;
};

llvm::Error validateKind(const Rule &R, const std::vector<std::unique_ptr<Checker>> &Checkers) {
  std::vector<std::string> Kinds;
  for (const auto &C : Checkers) {
    if (R.Kind == C->kind())
      return C->validate(R);
    Kinds.push_back(C->kind());
  }
  return inputError(R.Origin, ":", std::to_string(R.Line), ": unknown kind '", R.Kind,
                    "'; expected one of: ", llvm::join(Kinds, ", "));
}

bool isRuleFile(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".yaml" || Ext == ".yml" || Ext == ".json";
}

/// Rule files under `Dir`, leaving out `tests` folders: their fixtures may
/// hold YAML or JSON of their own.
llvm::Error collectFolder(const std::string &Dir, std::vector<std::string> &Out) {
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file) {
      if (Name == "tests" || Name.starts_with("."))
        It.no_push();
      continue;
    }
    if (isRuleFile(Name))
      Out.push_back(It->path());
  }
  if (EC)
    return inputError("cannot read rules folder '", Dir, "': ", EC.message());
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::string>> collectRuleFiles(const std::vector<std::string> &Paths) {
  std::vector<std::string> Files;
  for (const std::string &Path : Paths) {
    if (llvm::sys::fs::is_directory(Path)) {
      if (llvm::Error E = collectFolder(Path, Files))
        return E;
    } else if (llvm::sys::fs::exists(Path)) {
      if (!isRuleFile(Path))
        return inputError("rules file '", Path, "' must end in .yaml, .yml or .json");
      Files.push_back(Path);
    } else {
      return inputError("rules path '", Path, "' does not exist");
    }
  }
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

} // namespace

llvm::Expected<Rule> parseRule(llvm::StringRef Text, const std::string &Origin) {
  llvm::Expected<LocatedJson> Doc = parseYamlAsJson(Text, Origin);
  if (!Doc)
    return Doc.takeError();
  llvm::Expected<Rule> R = RuleReader(std::move(*Doc), Origin).read();
  if (!R)
    return R.takeError();
  if (llvm::Error E = validateKind(*R, builtinCheckers()))
    return E;
  return R;
}

llvm::Expected<std::vector<Rule>> loadRules(const std::vector<std::string> &Paths,
                                            const std::string &BuiltinDir) {
  if (Paths.empty() && !llvm::sys::fs::is_directory(BuiltinDir))
    return inputError("built-in rules folder '", BuiltinDir,
                      "' does not exist; set OPMIG_RULES_DIR or pass --rules");
  auto Files = collectRuleFiles(Paths.empty() ? std::vector<std::string>{BuiltinDir} : Paths);
  if (!Files)
    return Files.takeError();
  std::vector<Rule> Rules;
  for (const std::string &File : *Files) {
    auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
    if (!Buffer)
      return inputError("cannot read rules file '", File, "': ", Buffer.getError().message());
    llvm::Expected<Rule> R = parseRule((*Buffer)->getBuffer(), File);
    if (!R)
      return R.takeError();
    Rules.push_back(std::move(*R));
  }
  llvm::sort(Rules, [](const Rule &A, const Rule &B) {
    return std::tie(A.Id, A.Origin) < std::tie(B.Id, B.Origin);
  });
  for (size_t I = 1; I < Rules.size(); ++I)
    if (Rules[I].Id == Rules[I - 1].Id)
      return inputError(Rules[I].Origin, ":", std::to_string(Rules[I].Line),
                        ": duplicate rule id '", Rules[I].Id, "' (also in ", Rules[I - 1].Origin,
                        ":", std::to_string(Rules[I - 1].Line), ")");
  return Rules;
}

std::string builtinRulesDir(const std::string &CompiledRulesDir) {
  std::optional<std::string> FromEnv = llvm::sys::Process::GetEnv("OPMIG_RULES_DIR");
  return (FromEnv && !FromEnv->empty() ? *FromEnv : CompiledRulesDir) + "/audit";
}

bool inProfile(const Rule &R, llvm::StringRef Profile) {
  return Profile == "any" || llvm::is_contained(R.Profiles, Profile) ||
         llvm::is_contained(R.Profiles, "any");
}

} // namespace opmig::audit
