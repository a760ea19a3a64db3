//===- JsonLocations.cpp - Lines of the values in a JSON text -------------===//

#include "JsonLocations.h"

#include "llvm/ADT/StringExtras.h"

namespace opmig::migrate {

JsonLocations::JsonLocations(llvm::StringRef Text) : Text(Text) { scanValue(""); }

unsigned JsonLocations::lineOf(const std::string &Pointer) const {
  auto It = Lines.find(Pointer);
  return It == Lines.end() ? 1 : It->second;
}

std::string JsonLocations::escape(llvm::StringRef Key) {
  std::string Escaped;
  for (char C : Key)
    Escaped += C == '~' ? "~0" : (C == '/' ? "~1" : std::string(1, C));
  return Escaped;
}

void JsonLocations::skipSpace() {
  while (Pos < Text.size() && llvm::isSpace(Text[Pos])) {
    if (Text[Pos] == '\n')
      ++Line;
    ++Pos;
  }
}

/// Reads a string starting at its opening quote. Escapes other than `\"`
/// and `\\` are kept as written: keys are only compared with the names a
/// profile knows, which need no escapes.
std::string JsonLocations::readString() {
  std::string Value;
  for (++Pos; Pos < Text.size() && Text[Pos] != '"'; ++Pos) {
    if (Text[Pos] == '\\' && Pos + 1 < Text.size() &&
        (Text[Pos + 1] == '"' || Text[Pos + 1] == '\\'))
      ++Pos;
    Value += Text[Pos];
  }
  ++Pos;
  return Value;
}

void JsonLocations::scanValue(const std::string &Pointer) {
  skipSpace();
  Lines.try_emplace(Pointer, Line);
  if (Pos >= Text.size())
    return;
  char Open = Text[Pos];
  if (Open == '"') {
    readString();
    return;
  }
  if (Open != '{' && Open != '[') {
    while (Pos < Text.size() && !llvm::isSpace(Text[Pos]) &&
           !llvm::StringRef(",]}").contains(Text[Pos]))
      ++Pos;
    return;
  }
  char Close = Open == '{' ? '}' : ']';
  ++Pos;
  for (size_t Index = 0;; ++Index) {
    skipSpace();
    if (Pos >= Text.size() || Text[Pos] == Close)
      break;
    std::string Child = Pointer + "/" + std::to_string(Index);
    if (Open == '{') {
      Child = Pointer + "/" + escape(readString());
      if (!Lines.try_emplace(Child, Line).second && !Duplicate)
        Duplicate = {Child, Line};
      skipSpace();
      ++Pos; // ':'
    }
    scanValue(Child);
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == ',')
      ++Pos;
  }
  ++Pos;
}

} // namespace opmig::migrate
