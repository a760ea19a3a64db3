//===- ImportHarness.cpp - One case of the import layer, in a child -------===//

#include "ImportHarness.h"

#include "HarnessServer.h"
#include "TemporaryScript.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/SmallVector.h"

namespace opmig::validate {

namespace {

const char *const ImportHarnessScript =
#include "ImportHarnessScript.inc"
    ;

/// The last non-empty line: what the domain's own code printed comes first.
nlohmann::json lastJsonLine(llvm::StringRef Stdout) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Stdout.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return nullptr;
  return nlohmann::json::parse(Lines.back().str(), nullptr, /*allow_exceptions=*/false);
}

} // namespace

std::string HarnessRun::failure() const {
  std::string Why = "the case " + Run.describe();
  if (std::string Tail = Run.stderrTail(); !Tail.empty())
    Why += ": " + Tail;
  return Why;
}

HarnessRun runHarnessCase(HarnessServers &Servers, const std::string &Python,
                          const std::string &Case, const nlohmann::json &Request,
                          unsigned TimeoutSeconds, const std::vector<std::string> &Overrides) {
  HarnessRun Result;
  TemporaryScript Script("import_harness.py", ImportHarnessScript);
  if (!Script.Problem.empty()) {
    Result.Run.Problem = Script.Problem;
    return Result;
  }
  Result.Run =
      Servers.run(Python, Overrides, {Script.Path, Case}, dumpJson(Request), TimeoutSeconds);
  if (Result.Run.succeeded()) {
    nlohmann::json Answer = lastJsonLine(Result.Run.Stdout);
    if (!Answer.is_discarded())
      Result.Answer = std::move(Answer);
  }
  return Result;
}

} // namespace opmig::validate
