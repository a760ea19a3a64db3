//===- ValidateOnlyCommands.cpp - The subcommands of a build without Clang ===//
//
// A machine without LLVM's Clang (the GPU machine) gets `opmig validate`
// only: the other commands parse C++ with Clang (OPMIG_ENABLE_CLANG=OFF,
// docs/gpu-runs.md).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

namespace opmig {

void registerCommands(CLI::App &App, RegisteredCommands &Out) {
  CommandRunner Validate = registerValidateCommand(App);
  Out.push_back({App.get_subcommand("validate"), Validate});
}

} // namespace opmig
