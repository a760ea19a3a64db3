//===- ConfigNode.cpp - One located node of a config file -----------------===//

#include "opmig/support/ConfigNode.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig {

namespace {

const nlohmann::json &absentValue() {
  static const nlohmann::json Null;
  return Null;
}

/// The key of `Known` that `Key` most likely misspells: within a third of
/// its length in edits (at least one), the first of the nearest.
std::optional<llvm::StringRef> closestKey(llvm::StringRef Key,
                                          llvm::ArrayRef<llvm::StringRef> Known) {
  unsigned Limit = std::max<unsigned>(1, Key.size() / 3);
  std::optional<llvm::StringRef> Best;
  unsigned BestDistance = Limit + 1;
  for (llvm::StringRef Candidate : Known) {
    unsigned Distance = Key.edit_distance(Candidate, /*AllowReplacements=*/true, Limit);
    if (Distance < BestDistance) {
      Best = Candidate;
      BestDistance = Distance;
    }
  }
  return Best;
}

} // namespace

ConfigNode::ConfigNode(const ConfigDocument &Doc) : ConfigNode(Doc, &Doc.value(), "", "", "") {}

ConfigNode::ConfigNode(const ConfigDocument &Doc, const nlohmann::json *Value, std::string Pointer,
                       std::string Path, std::string Key)
    : Doc(&Doc), Value(Value), Pointer(std::move(Pointer)), Path(std::move(Path)),
      Key(std::move(Key)) {}

const nlohmann::json &ConfigNode::json() const { return Value ? *Value : absentValue(); }

ConfigLocation ConfigNode::location() const { return Doc->locationOf(Pointer); }

std::string ConfigNode::where() const {
  ConfigLocation At = location();
  return Doc->file() + ":" + std::to_string(At.Line) + ":" + std::to_string(At.Column);
}

std::string ConfigNode::describe() const {
  return Path.empty() ? "the " + Doc->kind() : "'" + Path + "'";
}

llvm::Error ConfigNode::error(const llvm::Twine &Problem) const {
  return inputError(where(), ": ", Problem.str());
}

bool ConfigNode::has(llvm::StringRef Name) const {
  return json().is_object() && json().contains(Name.str());
}

ConfigNode ConfigNode::member(llvm::StringRef Name) const {
  const nlohmann::json *Child = nullptr;
  if (has(Name))
    Child = &json()[Name.str()];
  return ConfigNode(*Doc, Child, Pointer + "/" + pointerToken(Name),
                    Path.empty() ? Name.str() : Path + "." + Name.str(), Name.str());
}

ConfigNode ConfigNode::element(size_t Index) const {
  const nlohmann::json *Child = nullptr;
  if (json().is_array() && Index < json().size())
    Child = &json()[Index];
  return ConfigNode(*Doc, Child, Pointer + "/" + std::to_string(Index),
                    Path + "[" + std::to_string(Index) + "]", "");
}

std::vector<ConfigNode> ConfigNode::members() const {
  std::vector<ConfigNode> Out;
  if (!json().is_object())
    return Out;
  for (const auto &Item : json().items())
    Out.push_back(member(Item.key()));
  llvm::stable_sort(Out, [](const ConfigNode &A, const ConfigNode &B) {
    ConfigLocation L = A.location(), R = B.location();
    return std::tie(L.Line, L.Column) < std::tie(R.Line, R.Column);
  });
  return Out;
}

std::vector<ConfigNode> ConfigNode::elements() const {
  std::vector<ConfigNode> Out;
  if (json().is_array())
    for (size_t I = 0; I < json().size(); ++I)
      Out.push_back(element(I));
  return Out;
}

llvm::Error ConfigNode::allowKeys(llvm::ArrayRef<llvm::StringRef> Known) const {
  for (const ConfigNode &Member : members())
    if (!llvm::is_contained(Known, Member.key()))
      return Member.error(unknownKeyMessage(Member.key(), Known, describe()));
  return llvm::Error::success();
}

llvm::Error ConfigNode::requireKeys(llvm::ArrayRef<llvm::StringRef> Required) const {
  for (llvm::StringRef Name : Required)
    if (!has(Name))
      return error("missing required key '" + Name + "' in " + describe());
  return llvm::Error::success();
}

llvm::Error ConfigNode::expectMapping() const {
  if (json().is_object())
    return llvm::Error::success();
  return error(describe() + " must be a mapping");
}

llvm::Error ConfigNode::expectList() const {
  if (json().is_array())
    return llvm::Error::success();
  return error(describe() + " must be a list");
}

llvm::Expected<std::string> ConfigNode::string() const {
  if (!json().is_string())
    return error(describe() + " must be a string");
  return json().get<std::string>();
}

llvm::Expected<std::string> ConfigNode::nonEmptyString() const {
  if (!json().is_string() || json().get_ref<const std::string &>().empty())
    return error(describe() + " must be a non-empty string");
  return json().get<std::string>();
}

llvm::Expected<bool> ConfigNode::boolean() const {
  if (!json().is_boolean())
    return error(describe() + " must be true or false");
  return json().get<bool>();
}

llvm::Expected<std::vector<std::string>> ConfigNode::strings() const {
  if (!json().is_array())
    return error(describe() + " must be a list of strings");
  std::vector<std::string> Out;
  for (const ConfigNode &Item : elements()) {
    if (!Item.json().is_string())
      return Item.error(describe() + " must be a list of strings");
    Out.push_back(Item.json().get<std::string>());
  }
  return Out;
}

llvm::Error ConfigNode::readString(llvm::StringRef Name, std::string &Out) const {
  if (!has(Name))
    return llvm::Error::success();
  llvm::Expected<std::string> Read = member(Name).string();
  if (!Read)
    return Read.takeError();
  Out = std::move(*Read);
  return llvm::Error::success();
}

llvm::Error ConfigNode::readBool(llvm::StringRef Name, bool &Out) const {
  if (!has(Name))
    return llvm::Error::success();
  llvm::Expected<bool> Read = member(Name).boolean();
  if (!Read)
    return Read.takeError();
  Out = *Read;
  return llvm::Error::success();
}

llvm::Error ConfigNode::readStrings(llvm::StringRef Name, std::vector<std::string> &Out) const {
  if (!has(Name))
    return llvm::Error::success();
  llvm::Expected<std::vector<std::string>> Read = member(Name).strings();
  if (!Read)
    return Read.takeError();
  Out = std::move(*Read);
  return llvm::Error::success();
}

std::string unknownKeyMessage(llvm::StringRef Key, llvm::ArrayRef<llvm::StringRef> Known,
                              llvm::StringRef What) {
  std::string Message = ("unknown key '" + Key + "' in " + What).str();
  if (std::optional<llvm::StringRef> Near = closestKey(Key, Known))
    return Message + "; did you mean '" + Near->str() + "'?";
  if (Known.empty())
    return Message + "; it takes no keys";
  return Message + "; known keys: " + llvm::join(Known, ", ");
}

} // namespace opmig
