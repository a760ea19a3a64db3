//===- JsonConfig.cpp - A JSON config file into a ConfigDocument ----------===//
//
// nlohmann_json keeps no source positions, so a scan of the text (which has
// already parsed) finds where each member and element starts. It also finds
// duplicate keys, which JSON parsers silently merge.
//
//===----------------------------------------------------------------------===//

#include "JsonConfig.h"

#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/StringExtras.h"

#include <optional>

namespace opmig {

namespace {

class JsonScanner {
public:
  explicit JsonScanner(llvm::StringRef Text) : Text(Text) { scanValue(""); }

  std::map<std::string, ConfigLocation> Located;
  /// The first key that appears twice in one object, at its second place.
  std::optional<std::pair<std::string, ConfigLocation>> Duplicate;

private:
  llvm::StringRef Text;
  size_t Pos = 0;
  size_t LineStart = 0;
  unsigned Line = 1;

  ConfigLocation here() const { return {Line, static_cast<unsigned>(Pos - LineStart) + 1}; }

  void skipSpace() {
    for (; Pos < Text.size() && llvm::isSpace(Text[Pos]); ++Pos)
      if (Text[Pos] == '\n') {
        ++Line;
        LineStart = Pos + 1;
      }
  }

  /// Reads a string starting at its opening quote. Escapes other than `\"`
  /// and `\\` are kept as written: a key with one is merely not located
  /// (its parent's location serves).
  std::string readString() {
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

  void scanValue(const std::string &Pointer) {
    skipSpace();
    Located.try_emplace(Pointer, here());
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
    scanContainer(Pointer, Open);
  }

  void scanContainer(const std::string &Pointer, char Open) {
    char Close = Open == '{' ? '}' : ']';
    ++Pos;
    for (size_t Index = 0;; ++Index) {
      skipSpace();
      if (Pos >= Text.size() || Text[Pos] == Close)
        break;
      std::string Child = Pointer + "/" + std::to_string(Index);
      if (Open == '{') {
        ConfigLocation Key = here();
        std::string Name = readString();
        Child = Pointer + "/" + pointerToken(Name);
        if (!Located.try_emplace(Child, Key).second && !Duplicate)
          Duplicate = {Name, Key};
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
};

} // namespace

llvm::Expected<ConfigDocument> parseJsonConfig(llvm::StringRef Text, const std::string &File,
                                               const std::string &Kind) {
  // parseJsonText bounds the nesting, which bounds the scan's recursion too.
  llvm::Expected<nlohmann::json> Value = parseJsonText(Text, File);
  if (!Value)
    return Value.takeError();
  JsonScanner Scan(Text);
  if (Scan.Duplicate)
    return inputError(File, ":", std::to_string(Scan.Duplicate->second.Line), ":",
                      std::to_string(Scan.Duplicate->second.Column), ": duplicate key '",
                      Scan.Duplicate->first, "'");
  return ConfigDocument(File, Kind, std::move(*Value), std::move(Scan.Located));
}

} // namespace opmig
