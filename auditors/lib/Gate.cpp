//===- Gate.cpp - `.opmig.yaml` and the gate's run ------------------------===//

#include "opmig/audit/Gate.h"

#include "YamlJson.h"
#include "opmig/analyze/Errors.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/migrate/Manifest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace opmig::audit {

namespace {

/// Reads one key of the config document, complaining at its line.
class ConfigReader {
public:
  ConfigReader(const LocatedJson &Doc, const std::string &Origin) : Doc(Doc), Origin(Origin) {}

  llvm::Error error(const std::string &Key, const std::string &Problem) const {
    return inputError(Origin, ":", std::to_string(Doc.lineOf("/" + pointerToken(Key))), ": ",
                      Problem);
  }

  llvm::Expected<std::string> string(const std::string &Key) const {
    const nlohmann::json &V = Doc.Value.at(Key);
    if (!V.is_string())
      return error(Key, "'" + Key + "' must be a string");
    return V.get<std::string>();
  }

  llvm::Expected<std::vector<std::string>> strings(const std::string &Key) const {
    const nlohmann::json &V = Doc.Value.at(Key);
    if (!V.is_array())
      return error(Key, "'" + Key + "' must be a list of strings");
    std::vector<std::string> Out;
    for (const nlohmann::json &Item : V) {
      if (!Item.is_string())
        return error(Key, "'" + Key + "' must be a list of strings");
      Out.push_back(Item.get<std::string>());
    }
    return Out;
  }

