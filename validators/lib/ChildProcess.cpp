//===- ChildProcess.cpp - A case of a layer in a process of its own -------===//

#include "ChildProcess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

extern char **environ;

namespace opmig::validate {

namespace {

std::string readOrEmpty(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

} // namespace

bool isEnvSet(const char *Name) {
  std::optional<std::string> Value = llvm::sys::Process::GetEnv(Name);
  return Value && !Value->empty() && *Value != "0";
}

std::vector<std::string> environmentWith(const std::vector<std::string> &Overrides) {
  std::vector<std::string> Env;
  auto Name = [](llvm::StringRef Entry) { return Entry.split('=').first; };
  for (char **E = environ; *E; ++E)
    if (llvm::none_of(Overrides, [&](const std::string &O) { return Name(O) == Name(*E); }))
      Env.push_back(*E);
  llvm::append_range(Env, Overrides);
  return Env;
}

ChildFiles::ChildFiles(llvm::StringRef Stdin) {
  for (auto [Path, Suffix] : {std::pair{&In, "in"}, {&Out, "out"}, {&Err, "err"}}) {
    llvm::SmallString<128> Made;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-validate", Suffix, Made)) {
      Problem = "cannot create a temporary file: " + EC.message();
      return;
    }
    *Path = std::string(Made);
  }
  std::error_code EC;
  llvm::raw_fd_ostream(In, EC) << Stdin;
}

ChildFiles::~ChildFiles() {
  for (const std::string *Path : {&In, &Out, &Err})
    if (!Path->empty())
      llvm::sys::fs::remove(*Path);
}

void ChildFiles::readInto(ChildOutcome &Outcome) const {
  Outcome.Stdout = readOrEmpty(Out);
  Outcome.Stderr = readOrEmpty(Err);
}

std::string ChildOutcome::describe() const {
  switch (How) {
  case Kind::Exited:
    return "exited with status " + std::to_string(ExitCode);
  case Kind::Crashed:
    return "crashed: " + Problem;
  case Kind::TimedOut:
    return "timed out after " + std::to_string(TimeoutSeconds) + " s";
  case Kind::NotStarted:
    return "could not start: " + Problem;
  }
  return Problem;
}

std::string ChildOutcome::stderrTail(size_t Count) const {
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Stderr).split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  size_t First = Lines.size() > Count ? Lines.size() - Count : 0;
  std::string Tail;
  for (size_t I = First; I < Lines.size(); ++I)
    Tail += (Tail.empty() ? "" : " | ") + Lines[I].trim().str();
  return Tail;
}

ChildOutcome runChild(const std::vector<std::string> &Argv,
                      const std::vector<std::string> &Overrides, llvm::StringRef Stdin,
                      unsigned TimeoutSeconds) {
  ChildOutcome Outcome;
  Outcome.TimeoutSeconds = TimeoutSeconds;
  ChildFiles Files(Stdin);
  if (!Files.Problem.empty()) {
    Outcome.Problem = Files.Problem;
    return Outcome;
  }
  std::vector<std::string> Env = environmentWith(Overrides);
  llvm::SmallVector<llvm::StringRef> ArgvRefs(Argv.begin(), Argv.end());
  llvm::SmallVector<llvm::StringRef> EnvRefs(Env.begin(), Env.end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(Files.In), llvm::StringRef(Files.Out), llvm::StringRef(Files.Err)};
  std::string ExecError;
  bool Failed = false;
  int Code = llvm::sys::ExecuteAndWait(Argv.front(), ArgvRefs, llvm::ArrayRef(EnvRefs), Redirects,
                                       TimeoutSeconds, 0, &ExecError, &Failed);
  Files.readInto(Outcome);
  if (Failed || Code == -1) {
    Outcome.How = ChildOutcome::Kind::NotStarted;
    Outcome.Problem = ExecError.empty() ? "the program could not be run" : ExecError;
  } else if (Code == -2 && llvm::StringRef(ExecError).contains_insensitive("timed out")) {
    Outcome.How = ChildOutcome::Kind::TimedOut;
  } else if (Code < 0) {
    Outcome.How = ChildOutcome::Kind::Crashed;
    Outcome.Problem = ExecError.empty() ? "killed by a signal" : ExecError;
  } else {
    Outcome.How = ChildOutcome::Kind::Exited;
    Outcome.ExitCode = Code;
  }
  return Outcome;
}

} // namespace opmig::validate
