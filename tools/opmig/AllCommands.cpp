//===- AllCommands.cpp - The subcommands of a full build ------------------===//

#include "Commands.h"

namespace opmig {

void registerCommands(CLI::App &App, RegisteredCommands &Out) {
  const RulesDir Rules = resolveRulesDir(OPMIG_RULES_DIR);
  CommandRunner Analyze = registerAnalyzeCommand(App);
  Out.push_back({App.get_subcommand("analyze"), Analyze});
  CommandRunner Migrate = registerMigrateCommand(App, Rules);
  Out.push_back({App.get_subcommand("migrate"), Migrate});
  registerAuditCommands(App, Rules, Out);
  registerReviewCommands(App, Rules, Out);
  CommandRunner Validate = registerValidateCommand(App);
  Out.push_back({App.get_subcommand("validate"), Validate});
}

} // namespace opmig
