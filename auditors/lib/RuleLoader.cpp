//===- RuleLoader.cpp - Rule files into validated Rules -------------------===//

#include "opmig/audit/RuleLoader.h"

#include "Exemptions.h"
#include "opmig/audit/Audit.h"
#include "opmig/audit/Checker.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace opmig::audit {

namespace {

const llvm::StringRef KnownKeys[] = {"id",    "severity", "profiles",   "kind",
                                     "files", "exclude",  "message",    "fix",
                                     "spec",  "match",    "exemptions", "tests"};

/// One rule file being read, through its top node.
class RuleReader {
public:
  explicit RuleReader(const ConfigDocument &Doc) : Doc(Doc), Top(Doc.root()) {}

  llvm::Expected<Rule> read() {
    if (llvm::Error E = Top.expectMapping())
      return E;
    if (llvm::Error E = Top.allowKeys(KnownKeys))
      return E;
    Rule R;
    R.Origin = Doc.file();
    R.Line = Top.member("id").location().Line;
    if (llvm::Error E = readCommon(R))
      return E;
    if (llvm::Error E = readScope(R))
      return E;
    auto Exemptions = readExemptions(Top);
    if (!Exemptions)
      return Exemptions.takeError();
    R.Exemptions = std::move(*Exemptions);
    return R;
  }

private:
  llvm::Expected<std::string> string(llvm::StringRef Key, bool Required) const {
    if (!Top.has(Key)) {
      if (Required)
        return Top.requireKeys({Key});
      return "";
    }
    return Top.member(Key).nonEmptyString();
  }

  /// A list of non-empty strings; null counts as absent.
  llvm::Expected<std::vector<std::string>> strings(llvm::StringRef Key, bool Required) const {
    ConfigNode List = Top.member(Key);
    if (List.json().is_null()) {
      if (!Required)
        return std::vector<std::string>();
      if (!List.exists())
        return Top.requireKeys({Key});
      return List.error(List.describe() + " must not be empty");
    }
    llvm::Expected<std::vector<std::string>> Out = List.strings();
    if (!Out)
      return Out.takeError();
    for (size_t I = 0; I < Out->size(); ++I)
      if ((*Out)[I].empty())
        return List.element(I).error(List.describe() + " must be a list of non-empty strings");
    if (Required && Out->empty())
      return List.error(List.describe() + " must not be empty");
    return Out;
  }

  llvm::Error readCommon(Rule &R) {
    auto Id = string("id", true);
    if (!Id)
      return Id.takeError();
    R.Id = *Id;
    ConfigNode IdNode = Top.member("id");
    static const llvm::Regex KebabCase("^[a-z0-9]+(-[a-z0-9]+)*$");
    if (!KebabCase.match(R.Id))
      return IdNode.error("rule id '" + R.Id + "' must be kebab-case (a-z, 0-9, '-')");
    llvm::StringRef Stem = llvm::sys::path::stem(R.Origin);
    if (Stem != R.Id)
      return IdNode.error("rule id '" + R.Id + "' must equal the file name '" + Stem + "'");
    auto Level = string("severity", true);
    if (!Level)
      return Level.takeError();
    std::optional<Severity> S = parseSeverity(*Level);
    if (!S)
      return Top.member("severity")
          .error("unknown severity '" + *Level + "'; expected error, warning or note");
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
    llvm::StringRef Folder = llvm::sys::path::filename(llvm::sys::path::parent_path(R.Origin));
    std::vector<std::string> Families(R.Profiles);
    Families.push_back(Folder.str());
    for (const std::string &Family : Families)
      if (Family != "any" && llvm::StringRef(R.Id).starts_with(Family + "-"))
        return llvm::Error::success();
    return Top.member("id").error("rule id '" + R.Id +
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
    for (llvm::StringRef Key : {"files", "exclude"})
      for (const ConfigNode &Glob : Top.member(Key).elements())
        if (auto Compiled = PathGlob::create(Glob.json().get<std::string>()); !Compiled)
          return Glob.error(llvm::toString(Compiled.takeError()));
    if (llvm::Error E = Top.requireKeys({"match"}))
      return E;
    ConfigNode Match = Top.member("match");
    if (!Match.json().is_object())
      return Match.error("'match' must be a mapping of the checker's parameters");
    R.Match = Match.json();
    for (const ConfigNode &Param : Match.members())
      R.MatchLocations[Param.key()] = Param.location();
    R.MatchLocations[""] = Match.location();
    return llvm::Error::success();
  }

  const ConfigDocument &Doc;
  ConfigNode Top;
};

llvm::Error validateKind(const Rule &R, const std::vector<std::unique_ptr<Checker>> &Checkers,
                         const ConfigNode &KindNode) {
  std::vector<std::string> Kinds;
  for (const auto &C : Checkers) {
    if (R.Kind == C->kind())
      return C->validate(R);
    Kinds.push_back(C->kind());
  }
  return KindNode.error("unknown kind '" + R.Kind +
                        "'; expected one of: " + llvm::join(Kinds, ", "));
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
  llvm::Expected<ConfigDocument> Doc = parseConfig(Text, ConfigSyntax::Yaml, Origin, "rule");
  if (!Doc)
    return Doc.takeError();
  llvm::Expected<Rule> R = RuleReader(*Doc).read();
  if (!R)
    return R.takeError();
  if (llvm::Error E = validateKind(*R, builtinCheckers(), Doc->root().member("kind")))
    return E;
  return R;
}

llvm::Expected<std::vector<Rule>> loadRules(const std::vector<std::string> &Paths,
                                            const std::string &BuiltinDir) {
  if (Paths.empty() && !llvm::sys::fs::is_directory(BuiltinDir))
    return inputError("built-in rules folder '", BuiltinDir, "' does not exist");
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

bool inProfile(const Rule &R, llvm::StringRef Profile) {
  return Profile == "any" || llvm::is_contained(R.Profiles, Profile) ||
         llvm::is_contained(R.Profiles, "any");
}

} // namespace opmig::audit
