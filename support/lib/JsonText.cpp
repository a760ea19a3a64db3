//===- JsonText.cpp - The toolkit's one JSON writer and bounded reader ----===//

#include "opmig/support/JsonText.h"

#include "opmig/support/Errors.h"

#include "llvm/Support/ConvertUTF.h"

namespace opmig {

namespace {

bool validUtf8(const std::string &S) {
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(S.data());
  return llvm::isLegalUTF8String(&Begin, Begin + S.size());
}

/// Thrown by the parser callback; never leaves parseJsonText().
struct TooDeep {};

struct Nesting {
  unsigned Deepest = 0;
  size_t FirstTooDeep = llvm::StringRef::npos; ///< Offset of the first bracket past the limit.
};

/// Counts `[`/`{` outside string literals.
Nesting scanNesting(llvm::StringRef Text, unsigned Limit) {
  Nesting N;
  unsigned Depth = 0;
  bool InString = false, Escaped = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InString) {
      if (Escaped)
        Escaped = false;
      else if (C == '\\')
        Escaped = true;
      else if (C == '"')
        InString = false;
    } else if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      N.Deepest = std::max(N.Deepest, ++Depth);
      if (Depth > Limit && N.FirstTooDeep == llvm::StringRef::npos)
        N.FirstTooDeep = I;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return N;
}

unsigned lineAt(llvm::StringRef Text, size_t Byte) {
  return 1 + Text.take_front(std::min(Byte, Text.size())).count('\n');
}

/// nlohmann's message without its prefix ("[json.exception.parse_error.101]
/// parse error at line 2, column 3: ").
std::string reason(const nlohmann::json::parse_error &E) {
  llvm::StringRef Why = E.what();
  size_t Column = Why.find(", column ");
  if (Column != Why.npos && Why.find(": ", Column) != Why.npos)
    Why = Why.drop_front(Why.find(": ", Column) + 2);
  return Why.str();
}

} // namespace

bool hasInvalidUtf8(const nlohmann::json &J) {
  if (J.is_string())
    return !validUtf8(J.get_ref<const std::string &>());
  if (J.is_object()) {
    for (const auto &[Key, Value] : J.items())
      if (!validUtf8(Key) || hasInvalidUtf8(Value))
        return true;
    return false;
  }
  if (J.is_array())
    for (const nlohmann::json &Item : J)
      if (hasInvalidUtf8(Item))
        return true;
  return false;
}

llvm::Expected<nlohmann::json> parseJsonText(llvm::StringRef Text, llvm::StringRef Origin) {
  // The callback sees the depth of each value as it starts; stopping there
  // keeps the parsed tree (and every later walk of it) shallow.
  auto Limit = [](int Depth, nlohmann::json::parse_event_t Event, nlohmann::json &) {
    if (Depth >= static_cast<int>(MaxJsonDepth) &&
        (Event == nlohmann::json::parse_event_t::object_start ||
         Event == nlohmann::json::parse_event_t::array_start))
      throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(Text.begin(), Text.end(), Limit);
  } catch (const TooDeep &) {
    size_t Byte = scanNesting(Text, MaxJsonDepth).FirstTooDeep;
    return inputError(Origin.str(), ":", std::to_string(lineAt(Text, Byte)),
                      ": nested deeper than ", std::to_string(MaxJsonDepth), " levels");
  } catch (const nlohmann::json::parse_error &E) {
    size_t Before = E.byte > 0 ? E.byte - 1 : 0;
    return inputError(Origin.str(), ":", std::to_string(lineAt(Text, Before)),
                      ": invalid JSON: ", reason(E));
  } catch (const nlohmann::json::exception &E) {
    // A number too large for a double (out_of_range.406), found by fuzzing.
    return inputError(Origin.str(), ": invalid JSON: ", E.what());
  }
}

unsigned jsonNestingDepth(llvm::StringRef Text) { return scanNesting(Text, ~0u).Deepest; }

} // namespace opmig
