//===- PythonAstBridge.cpp - One python3 run for all python rules ---------===//

#include "PythonAstBridge.h"

#include "opmig/analyze/Errors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig::audit {

namespace {

/// auditors/python/checks.py, embedded by CMake.
const char *const ChecksScript =
#include "ChecksScript.inc"
    ;

/// A thousand files parse in about a second; the limit only guards against
/// a hang.
constexpr unsigned HelperTimeoutSeconds = 600;

/// Keeps the tail of the helper's stderr in an error: a traceback's last
/// lines say what went wrong.
constexpr size_t StderrTail = 2000;

struct TemporaryFile {
  llvm::SmallString<128> Path;
  std::optional<llvm::FileRemover> Remover;
};

llvm::Error createTemporary(llvm::StringRef Suffix, TemporaryFile &File) {
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-audit-py", Suffix, File.Path))
    return llvm::createStringError(EC, "cannot create a temporary file for the Python helper");
  File.Remover.emplace(File.Path);
  return llvm::Error::success();
}

llvm::Expected<std::string> readWhole(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read %s", Path.str().c_str());
  return (*Buffer)->getBuffer().str();
}

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
  TemporaryFile Input, Output, Errors;
  for (auto [Suffix, File] : {std::pair{"json", &Input}, {"out", &Output}, {"err", &Errors}})
    if (llvm::Error E = createTemporary(Suffix, *File))
      return E;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Input.Path, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write the Python helper's request");
    OS << requestOf(Files, Tasks).dump();
  }
  // -I -S: neither user site, site packages nor PYTHON* variables change
  // what the helper sees, and start-up stays short.
  llvm::StringRef Argv[] = {*Python, "-I", "-S", "-c", ChecksScript};
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(Input.Path), llvm::StringRef(Output.Path), llvm::StringRef(Errors.Path)};
  std::string ExecError;
  int Code = llvm::sys::ExecuteAndWait(*Python, Argv, std::nullopt, Redirects, HelperTimeoutSeconds,
                                       0, &ExecError);
  if (Code != 0) {
    std::string Detail = ExecError;
    if (llvm::Expected<std::string> Stderr = readWhole(Errors.Path); !Stderr)
      llvm::consumeError(Stderr.takeError());
    else if (Detail.empty())
      Detail = Stderr->size() > StderrTail ? Stderr->substr(Stderr->size() - StderrTail) : *Stderr;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the Python check helper (%s) failed with exit code %d: %s",
                                   Python->c_str(), Code, Detail.c_str());
  }
  llvm::Expected<std::string> Answer = readWhole(Output.Path);
  if (!Answer)
    return Answer.takeError();
  return parseAnswer(*Answer, Tasks.size());
}

} // namespace opmig::audit
