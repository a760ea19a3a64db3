//===- PythonAstBridge.cpp - One python3 run for all python rules ---------===//

#include "PythonAstBridge.h"

#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/PythonHelper.h"

#include "llvm/Support/Program.h"

namespace opmig::audit {

namespace {

/// auditors/python/checks.py, embedded by CMake.
const char *const ChecksScript =
#include "ChecksScript.inc"
    ;

/// A thousand files parse in about a second; the limit only guards against
/// a hang.
constexpr unsigned HelperTimeoutSeconds = 600;

nlohmann::json requestOf(const std::vector<std::string> &Files,
                         const std::vector<PythonTask> &Tasks) {
  nlohmann::json Request = {{"files", Files}, {"tasks", nlohmann::json::array()}};
  for (const PythonTask &Task : Tasks)
    Request["tasks"].push_back({{"rule", Task.RuleId},
                                {"check", Task.Check},
                                {"params", Task.Params},
                                {"files", Task.Files}});
  return Request;
}

/// Reads the helper's answer; nlohmann throws on a malformed one, which is
/// converted here.
llvm::Expected<PythonAnswer> parseAnswer(const std::string &Text, size_t TaskCount) {
  try {
    nlohmann::json Answer = nlohmann::json::parse(Text);
    PythonAnswer Result;
    for (const nlohmann::json &Task : Answer.at("results")) {
      std::vector<PythonRecord> &Records = Result.Records.emplace_back();
      for (const nlohmann::json &Found : Task.at("records")) {
        PythonRecord Record;
        Record.File = Found.at("file").get<size_t>();
        Record.Line = Found.at("line").get<unsigned>();
        Record.Column = Found.at("column").get<unsigned>();
        for (const auto &[Key, Value] : Found.at("captures").items())
          Record.Captures[Key] = Value.is_string() ? Value.get<std::string>() : "";
        Record.Keys = Found.value("keys", std::vector<std::string>());
        Records.push_back(std::move(Record));
      }
    }
    if (Result.Records.size() != TaskCount)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the Python helper answered %zu tasks of %zu",
                                     Result.Records.size(), TaskCount);
    for (const nlohmann::json &Failed : Answer.at("unparsable"))
      Result.Unparsable.push_back(
          {Failed.at("file").get<size_t>(), Failed.at("line").get<unsigned>(),
           Failed.at("column").get<unsigned>(), Failed.at("message").get<std::string>()});
    return Result;
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unexpected answer of the Python helper: %s", E.what());
  }
}

} // namespace

llvm::Expected<PythonAnswer> runPythonChecks(const std::vector<std::string> &Files,
                                             const std::vector<PythonTask> &Tasks) {
  llvm::ErrorOr<std::string> Python = llvm::sys::findProgramByName("python3");
  if (!Python)
    return inputError("python3 is not on PATH; the python rules read files through CPython's ast: "
                      "install python3 (3.8 or newer) or run without python rules");
  llvm::Expected<std::string> Answer =
      opmig::runPythonHelper(*Python, ChecksScript, {}, dumpJson(requestOf(Files, Tasks)),
                             HelperTimeoutSeconds, "the Python check helper (" + *Python + ")");
  if (!Answer)
    return Answer.takeError();
  return parseAnswer(*Answer, Tasks.size());
}

} // namespace opmig::audit
