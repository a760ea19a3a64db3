//===- MatchParams.cpp - Reading a rule's `match` in checkers -------------===//

#include "MatchParams.h"

#include "opmig/audit/Checker.h"
#include "opmig/audit/RegexSyntax.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

std::string MatchParams::where(const std::string &Key) const {
  auto It = R.MatchLocations.find(Key);
  if (It == R.MatchLocations.end())
    It = R.MatchLocations.find("");
  ConfigLocation At = It != R.MatchLocations.end() ? It->second : ConfigLocation{R.Line, 1};
  return R.Origin + ":" + std::to_string(At.Line) + ":" + std::to_string(At.Column);
}

llvm::Error MatchParams::error(const std::string &Key, const std::string &Problem) const {
  return inputError(where(Key), ": rule '", R.Id, "': ", Problem);
}

llvm::Error MatchParams::allowOnly(llvm::ArrayRef<llvm::StringRef> Allowed) const {
  for (auto &[Key, Value] : R.Match.items())
    if (!llvm::is_contained(Allowed, Key))
      return inputError(where(Key), ": ",
                        unknownKeyMessage(Key, Allowed, "'match' of a " + R.Kind + " rule"));
  return llvm::Error::success();
}

llvm::Expected<std::string> MatchParams::string(const char *Key, bool Required) const {
  if (!has(Key)) {
    if (Required)
      return error("", std::string("match needs '") + Key + "'");
    return "";
  }
  const nlohmann::json &V = R.Match[Key];
  if (!V.is_string() || V.get<std::string>().empty())
    return error(Key, std::string("'") + Key + "' must be a non-empty string");
  return V.get<std::string>();
}

llvm::Expected<std::vector<std::string>> MatchParams::strings(const char *Key,
                                                              bool Required) const {
  if (!has(Key)) {
    if (Required)
      return error("", std::string("match needs '") + Key + "'");
    return std::vector<std::string>();
  }
  const nlohmann::json &V = R.Match[Key];
  std::vector<std::string> Out;
  if (V.is_array())
    for (const nlohmann::json &Item : V)
      if (Item.is_string() && !Item.get<std::string>().empty())
        Out.push_back(Item.get<std::string>());
  if (!V.is_array() || Out.size() != V.size() || (Required && Out.empty()))
    return error(Key, std::string("'") + Key + "' must be a non-empty list of non-empty strings");
  return Out;
}

llvm::Error MatchParams::regex(const char *Key, bool Required, unsigned MinGroups) const {
  llvm::Expected<std::string> Pattern = string(Key, Required);
  if (!Pattern)
    return Pattern.takeError();
  if (Pattern->empty())
    return llvm::Error::success();
  if (std::optional<std::string> Why = regexError(*Pattern))
    return error(Key, "bad regex '" + *Pattern + "' in '" + Key + "': " + *Why);
  if (compileRegex(*Pattern).getNumMatches() < MinGroups)
    return error(Key, "regex '" + *Pattern + "' in '" + Key + "' needs at least " +
                          std::to_string(MinGroups) + " group(s)");
  return llvm::Error::success();
}

Finding makeFinding(const Rule &R, const std::string &File, unsigned Line, unsigned Column,
                    const std::map<std::string, std::string> &Captures) {
  Finding F;
  F.Id = R.Id;
  F.Level = R.Level;
  F.File = File;
  F.Line = Line;
  F.Column = Column;
  F.Message = fillPlaceholders(R.Message, Captures);
  F.Fix = fillPlaceholders(R.Fix, Captures);
  if (const Exemption *E = exemptionFor(R, File, Captures))
    F.Exemption = E->Id;
  return F;
}

} // namespace opmig::audit
