//===- PythonAnchors.cpp - Anchors found on a Python parse tree -----------===//

#include "PythonAnchors.h"

#include "nlohmann/json.hpp"
#include "opmig/analyze/Errors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig::migrate {

namespace {

/// migrators/python/anchors.py, embedded by CMake.
const char *const AnchorsScript =
#include "AnchorsScript.inc"
    ;

/// Parsing a file takes milliseconds; the limit only guards against a hang.
constexpr unsigned HelperTimeoutSeconds = 60;

llvm::Expected<std::string> readWhole(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read %s", Path.str().c_str());
  return (*Buffer)->getBuffer().str();
}

llvm::Error writeWhole(llvm::StringRef Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write %s", Path.str().c_str());
  OS << Text;
  return llvm::Error::success();
}

/// Runs `Python` with the helper on `Source`; its stdout on success.
llvm::Expected<std::string> runHelper(llvm::StringRef Python, llvm::StringRef Source,
                                      llvm::StringRef Anchor, llvm::StringRef Path) {
  llvm::SmallString<128> Input, Output, Errors;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-anchor", "py", Input))
    return llvm::createStringError(EC, "cannot create a temporary file");
  llvm::FileRemover RemoveInput(Input);
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-anchor", "json", Output))
    return llvm::createStringError(EC, "cannot create a temporary file");
  llvm::FileRemover RemoveOutput(Output);
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-anchor", "err", Errors))
    return llvm::createStringError(EC, "cannot create a temporary file");
  llvm::FileRemover RemoveErrors(Errors);
  if (llvm::Error E = writeWhole(Input, Source))
    return E;
  // -I -S: neither user site, site packages nor PYTHON* variables can change
  // what the script sees, and start-up stays short.
  llvm::StringRef Argv[] = {Python, "-I", "-S", "-c", AnchorsScript, Anchor};
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(Input), llvm::StringRef(Output),
                                                llvm::StringRef(Errors)};
  std::string ExecError;
  int Code = llvm::sys::ExecuteAndWait(Python, Argv, std::nullopt, Redirects, HelperTimeoutSeconds,
                                       0, &ExecError);
  if (Code == 0)
    return readWhole(Output);
  llvm::Expected<std::string> Stderr = readWhole(Errors);
  std::string Detail = ExecError;
  if (!Stderr)
    llvm::consumeError(Stderr.takeError());
  else if (Detail.empty())
    Detail = *Stderr;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "the Python anchor helper failed on '%s' (exit %d): %s",
                                 Path.str().c_str(), Code, Detail.c_str());
}

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
  llvm::Expected<std::string> Output = runHelper(Interpreter, Source, Anchor, Path);
  if (!Output)
    return Output.takeError();
  std::string Executable;
  llvm::Expected<PythonAnchorResult> Result = parseAnswer(*Output, Path, Executable);
  if (!Executable.empty() && llvm::sys::fs::can_execute(Executable))
    Interpreter = Executable;
  return Result;
}

} // namespace opmig::migrate
