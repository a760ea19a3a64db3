//===- InputSpellings.h - How a command spells library inputs ---*- C++ -*-===//
//
// Library messages name inputs by role and mark them with an InputName
// (support's Errors.h), since one library serves several commands. Each
// command records how it spells the inputs it takes: a flag, the arguments
// after `--`, a key of the gate's config. reportError() renders an
// InputError with the spelling beside each input it names:
//
//   opmig: error: the source folder 'x' (--source) is not a readable directory; ...
//
// An input the command does not take stays as the library wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_INPUTSPELLINGS_H
#define OPMIG_TOOLS_INPUTSPELLINGS_H

#include "CLI/CLI.hpp"
#include "opmig/support/Errors.h"

#include <map>
#include <string>

namespace opmig {

class InputSpellings {
public:
  /// Spells `Input` as `Option`'s name (`--source`) and returns `Option`, so
  /// that the spelling is declared with the option and follows its name.
  CLI::Option *flag(InputName Input, CLI::Option *Option);
  /// Spells `Input` as `Spelling` (`after --`, `` `exclude:` in .opmig.yaml``).
  void add(InputName Input, std::string Spelling);
  /// `Message` with ` (<spelling>)` after each input it names that this
  /// command spells.
  std::string render(const InputText &Message) const;

private:
  std::map<std::string, std::string> ById;
};

} // namespace opmig

#endif
