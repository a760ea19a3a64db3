//===- OpHarness.cpp - One layer's cases of one op, in child processes ----===//

#include "opmig/validate/OpHarness.h"

#include "ChildProcess.h"
#include "HarnessServer.h"
#include "TemporaryScript.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace opmig::validate {

namespace {

const char *const OpHarnessScript =
#include "OpHarnessScript.inc"
    ;

constexpr llvm::StringLiteral EventMark = "@@opmig ";

/// What one child reported before it ended.
struct ChildReport {
  std::vector<CaseOutcome> Finished;
  std::string Started; ///< The case it was in when it ended, if any.
  std::string Fatal;
  bool Done = false;
};

Status statusOf(const nlohmann::json &Ok) {
  if (Ok.is_boolean())
    return Ok.get<bool>() ? Status::Pass : Status::Fail;
  return Status::Skip;
}

ChildReport readEvents(llvm::StringRef Stdout) {
  ChildReport Report;
  llvm::SmallVector<llvm::StringRef> Lines;
  Stdout.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front(EventMark))
      continue;
    nlohmann::json Event = nlohmann::json::parse(Line.str(), nullptr, /*allow_exceptions=*/false);
    if (!Event.is_object())
      continue;
    std::string Kind = Event.value("event", std::string());
    if (Kind == "start") {
      Report.Started = Event.value("case", std::string());
    } else if (Kind == "result") {
      CaseOutcome Outcome;
      Outcome.Name = Event.value("case", std::string());
      Outcome.State = statusOf(Event["ok"]);
      Outcome.Detail = Event.value("detail", std::string());
      if (Event.contains("figures"))
        Outcome.Figures = nlohmann::ordered_json::parse(Event["figures"].dump());
      Report.Finished.push_back(std::move(Outcome));
      Report.Started.clear();
    } else if (Kind == "fatal") {
      Report.Fatal = Event.value("detail", std::string("the harness stopped"));
    } else if (Kind == "done") {
      Report.Done = true;
    }
  }
  return Report;
}

/// The failure of the case a child died in.
CaseOutcome diedIn(const std::string &Case, const ChildOutcome &Child) {
  CaseOutcome Outcome;
  Outcome.Name = Case;
  Outcome.State = Status::Fail;
  std::string How =
      Child.How == ChildOutcome::Kind::TimedOut ? "hung: " + Child.describe() : Child.describe();
  Outcome.Detail = "the case " + How;
  if (std::string Tail = Child.stderrTail(); !Tail.empty())
    Outcome.Detail += ": " + Tail;
  return Outcome;
}

ChildOutcome runChildHarness(const HarnessEnvironment &Env,
                             const std::vector<std::string> &Overrides, const std::string &Script,
                             const std::string &Layer, const nlohmann::json &Request,
                             unsigned TimeoutSeconds) {
  if (Env.Servers)
    return Env.Servers->run(Env.Python, Overrides, {Script, Layer}, dumpJson(Request),
                            TimeoutSeconds);
  return runChild({Env.Python, Script, Layer}, Overrides, dumpJson(Request), TimeoutSeconds);
}

/// The case at `Index` once more with Env.CrashRetry; its outcome, marked as
/// the environment's crash, when it no longer crashes.
std::optional<CaseOutcome> retryWithPreload(const HarnessEnvironment &Env,
                                            const std::string &Script, const std::string &Layer,
                                            nlohmann::json Request, size_t Index,
                                            const ChildOutcome &Crash, unsigned TimeoutSeconds) {
  Request["start"] = Index;
  Request["stop"] = Index + 1;
  ChildReport Again = readEvents(
      runChildHarness(Env, Env.CrashRetry, Script, Layer, Request, TimeoutSeconds).Stdout);
  if (Again.Finished.size() != 1)
    return std::nullopt;
  CaseOutcome Outcome = std::move(Again.Finished.front());
  Outcome.Detail =
      "environment, not the kernel: the case " + Crash.describe() + " without " +
      llvm::join(Env.CrashRetry, " ") +
      " (libstdc++'s integer formatting on an error path) and, with it: " + Outcome.Detail +
      "; unset OPMIG_VALIDATE_NO_PRELOAD to keep the preload on";
  return Outcome;
}

} // namespace

OpHarnessRun runOpHarness(const HarnessEnvironment &Env, const std::string &Layer,
                          nlohmann::json Request, size_t CaseCount, unsigned TimeoutSeconds) {
  OpHarnessRun Run;
  TemporaryScript Script("op_harness.py", OpHarnessScript);
  if (!Script.Problem.empty()) {
    Run.Fatal = Script.Problem;
    return Run;
  }
  size_t Start = 0;
  while (Start < CaseCount) {
    Request["start"] = Start;
    ChildOutcome Child =
        runChildHarness(Env, Env.Overrides, Script.Path, Layer, Request, TimeoutSeconds);
    ChildReport Report = readEvents(Child.Stdout);
    if (!Report.Fatal.empty()) {
      Run.Fatal = Report.Fatal;
      return Run;
    }
    Start += Report.Finished.size();
    for (CaseOutcome &Outcome : Report.Finished)
      Run.Cases.push_back(std::move(Outcome));
    if (Report.Done)
      return Run;
    if (!Report.Started.empty()) {
      std::optional<CaseOutcome> Retried;
      if (Child.How == ChildOutcome::Kind::Crashed && !Env.CrashRetry.empty())
        Retried = retryWithPreload(Env, Script.Path, Layer, Request, Start, Child, TimeoutSeconds);
      Run.Cases.push_back(Retried ? std::move(*Retried) : diedIn(Report.Started, Child));
      ++Start;
    } else if (Report.Finished.empty()) {
      // It died before any case: nothing later would do better.
      Run.Fatal = "the harness " + Child.describe();
      if (std::string Tail = Child.stderrTail(); !Tail.empty())
        Run.Fatal += ": " + Tail;
      return Run;
    }
  }
  return Run;
}

} // namespace opmig::validate
