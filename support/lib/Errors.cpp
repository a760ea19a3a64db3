#include "opmig/support/Errors.h"

namespace opmig {

char InputError::ID = 0;

InputText &InputText::operator+=(llvm::StringRef More) {
  Text += More;
  return *this;
}

InputText &InputText::operator+=(InputName Input) {
  Mentions.push_back({Text.size(), Input});
  return *this;
}

InputText &InputText::operator+=(const InputText &More) {
  for (const Mention &M : More.Mentions)
    Mentions.push_back({Text.size() + M.Offset, M.Input});
  Text += More.Text;
  return *this;
}

std::string InputText::render(llvm::function_ref<std::string(InputName)> Insert) const {
  std::string Out;
  size_t Done = 0;
  for (const Mention &M : Mentions) {
    Out.append(Text, Done, M.Offset - Done);
    Out += Insert(M.Input);
    Done = M.Offset;
  }
  Out.append(Text, Done);
  return Out;
}

} // namespace opmig
