#include "Commands.h"
#include "ExitCodes.h"
#include "opmig/support/Errors.h"

namespace opmig {

namespace {

struct Planned {
  const char *Name;
  const char *Description;
};

constexpr Planned PlannedCommands[] = {
    {"validate", "build the migrated kernels and run the layered validators (planned)"},
};

} // namespace

void registerPlannedCommands(CLI::App &App,
                             std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  for (const Planned &Command : PlannedCommands) {
    CLI::App *Sub = App.add_subcommand(Command.Name, Command.Description);
    Sub->allow_extras();
    std::string Name = Command.Name;
    Out.push_back({Sub, [Name](const std::vector<std::string> &) {
                     return reportError(
                         inputError("'opmig ", Name,
                                    "' is not in this release; see docs/user-guide.md for "
                                    "what is"),
                         InputSpellings());
                   }});
  }
}

} // namespace opmig
