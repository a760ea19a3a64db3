//===- InputSpellings.cpp - How a command spells library inputs -----------===//

#include "InputSpellings.h"

namespace opmig {

CLI::Option *InputSpellings::flag(InputName Input, CLI::Option *Option) {
  add(Input, Option->get_name());
  return Option;
}

void InputSpellings::add(InputName Input, std::string Spelling) {
  ById[Input.Id] = std::move(Spelling);
}

std::string InputSpellings::render(const InputText &Message) const {
  return Message.render([this](InputName Input) -> std::string {
    auto It = ById.find(Input.Id);
    return It == ById.end() ? "" : " (" + It->second + ")";
  });
}

} // namespace opmig
