//===- PythonAnchors.cpp - Anchors found on a Python parse tree -----------===//

#include "PythonAnchors.h"

#include "nlohmann/json.hpp"
#include "opmig/support/Errors.h"
#include "opmig/support/PythonHelper.h"

#include "llvm/ADT/STLExtras.h"
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

llvm::Error unexpectedAnswer(llvm::StringRef Path, const char *What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unexpected answer of the Python anchor helper on '%s': %s",
                                 Path.str().c_str(), What);
}

/// Reads a placement; nlohmann throws on a malformed answer, which is
/// converted here.
llvm::Expected<PythonAnchorResult> placementOf(const nlohmann::json &Answer, llvm::StringRef Path) {
  try {
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
    return unexpectedAnswer(Path, E.what());
  }
}

} // namespace

llvm::Expected<nlohmann::json>
PythonAnchorLocator::ask(llvm::StringRef Source, llvm::StringRef Query, llvm::StringRef Path) {
  if (Interpreter.empty()) {
    llvm::ErrorOr<std::string> OnPath = llvm::sys::findProgramByName("python3");
    if (!OnPath)
      return inputError("python3 is not on PATH; it is needed to place blocks in '", Path.str(),
                        "'");
    Interpreter = *OnPath;
  }
  llvm::Expected<std::string> Output =
      runPythonHelper(Interpreter, AnchorsScript, {Query}, Source, HelperTimeoutSeconds,
                      "the Python anchor helper on '" + Path.str() + "'");
  if (!Output)
    return Output.takeError();
  nlohmann::json Answer = nlohmann::json::parse(*Output, nullptr, /*allow_exceptions=*/false);
  if (!Answer.is_object())
    return unexpectedAnswer(Path, "not a JSON object");
  std::string Executable = Answer.value("executable", "");
  if (!Executable.empty() && llvm::sys::fs::can_execute(Executable))
    Interpreter = Executable;
  if (Answer.contains("error") && Answer["error"].is_string())
    return inputError(Path.str(), ": cannot parse as Python: ", Answer["error"].get<std::string>());
  return Answer;
}

llvm::Expected<PythonAnchorResult>
PythonAnchorLocator::locate(llvm::StringRef Source, llvm::StringRef Anchor, llvm::StringRef Path) {
  llvm::Expected<nlohmann::json> Answer = ask(Source, Anchor, Path);
  if (!Answer)
    return Answer.takeError();
  return placementOf(*Answer, Path);
}

llvm::Expected<std::vector<std::string>> PythonAnchorLocator::publicNames(llvm::StringRef Source,
                                                                          llvm::StringRef Path) {
  llvm::Expected<nlohmann::json> Answer = ask(Source, "public-names", Path);
  if (!Answer)
    return Answer.takeError();
  const nlohmann::json &Names = (*Answer)["names"];
  if (!Names.is_array() || !llvm::all_of(Names, [](const auto &N) { return N.is_string(); }))
    return unexpectedAnswer(Path, "no list of names");
  return Names.get<std::vector<std::string>>();
}

} // namespace opmig::migrate
