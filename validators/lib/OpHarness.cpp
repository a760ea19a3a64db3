//===- OpHarness.cpp - One layer's cases of one op, in child processes ----===//

#include "OpHarness.h"

#include "ChildProcess.h"
#include "TemporaryScript.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

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
    ChildOutcome Child = runChild({Env.Python, Script.Path, Layer}, Env.Overrides,
                                  dumpJson(Request), TimeoutSeconds);
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
      Run.Cases.push_back(diedIn(Report.Started, Child));
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
