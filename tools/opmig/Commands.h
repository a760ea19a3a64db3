//===- Commands.h - The opmig subcommands -----------------------*- C++ -*-===//
//
// Each subcommand registers its options on the CLI11 app and returns a
// function that runs it after parsing and yields the process exit code. The
// runner gets the arguments after `--`, which main() keeps from CLI11. The
// commands that read shipped data get its folder, resolved once.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_COMMANDS_H
#define OPMIG_TOOLS_COMMANDS_H

#include "CLI/CLI.hpp"
#include "RulesDir.h"

#include <functional>
#include <string>
#include <vector>

namespace opmig {

using CommandRunner = std::function<int(const std::vector<std::string> &PassThrough)>;

CommandRunner registerAnalyzeCommand(CLI::App &App);
CommandRunner registerMigrateCommand(CLI::App &App, const RulesDir &Rules);
/// `audit` and `rules` (AuditCommand.cpp).
void registerAuditCommands(CLI::App &App, const RulesDir &Rules,
                           std::vector<std::pair<CLI::App *, CommandRunner>> &Out);
/// `review` and `gate` (ReviewCommand.cpp).
void registerReviewCommands(CLI::App &App, const RulesDir &Rules,
                            std::vector<std::pair<CLI::App *, CommandRunner>> &Out);
CommandRunner registerValidateCommand(CLI::App &App);

using RegisteredCommands = std::vector<std::pair<CLI::App *, CommandRunner>>;

/// Every subcommand this build has: all of them (AllCommands.cpp), or only
/// `validate` in a build without Clang (ValidateOnlyCommands.cpp).
void registerCommands(CLI::App &App, RegisteredCommands &Out);

} // namespace opmig

#endif
