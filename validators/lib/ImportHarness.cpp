//===- ImportHarness.cpp - One case of the import layer, in a child -------===//

#include "ImportHarness.h"

#include "opmig/support/JsonText.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

HarnessRun runHarnessCase(const std::string &Python, const std::string &Case,
                          const nlohmann::json &Request, unsigned TimeoutSeconds) {
  HarnessRun Result;
  llvm::SmallString<128> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("opmig-validate", Dir)) {
    Result.Run.Problem = "cannot create a temporary folder: " + EC.message();
    return Result;
  }
  std::string Script = std::string(Dir) + "/import_harness.py";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Script, EC);
    OS << ImportHarnessScript;
  }
  Result.Run = runChild({Python, Script, Case}, {}, dumpJson(Request), TimeoutSeconds);
  llvm::sys::fs::remove_directories(Dir);
  if (Result.Run.succeeded()) {
    nlohmann::json Answer = lastJsonLine(Result.Run.Stdout);
    if (!Answer.is_discarded())
      Result.Answer = std::move(Answer);
  }
  return Result;
}

} // namespace opmig::validate
