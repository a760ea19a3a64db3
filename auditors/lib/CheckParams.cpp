//===- CheckParams.cpp - The `match` parameters of cpp and python rules ---===//

#include "CheckParams.h"

#include "MatchParams.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

namespace {

llvm::Error problem(const Rule &R, llvm::StringRef Key, const std::string &Text) {
  // A missing parameter has no line of its own: point at the check.
  bool Known = R.MatchLocations.count(Key.str());
  return MatchParams(R).error(Known ? Key.str() : "check", Text);
}

bool isInteger(const nlohmann::json &Value) {
  if (Value.is_number_unsigned())
    return true;
  if (Value.is_number_integer())
    return Value.get<long long>() >= 0;
  if (!Value.is_string())
    return false;
  const std::string &Text = Value.get_ref<const std::string &>();
  return !Text.empty() && Text.size() < 10 && llvm::all_of(Text, llvm::isDigit);
}

llvm::Error checkRegex(const Rule &R, const ParamSpec &Spec, const std::string &Pattern) {
  std::string Compiled = Spec.Placeholder ? substitute(Pattern, Spec.Placeholder, "x") : Pattern;
  if (std::optional<std::string> Why = regexError(Compiled))
    return problem(R, Spec.Name, "bad regex in '" + std::string(Spec.Name) + "': " + *Why);
  return llvm::Error::success();
}

llvm::Error checkGlob(const Rule &R, const ParamSpec &Spec, const std::string &Pattern) {
  std::string Compiled = Spec.Placeholder ? substitute(Pattern, Spec.Placeholder, "x") : Pattern;
  llvm::Expected<PathGlob> Glob = PathGlob::create(Compiled);
  if (!Glob)
    return problem(R, Spec.Name,
                   "bad glob in '" + std::string(Spec.Name) + "': " + toString(Glob.takeError()));
  return llvm::Error::success();
}

llvm::Error checkValue(const Rule &R, const ParamSpec &Spec, const nlohmann::json &Value) {
  std::string Name = Spec.Name;
  switch (Spec.Type) {
  case ParamType::String:
    if (!Value.is_string() || Value.get_ref<const std::string &>().empty())
      return problem(R, Name, "parameter '" + Name + "' must be a non-empty string");
    return llvm::Error::success();
  case ParamType::Integer:
    if (!isInteger(Value))
      return problem(R, Name, "parameter '" + Name + "' must be a non-negative integer");
    return llvm::Error::success();
  case ParamType::Regex:
    if (!Value.is_string())
      return problem(R, Name, "parameter '" + Name + "' must be a regex (a string)");
    return checkRegex(R, Spec, Value.get<std::string>());
  case ParamType::StringList:
  case ParamType::RegexList:
  case ParamType::GlobList:
    if (!Value.is_array() || Value.empty())
      return problem(R, Name, "parameter '" + Name + "' must be a non-empty list of strings");
    for (const nlohmann::json &Element : Value) {
      if (!Element.is_string() || Element.get_ref<const std::string &>().empty())
        return problem(R, Name, "parameter '" + Name + "' must be a non-empty list of strings");
      if (Spec.Type == ParamType::RegexList)
        if (llvm::Error E = checkRegex(R, Spec, Element.get<std::string>()))
          return E;
      if (Spec.Type == ParamType::GlobList)
        if (llvm::Error E = checkGlob(R, Spec, Element.get<std::string>()))
          return E;
    }
    return llvm::Error::success();
  }
  llvm_unreachable("every parameter type is handled");
}

std::string namesOf(llvm::ArrayRef<std::string> Names) { return llvm::join(Names, ", "); }

} // namespace

llvm::Expected<const CheckSpec *> validateMatch(const Rule &R, llvm::ArrayRef<CheckSpec> Checks) {
  std::vector<std::string> CheckNames;
  for (const CheckSpec &Check : Checks)
    CheckNames.push_back(Check.Name);
  if (!R.Match.is_object() || !R.Match.contains("check") || !R.Match["check"].is_string())
    return problem(R, "check",
                   "a " + R.Kind + " rule needs 'check' in match; one of: " + namesOf(CheckNames));
  std::string Name = R.Match["check"].get<std::string>();
  const CheckSpec *Spec =
      llvm::find_if(Checks, [&](const CheckSpec &Check) { return Name == Check.Name; });
  if (Spec == Checks.end())
    return problem(R, "check",
                   "unknown " + R.Kind + " check '" + Name +
                       "'; expected one of: " + namesOf(CheckNames));
  std::vector<llvm::StringRef> ParamNames;
  for (const ParamSpec &Param : Spec->Params)
    ParamNames.push_back(Param.Name);
  for (const auto &[Key, Value] : R.Match.items()) {
    if (Key == "check")
      continue;
    auto Param =
        llvm::find_if(Spec->Params, [&, &Key = Key](const ParamSpec &P) { return Key == P.Name; });
    if (Param == Spec->Params.end())
      return inputError(MatchParams(R).where(Key), ": ",
                        unknownKeyMessage(Key, ParamNames, "'match' of check " + Name));
    if (llvm::Error E = checkValue(R, *Param, Value))
      return E;
  }
  for (const ParamSpec &Param : Spec->Params)
    if (Param.Required && !R.Match.contains(Param.Name))
      return problem(R, "check",
                     "check " + Name + " needs parameter '" + std::string(Param.Name) + "'");
  return Spec;
}

std::string checkName(const Rule &R) { return stringParam(R, "check"); }

std::string stringParam(const Rule &R, llvm::StringRef Key, llvm::StringRef Default) {
  auto It = R.Match.find(Key.str());
  if (It == R.Match.end() || !It->is_string())
    return Default.str();
  return It->get<std::string>();
}

unsigned integerParam(const Rule &R, llvm::StringRef Key, unsigned Default) {
  auto It = R.Match.find(Key.str());
  if (It == R.Match.end() || !isInteger(*It))
    return Default;
  if (It->is_string())
    return static_cast<unsigned>(std::stoul(It->get<std::string>()));
  return It->get<unsigned>();
}

std::vector<std::string> listParam(const Rule &R, llvm::StringRef Key) {
  std::vector<std::string> Values;
  auto It = R.Match.find(Key.str());
  if (It == R.Match.end() || !It->is_array())
    return Values;
  for (const nlohmann::json &Element : *It)
    if (Element.is_string())
      Values.push_back(Element.get<std::string>());
  return Values;
}

std::string substitute(llvm::StringRef Text, llvm::StringRef Name, llvm::StringRef Value) {
  std::string Placeholder = "{" + Name.str() + "}";
  std::string Result;
  while (true) {
    size_t At = Text.find(Placeholder);
    Result += Text.substr(0, At).str();
    if (At == llvm::StringRef::npos)
      return Result;
    Result += Value.str();
    Text = Text.drop_front(At + Placeholder.size());
  }
}

} // namespace opmig::audit