  /// `review: {domains: auto | [names]}`.
  llvm::Error review(GateConfig &Config) const {
    const nlohmann::json &V = Doc.Value.at("review");
    if (!V.is_object())
      return error("review", "'review' must be a mapping with the key 'domains'");
    for (const auto &Item : V.items()) {
      if (Item.key() != "domains")
        return inputError(Origin, ":",
                          std::to_string(Doc.lineOf("/review/" + pointerToken(Item.key()))),
                          ": unknown key '", Item.key(), "' in review; expected domains");
      const nlohmann::json &D = Item.value();
      bool Auto = D.is_string() && D.get<std::string>() == "auto";
      bool Names =
          D.is_array() && llvm::all_of(D, [](const nlohmann::json &N) { return N.is_string(); });
      if (!Auto && !Names)
        return inputError(Origin, ":", std::to_string(Doc.lineOf("/review/domains")),
                          ": 'domains' must be auto or a list of domain names");
      Config.ReviewDomains = Auto ? std::vector<std::string>{} : D.get<std::vector<std::string>>();
    }
    return llvm::Error::success();
  }

private:
  const LocatedJson &Doc;
  const std::string &Origin;
};

llvm::Error readChecks(const ConfigReader &Reader, GateConfig &Config) {
  llvm::Expected<std::vector<std::string>> Checks = Reader.strings("checks");
  if (!Checks)
    return Checks.takeError();
  Config.RunAudit = Config.RunRuleTests = false;
  for (const std::string &Check : *Checks) {
    if (Check == "audit")
      Config.RunAudit = true;
    else if (Check == "rules-test")
      Config.RunRuleTests = true;
    else if (Check == "review")
      Config.RunReview = true;
    else
      return Reader.error("checks",
                          "unknown check '" + Check + "'; expected audit, review or rules-test");
  }
  return llvm::Error::success();
}

llvm::Error readKey(const ConfigReader &Reader, const std::string &Key, GateConfig &Config) {
  auto SetString = [&](std::string &Field) -> llvm::Error {
    llvm::Expected<std::string> S = Reader.string(Key);
    if (!S)
      return S.takeError();
    Field = *S;
    return llvm::Error::success();
  };
  if (Key == "profile")
    return SetString(Config.Profile);
  if (Key == "baseline")
    return SetString(Config.Baseline);
  if (Key == "sarif")
    return SetString(Config.Sarif);
  if (Key == "junit")
    return SetString(Config.JUnit);
  if (Key == "checks")
    return readChecks(Reader, Config);
  if (Key == "rules") {
    llvm::Expected<std::vector<std::string>> Rules = Reader.strings(Key);
    if (!Rules)
      return Rules.takeError();
    Config.Rules = *Rules;
    return llvm::Error::success();
  }
  if (Key == "exclude") {
    llvm::Expected<std::vector<std::string>> Globs = Reader.strings(Key);
    if (!Globs)
      return Globs.takeError();
    for (const std::string &Glob : *Globs)
      if (llvm::Expected<PathGlob> G = PathGlob::create(Glob); !G)
        return Reader.error(Key, "bad glob '" + Glob + "': " + llvm::toString(G.takeError()));
    Config.Exclude = *Globs;
    return llvm::Error::success();
  }
  if (Key == "fail-on") {
    std::string Text;
    if (llvm::Error E = SetString(Text))
      return E;
    std::optional<Severity> S = parseSeverity(Text);
    if (!S)
      return Reader.error(Key, "'fail-on' must be error, warning or note, not '" + Text + "'");
    Config.FailOn = *S;
    return llvm::Error::success();
  }
  if (Key == "review")
    return Reader.review(Config);
  return Reader.error(Key, "unknown key '" + Key +
                               "'; expected one of: baseline, checks, exclude, fail-on, junit, "
                               "profile, review, rules, sarif");
}

std::string relativeTo(const std::string &Root, const std::string &Path) {
  llvm::StringRef P(Path), R(Root);
  R.consume_back("/");
  if (P.consume_front(R) && P.consume_front("/"))
    return P.str();
  return Path;
}

/// A rule whose fixtures fail, as findings at its rule file: the gate's
/// reports then carry them like any other problem.
void addRuleTestFindings(const std::string &Root, const std::vector<RuleTestOutcome> &Outcomes,
                         AuditResult &Combined) {
  for (const RuleTestOutcome &O : Outcomes)
    for (const std::string &Failure : O.Failures) {
      Finding F;
      F.RuleId = RuleTestRuleId;
      F.File = relativeTo(Root, O.Origin);
      // Fixture paths read better relative to the root, like finding paths.
      std::string Text = Failure;
      for (size_t At; (At = Text.find(Root + "/")) != std::string::npos;)
        Text.erase(At, Root.size() + 1);
      F.Message = "rule " + O.RuleId + " fails its fixtures: " + Text;
      F.Fix = "fix the rule or its annotated fixtures (opmig rules test " + F.File + ")";
      F.Fingerprint = migrate::sha256Hex(F.RuleId + "\n" + F.File + "\n" + F.Message).substr(0, 16);
      Combined.Findings.push_back(std::move(F));
    }
}

/// The config's exclude globs (validated when it was parsed).
std::vector<PathGlob> excludeGlobs(const GateConfig &Config) {
  std::vector<PathGlob> Globs;
  for (const std::string &Glob : Config.Exclude)
    Globs.push_back(llvm::cantFail(PathGlob::create(Glob)));
  return Globs;
}

/// Reviews each domain and reports its problems as findings.
llvm::Error addReviewFindings(const GateConfig &Config, const std::string &Root,
                              const std::vector<PathGlob> &Exclude, const std::string &LayersFile,
                              GateResult &Result) {
  std::vector<std::string> Domains =
      Config.ReviewDomains.empty() ? migratedDomains(Root, Exclude) : Config.ReviewDomains;
  for (const std::string &Domain : Domains) {
    ReviewOptions Options;
    Options.Target = Root;
    Options.Domain = Domain;
    Options.Exclude = Exclude;
    Options.LayersFile = LayersFile;
    llvm::Expected<ReviewResult> Review = reviewMigration(Options);
    if (!Review)
      return Review.takeError();
    for (const ReviewFinding &RF : Review->Findings) {
      Finding F;
      F.RuleId = ReviewRuleId;
      F.File = RF.Path;
      F.Line = RF.Line;
      if (RF.Kind == ReviewKind::UntestedLayer)
        F.Level = Severity::Warning;
      F.Message = std::string(toString(RF.Kind)) + " in domain " + Domain + ": " + RF.Message;
      F.Fix = "run opmig review --target . --domain " + Domain + " and fix what it reports";
      F.Fingerprint = migrate::sha256Hex(F.RuleId + "\n" + F.File + "\n" + F.Message).substr(0, 16);
      Result.Combined.Findings.push_back(std::move(F));
    }
    Result.Reviews.push_back(std::move(*Review));
  }
  return llvm::Error::success();
}

} // namespace

std::string pathUnderRoot(const std::string &Root, const std::string &Path) {
  if (llvm::sys::path::is_absolute(Path))
    return Path;
  llvm::SmallString<256> Joined(Root);
  llvm::sys::path::append(Joined, Path);
  return std::string(Joined);
}

llvm::Expected<GateConfig> parseGateConfig(llvm::StringRef Text, const std::string &Origin) {
  llvm::Expected<LocatedJson> Doc = parseYamlAsJson(Text, Origin);
  if (!Doc)
    return Doc.takeError();
  GateConfig Config;
  if (Doc->Value.is_null())
    return Config; // An empty file: every default.
  if (!Doc->Value.is_object())
    return inputError(Origin, ":1: the gate config must be a mapping");
  ConfigReader Reader(*Doc, Origin);
  for (const auto &Item : Doc->Value.items())
    if (llvm::Error E = readKey(Reader, Item.key(), Config))
      return E;
  return Config;
}

