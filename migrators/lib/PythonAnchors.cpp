//===- PythonAnchors.cpp - Anchors found on a Python parse tree -----------===//

#include "PythonAnchors.h"

#include "nlohmann/json.hpp"
#include "opmig/analyze/Errors.h"
#include "opmig/migrate/PythonHelper.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

namespace opmig::migrate {

namespace {

/// migrators/python/anchors.py, embedded by CMake.
const char *const AnchorsScript =
#include "AnchorsScript.inc"
    ;

/// Parsing a file takes milliseconds; the limit only guards against a hang.
constexpr unsigned HelperTimeoutSeconds = 60;

std::optional<PythonPosition> positionAt(const nlohmann::json &Answer, const char *Key) {
  if (!Answer.contains(Key) || Answer[Key].is_null())
    return std::nullopt;
  return PythonPosition{Answer[Key][0].get<size_t>(), Answer[Key][1].get<size_t>()};
}

/// Reads the helper's answer; nlohmann throws on a malformed one, which is
/// converted here.
llvm::Expected<PythonAnchorResult> parseAnswer(llvm::StringRef Text, llvm::StringRef Path,
                                               std::string &Executable) {
  try {
    nlohmann::json Answer = nlohmann::json::parse(Text.str());
    Executable = Answer.value("executable", "");
    if (Answer.contains("error"))
      return inputError(Path.str(),
                        ": cannot parse as Python: ", Answer["error"].get<std::string>());
    PythonAnchorResult Result;
    if (!Answer.at("found").get<bool>()) {
      Result.WhyNotFound = Answer.at("why").get<std::string>();
      return Result;
    }
    PythonPlacement Placement;
    Placement.Line = Answer.at("line").get<size_t>();
    Placement.Indent = Answer.at("indent").get<std::string>();
    Placement.Split = positionAt(Answer, "split");
    Placement.Comma = positionAt(Answer, "comma");
    Placement.CloseIndent = Answer.value("close_indent", "");
    Result.Placement = std::move(Placement);
    return Result;
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unexpected answer of the Python anchor helper on '%s': %s",
                                   Path.str().c_str(), E.what());
  }
}

} // namespace

llvm::Expected<PythonAnchorResult>
PythonAnchorLocator::locate(llvm::StringRef Source, llvm::StringRef Anchor, llvm::StringRef Path) {
  if (Interpreter.empty()) {
    llvm::ErrorOr<std::string> OnPath = llvm::sys::findProgramByName("python3");
    if (!OnPath)
      return inputError("python3 is not on PATH; it is needed to place blocks in '", Path.str(),
                        "'");
    Interpreter = *OnPath;
  }
  llvm::Expected<std::string> Output =
      runPythonHelper(Interpreter, AnchorsScript, {Anchor}, Source, HelperTimeoutSeconds,
                      "the Python anchor helper on '" + Path.str() + "'");
  if (!Output)
    return Output.takeError();
  std::string Executable;
  llvm::Expected<PythonAnchorResult> Result = parseAnswer(*Output, Path, Executable);
  if (!Executable.empty() && llvm::sys::fs::can_execute(Executable))
    Interpreter = Executable;
  return Result;
}

} // namespace opmig::migrate
