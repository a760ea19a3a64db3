// PLACEHOLDER: being written; until then these subcommands say they are not
// in this release.
#include "Commands.h"
#include "ExitCodes.h"
#include "opmig/analyze/Errors.h"

namespace opmig {

static void registerNotYet(CLI::App &App, std::vector<std::pair<CLI::App *, CommandRunner>> &Out,
                           const char *Name) {
  CLI::App *Sub = App.add_subcommand(Name, "(planned)");
  Sub->allow_extras();
  std::string N = Name;
  Out.push_back({Sub, [N](const std::vector<std::string> &) {
                   return reportError(inputError("'opmig ", N, "' is not in this release"));
                 }});
}

void registerReviewCommands(CLI::App &App, std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  registerNotYet(App, Out, "review");
  registerNotYet(App, Out, "gate");
}

} // namespace opmig
