//===- AuditCommand.cpp - `opmig audit` and `opmig rules test` ------------===//
//
//   opmig audit path/to/cache-dit --profile cache-dit --format sarif -o audit.sarif
//   opmig audit . --profile veomni --baseline .opmig-baseline.json
//   opmig audit . --format junit -o opmig-audit.xml
//   opmig rules test rules/audit/cache-dit
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ExitCodes.h"
#include "OutputFile.h"
#include "opmig/audit/Audit.h"
#include "opmig/audit/AuditReport.h"
#include "opmig/audit/Baseline.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/audit/RuleTests.h"

#include "llvm/Support/raw_ostream.h"

namespace opmig {

namespace {

struct AuditArgs {
  audit::AuditOptions Options;
  std::string Format = "text";
  std::string Output = "-";
  std::string WriteBaseline;
  std::string FailOn = "error";
  InputSpellings Spellings;
};

std::string render(const audit::AuditResult &Result, const std::string &Format, Severity FailOn) {
  if (Format == "json")
    return audit::renderJson(Result);
  if (Format == "sarif")
    return audit::renderSarif(Result, OPMIG_VERSION);
  if (Format == "junit")
    return audit::renderJUnit(Result, "opmig audit", FailOn);
  return audit::renderText(Result);
}

int runAuditCommand(AuditArgs &Args, const RulesDir &Rules) {
  audit::AuditOptions &Options = Args.Options;
  if (Options.RulePaths.empty())
    if (llvm::Error E = Rules.requireAuditRules("pass --rules"))
      return reportError(std::move(E), Args.Spellings);
  Options.BuiltinRulesDir = Rules.auditRules();
  Options.FailOn = *parseSeverity(Args.FailOn); // CLI11 checked the name.
  llvm::Expected<audit::AuditResult> Result = audit::runAudit(Options);
  if (!Result)
    return reportError(Result.takeError(), Args.Spellings);
  if (!Args.WriteBaseline.empty()) {
    if (llvm::Error E = writeOutput(Args.WriteBaseline, audit::serializeBaseline(Result->Findings)))
      return reportError(std::move(E), Args.Spellings);
    // What was just recorded is, from now on, known.
    for (Finding &F : Result->Findings)
      if (F.State == FindingState::New)
        F.State = FindingState::Baselined;
  }
  if (llvm::Error E = writeOutput(Args.Output, render(*Result, Args.Format, Options.FailOn)))
    return reportError(std::move(E), Args.Spellings);
  return audit::hasFailures(Result->Findings, Options.FailOn) ? ExitProblemsFound : ExitSuccess;
}

int runRulesTest(const std::vector<std::string> &Paths, const RulesDir &Dir) {
  const InputSpellings NoInputs; // Its messages name rule files, not inputs.
  if (Paths.empty())
    if (llvm::Error E = Dir.requireAuditRules("name rule files or folders"))
      return reportError(std::move(E), NoInputs);
  llvm::Expected<std::vector<audit::Rule>> Rules = audit::loadRules(Paths, Dir.auditRules());
  if (!Rules)
    return reportError(Rules.takeError(), NoInputs);
  llvm::Expected<std::vector<audit::RuleTestOutcome>> Outcomes = audit::runRuleTests(*Rules);
  if (!Outcomes)
    return reportError(Outcomes.takeError(), NoInputs);
  size_t Failed = 0;
  for (const audit::RuleTestOutcome &O : *Outcomes) {
    if (O.Failures.empty()) {
      llvm::outs() << "PASS " << O.RuleId << " (" << O.Expectations << " annotations)\n";
      continue;
    }
    ++Failed;
    llvm::outs() << "FAIL " << O.RuleId << "\n";
    for (const std::string &Failure : O.Failures)
      llvm::outs() << "  " << Failure << "\n";
  }
  llvm::outs() << Outcomes->size() << " rules: " << Outcomes->size() - Failed << " passed, "
               << Failed << " failed\n";
  return Failed ? ExitProblemsFound : ExitSuccess;
}

void registerAudit(CLI::App &App, const RulesDir &Rules,
                   std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  auto Args = std::make_shared<AuditArgs>();
  audit::AuditOptions &O = Args->Options;
  CLI::App *Sub = App.add_subcommand("audit", "check a repository against policy rules");
  Sub->footer("Exit status: 0 clean, 1 new findings at or above --fail-on, 2 bad rules or "
              "input. Rules: docs/rule-authoring.md.");
  Sub->add_option("dir", O.Root, "root of the repository to audit")->required();
  InputSpellings &Spell = Args->Spellings;
  Spell.flag(audit::inputs::Profile,
             Sub->add_option("--profile", O.Profile,
                             "rules of this profile (cache-dit, veomni) and those marked `any`; "
                             "`any` runs every loaded rule")
                 ->default_str("any"));
  Sub->add_option("--rules", O.RulePaths,
                  "rule files or folders to load instead of the built-in rules");
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}))
      ->default_str("text");
  Sub->add_option("-o,--output", Args->Output, "write the report here instead of stdout");
  Spell.flag(audit::inputs::BaselinePath,
             Sub->add_option("--baseline", O.BaselinePath,
                             "findings listed in this baseline are reported as baselined and do "
                             "not fail"));
  Spell.flag(audit::inputs::WriteBaseline,
             Sub->add_option("--write-baseline", Args->WriteBaseline,
                             "record the current findings in this baseline file"));
  Spell.flag(audit::inputs::ChangedSince,
             Sub->add_option("--changed-since", O.ChangedSince,
                             "report only files changed since this git ref (and untracked ones)"));
  Sub->add_option("--fail-on", Args->FailOn, "lowest severity of a new finding that fails")
      ->check(CLI::IsMember({"error", "warning", "note"}))
      ->default_str("error");
  Out.push_back({Sub, [Args, Rules](const std::vector<std::string> &) {
                   return runAuditCommand(*Args, Rules);
                 }});
}

void registerRules(CLI::App &App, const RulesDir &Rules,
                   std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  auto Paths = std::make_shared<std::vector<std::string>>();
  CLI::App *Sub = App.add_subcommand("rules", "work with audit rules");
  Sub->require_subcommand(1);
  CLI::App *Test = Sub->add_subcommand(
      "test", "run every rule on its annotated fixtures (ruleid: / ok: comments, EXPECT files)");
  Test->footer("Exit status: 0 all pass, 1 a rule failed, 2 bad rules.");
  Test->add_option("paths", *Paths, "rule files or folders (default: the built-in rules)");
  Out.push_back({Sub, [Paths, Rules](const std::vector<std::string> &) {
                   return runRulesTest(*Paths, Rules);
                 }});
}

} // namespace

void registerAuditCommands(CLI::App &App, const RulesDir &Rules,
                           std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  registerAudit(App, Rules, Out);
  registerRules(App, Rules, Out);
}

} // namespace opmig
