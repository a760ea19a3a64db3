//===- main.cpp - The opmig command-line tool -----------------------------===//
//
// Migrates GPU operators between repositories and proves the migration
// correct:
//
//   opmig analyze --source upstream/ --entry merge_attn_states --format json
//   opmig migrate ...; opmig validate ...; opmig audit | review | gate ...
//
// Libraries compute and return data; this driver parses options, renders
// results and maps errors to the exit codes in ExitCodes.h.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ExitCodes.h"
#include "opmig/support/Errors.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace opmig {

int reportError(llvm::Error E, const InputSpellings &Spellings) {
  int Code = E.isA<InputError>() ? ExitBadInput : ExitInternal;
  auto Print = [](const std::string &Message) {
    llvm::WithColor::error(llvm::errs(), "opmig") << Message << "\n";
  };
  llvm::handleAllErrors(
      std::move(E), [&](const InputError &Bad) { Print(Spellings.render(Bad.text())); },
      [&](const llvm::ErrorInfoBase &Info) { Print(Info.message()); });
  return Code;
}

} // namespace opmig

int main(int Argc, char **Argv) {
  using namespace opmig;
  CLI::App App{"opmig: migrate GPU operators between repositories, and prove the migration"};
  App.set_version_flag("--version", std::string("opmig ") + OPMIG_VERSION);
  App.require_subcommand(1);
  RegisteredCommands Commands;
  registerCommands(App, Commands);
  // Everything after the first `--` goes to Clang untouched; CLI11 only sees
  // what comes before, so a stray positional is an error, never a flag.
  std::vector<std::string> Args(Argv + 1, Argv + Argc), PassThrough;
  if (auto Separator = std::find(Args.begin(), Args.end(), "--"); Separator != Args.end()) {
    PassThrough.assign(Separator + 1, Args.end());
    Args.erase(Separator, Args.end());
  }
  std::reverse(Args.begin(), Args.end()); // CLI11 takes a vector in reverse.
  try {
    App.parse(Args);
  } catch (const CLI::ParseError &E) {
    int Code = App.exit(E);
    return Code == 0 ? ExitSuccess : ExitBadInput;
  }
  for (auto &[Command, Run] : Commands)
    if (Command->parsed())
      return Run(PassThrough);
  return ExitBadInput;
}