llvm::Expected<GateConfig> readGateConfig(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return inputError("cannot read ", Path, ": ", Buffer.getError().message());
  return parseGateConfig((*Buffer)->getBuffer(), Path);
}

llvm::Expected<GateResult> runGate(const GateConfig &Config, const std::string &RootArg,
                                   const std::string &BuiltinRulesDir,
                                   const std::string &LayersFile) {
  std::vector<std::string> RulePaths{BuiltinRulesDir};
  for (const std::string &Extra : Config.Rules)
    RulePaths.push_back(pathUnderRoot(RootArg, Extra));
  // Rule files and fixtures are reported relative to an absolute root.
  llvm::SmallString<256> AbsoluteRoot(RootArg);
  if (std::error_code EC = llvm::sys::fs::make_absolute(AbsoluteRoot))
    return inputError("cannot resolve ", RootArg, ": ", EC.message());
  llvm::sys::path::remove_dots(AbsoluteRoot, /*remove_dot_dot=*/true);
  std::string Root(AbsoluteRoot);
  std::vector<PathGlob> Exclude = excludeGlobs(Config);
  GateResult Result;
  Result.Combined.Root = Root;
  Result.Combined.Profile = Config.Profile;
  if (Config.RunAudit) {
    AuditOptions Options;
    Options.Root = Root;
    Options.Profile = Config.Profile;
    Options.RulePaths = RulePaths;
    Options.BuiltinRulesDir = BuiltinRulesDir;
    if (!Config.Baseline.empty())
      Options.BaselinePath = pathUnderRoot(Root, Config.Baseline);
    Options.FailOn = Config.FailOn;
    llvm::Expected<AuditResult> Audit = runAudit(Options);
    if (!Audit)
      return Audit.takeError();
    Result.Combined = std::move(*Audit);
    llvm::erase_if(Result.Combined.Findings,
                   [&](const Finding &F) { return matchesAny(Exclude, F.File); });
  }
  if (Config.RunReview)
    if (llvm::Error E = addReviewFindings(Config, Root, Exclude, LayersFile, Result))
      return E;
  if (Config.RunRuleTests) {
    llvm::Expected<std::vector<Rule>> Rules = loadRules(RulePaths, BuiltinRulesDir);
    if (!Rules)
      return Rules.takeError();
    llvm::Expected<std::vector<RuleTestOutcome>> Outcomes = runRuleTests(*Rules);
    if (!Outcomes)
      return Outcomes.takeError();
    Result.RuleTests = std::move(*Outcomes);
    addRuleTestFindings(Root, Result.RuleTests, Result.Combined);
  }
  sortFindings(Result.Combined.Findings);
  return Result;
}

std::string renderGateSummary(const GateResult &Result, Severity FailOn) {
  struct Counts {
    size_t New = 0, Baselined = 0, Suppressed = 0;
  };
  std::map<std::string, Counts> PerRule;
  size_t Failing = 0;
  for (const Finding &F : Result.Combined.Findings) {
    Counts &C = PerRule[F.RuleId];
    if (F.State == FindingState::New) {
      ++C.New;
      Failing += F.Level >= FailOn;
    }
    C.Baselined += F.State == FindingState::Baselined;
    C.Suppressed += F.State == FindingState::Suppressed;
  }
  std::string Out;
  for (const auto &[Id, C] : PerRule)
    Out += Id + ": " + std::to_string(C.New) + " new, " + std::to_string(C.Baselined) +
           " baselined, " + std::to_string(C.Suppressed) + " suppressed\n";
  if (!Result.RuleTests.empty()) {
    size_t Passed = llvm::count_if(Result.RuleTests,
                                   [](const RuleTestOutcome &O) { return O.Failures.empty(); });
    Out += "rule tests: " + std::to_string(Passed) + " of " +
           std::to_string(Result.RuleTests.size()) + " rules pass their fixtures\n";
  }
  for (const ReviewResult &R : Result.Reviews)
    Out += "review " + R.Domain + ": " + toString(R.Outcome) + "\n";
  if (Failing == 0)
    return Out + "gate: passed\n";
  return Out + "gate: failed (" + std::to_string(Failing) + " new at or above " + toString(FailOn) +
         ")\n";
}

} // namespace opmig::audit
