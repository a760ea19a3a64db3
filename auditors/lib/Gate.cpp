//===- Gate.cpp - `.opmig.yaml` and the gate's run ------------------------===//

#include "opmig/audit/Gate.h"

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/audit/ValidateReport.h"
#include "opmig/support/Errors.h"
#include "opmig/support/FindingFingerprints.h"
#include "opmig/support/Manifest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace opmig::audit {

namespace {

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
                         std::vector<Finding> &Findings) {
  for (const RuleTestOutcome &O : Outcomes)
    for (const std::string &Failure : O.Failures) {
      Finding F;
      F.Id = RuleTestRuleId;
      F.Producer = RuleTestProducer;
      F.File = relativeTo(Root, O.Origin);
      // Fixture paths read better relative to the root, like finding paths.
      std::string Text = Failure;
      for (size_t At; (At = Text.find(Root + "/")) != std::string::npos;)
        Text.erase(At, Root.size() + 1);
      F.Message = "rule " + O.RuleId + " fails its fixtures: " + Text;
      F.Fix = "fix the rule or its annotated fixtures (opmig rules test " + F.File + ")";
      Findings.push_back(std::move(F));
    }
}

/// The config's exclude globs (validated when it was parsed).
std::vector<PathGlob> excludeGlobs(const GateConfig &Config) {
  std::vector<PathGlob> Globs;
  for (const std::string &Glob : Config.Exclude)
    Globs.push_back(llvm::cantFail(PathGlob::create(Glob)));
  return Globs;
}

/// The config's validate reports by the domain each names (read here only
/// for that: the review reads and checks them again). InputError for one of
/// a domain that is not in `Domains`: a report nobody reads proves nothing.
llvm::Expected<std::map<std::string, std::vector<std::string>>>
reportsByDomain(const GateConfig &Config, const std::string &Root,
                const std::vector<std::string> &Domains) {
  std::map<std::string, std::vector<std::string>> ByDomain;
  for (const std::string &Relative : Config.ReviewValidation) {
    std::string Path = pathUnderRoot(Root, Relative);
    llvm::Expected<ValidateReport> Report = readValidateReport(Path);
    if (!Report)
      return Report.takeError();
    if (!llvm::is_contained(Domains, Report->Domain))
      return inputError("the validate report '", Path, "'", inputs::ValidationReports,
                        " is of domain '", Report->Domain, "', which the gate does not review (",
                        Domains.empty() ? std::string("no domain") : llvm::join(Domains, ", "),
                        ")");
    ByDomain[Report->Domain].push_back(Path);
  }
  return ByDomain;
}

/// Reviews each domain; its findings join the gate's as they are, their
/// message naming the domain.
llvm::Error addReviewFindings(const GateConfig &Config, const std::string &Root,
                              const std::vector<PathGlob> &Exclude, const std::string &LayersFile,
                              const ReviewCommandFor &ReviewCommand,
                              const std::map<std::string, std::string> &Validated,
                              GateResult &Result, std::vector<Finding> &Findings) {
  std::vector<std::string> Domains =
      Config.ReviewDomains.empty() ? migratedDomains(Root, Exclude) : Config.ReviewDomains;
  llvm::Expected<std::map<std::string, std::vector<std::string>>> Reports =
      reportsByDomain(Config, Root, Domains);
  if (!Reports)
    return Reports.takeError();
  for (const auto &[Domain, Report] : Validated)
    (*Reports)[Domain].push_back(Report);
  for (const std::string &Domain : Domains) {
    ReviewOptions Options;
    Options.Target = Root;
    Options.Domain = Domain;
    Options.Exclude = Exclude;
    Options.LayersFile = LayersFile;
    Options.ValidationReports = (*Reports)[Domain];
    if (Config.ReviewCompileCheck)
      Options.BuildCheck = BuildCheckOptions{};
    llvm::Expected<ReviewResult> Review = reviewMigration(Options);
    if (!Review)
      return Review.takeError();
    for (Finding F : Review->Findings) {
      F.Message = "domain " + Domain + ": " + F.Message;
      F.Fix = "run " + ReviewCommand(Domain) + " and fix what it reports";
      Findings.push_back(std::move(F));
    }
    Result.Reviews.push_back(std::move(*Review));
  }
  return llvm::Error::success();
}

/// Validates each domain; each failing check joins the gate's findings, its
/// message naming the domain. Returns each domain's report, for its review.
llvm::Expected<std::map<std::string, std::string>>
addValidateFindings(const GateConfig &Config, const std::string &Root,
                    const std::vector<PathGlob> &Exclude, const ValidateDomainFor &Validate,
                    GateResult &Result, std::vector<Finding> &Findings) {
  if (!Validate)
    return inputError("the gate's `validate` check cannot run in this build of opmig");
  std::vector<std::string> Domains =
      Config.ValidateDomains.empty() ? migratedDomains(Root, Exclude) : Config.ValidateDomains;
  std::map<std::string, std::string> Reports;
  for (const std::string &Domain : Domains) {
    llvm::Expected<DomainValidation> Validation = Validate(Domain, Config.ValidateLayers);
    if (!Validation)
      return Validation.takeError();
    for (Finding F : Validation->Findings) {
      F.Message = "domain " + Domain + ": " + F.Message;
      F.Fix = "run " + Validation->Command + (F.Fix.empty() ? "" : "; " + F.Fix);
      Findings.push_back(std::move(F));
    }
    Result.Validations.push_back("validate " + Domain + ": " + Validation->Summary);
    Reports[Domain] = Validation->ReportPath;
  }
  return Reports;
}

} // namespace

llvm::Expected<GateResult> runGate(const GateConfig &Config, const std::string &RootArg,
                                   const std::string &BuiltinRulesDir,
                                   const std::string &LayersFile,
                                   const ReviewCommandFor &ReviewCommand,
                                   const ValidateDomainFor &Validate) {
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
  // The validations', reviews' and rule tests' findings, fingerprinted apart
  // from the audit's (which their line's text anchors).
  std::vector<Finding> Added;
  std::map<std::string, std::string> Validated;
  if (Config.RunValidate) {
    llvm::Expected<std::map<std::string, std::string>> Reports =
        addValidateFindings(Config, Root, Exclude, Validate, Result, Added);
    if (!Reports)
      return Reports.takeError();
    Validated = std::move(*Reports);
  }
  if (Config.RunReview)
    if (llvm::Error E = addReviewFindings(Config, Root, Exclude, LayersFile, ReviewCommand,
                                          Validated, Result, Added))
      return E;
  if (Config.RunRuleTests) {
    llvm::Expected<std::vector<Rule>> Rules = loadRules(RulePaths, BuiltinRulesDir);
    if (!Rules)
      return Rules.takeError();
    llvm::Expected<std::vector<RuleTestOutcome>> Outcomes = runRuleTests(*Rules);
    if (!Outcomes)
      return Outcomes.takeError();
    Result.RuleTests = std::move(*Outcomes);
    addRuleTestFindings(Root, Result.RuleTests, Added);
  }
  assignFingerprints(Added, messageAnchor);
  llvm::append_range(Result.Combined.Findings, Added);
  sortFindings(Result.Combined.Findings);
  return Result;
}

} // namespace opmig::audit
