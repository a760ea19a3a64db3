//===- Exemptions.cpp - Reading a rule's `exemptions` ---------------------===//

#include "Exemptions.h"

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace opmig::audit {

namespace {

const llvm::StringRef ExemptionKeys[] = {"id", "paths", "outside", "captures", "spec"};

llvm::Error readGlobs(const ConfigNode &Node, llvm::StringRef Key, std::vector<std::string> &Out) {
  ConfigNode List = Node.member(Key);
  if (!List.exists())
    return llvm::Error::success();
  if (!List.json().is_array() || List.json().empty())
    return List.error("'" + Key + "' must be a list of globs");
  for (const ConfigNode &Item : List.elements()) {
    if (!Item.json().is_string())
      return Item.error("'" + Key + "' must be a list of globs");
    if (auto Glob = PathGlob::create(Item.json().get<std::string>()); !Glob)
      return Item.error(llvm::toString(Glob.takeError()));
    Out.push_back(Item.json().get<std::string>());
  }
  return llvm::Error::success();
}

llvm::Error readCaptures(const ConfigNode &Node, Exemption &E) {
  ConfigNode Captures = Node.member("captures");
  if (!Captures.exists())
    return llvm::Error::success();
  if (!Captures.json().is_object() || Captures.json().empty())
    return Captures.error("'captures' must map capture names to regexes");
  for (const ConfigNode &Capture : Captures.members()) {
    const std::string &Name = Capture.key();
    if (!Capture.json().is_string())
      return Capture.error("capture '" + Name + "' must map to a regex");
    if (std::optional<std::string> Why = regexError(Capture.json().get<std::string>()))
      return Capture.error("bad regex for capture '" + Name + "': " + *Why);
    E.Captures[Name] = Capture.json().get<std::string>();
  }
  return llvm::Error::success();
}

llvm::Expected<Exemption> readExemption(const ConfigNode &Node) {
  if (!Node.json().is_object())
    return Node.error("an exemption must be a mapping (id, paths, outside, captures, spec)");
  if (llvm::Error Err = Node.allowKeys(ExemptionKeys))
    return Err;
  Exemption E;
  E.Line = Node.location().Line;
  for (auto [Key, Field] : {std::pair{"id", &E.Id}, {"spec", &E.Spec}}) {
    const nlohmann::json &V = Node.member(Key).json();
    if (!V.is_string() || V.get_ref<const std::string &>().empty())
      return Node.error(std::string("an exemption needs a non-empty string '") + Key + "'");
    *Field = V.get<std::string>();
  }
  static const llvm::Regex KebabCase("^[a-z0-9]+(-[a-z0-9]+)*$");
  if (!KebabCase.match(E.Id))
    return Node.member("id").error("exemption id '" + E.Id + "' must be kebab-case");
  if (llvm::Error Err = readGlobs(Node, "paths", E.Paths))
    return Err;
  if (llvm::Error Err = readGlobs(Node, "outside", E.Outside))
    return Err;
  if (llvm::Error Err = readCaptures(Node, E))
    return Err;
  if (E.Paths.empty() && E.Outside.empty() && E.Captures.empty())
    return Node.error("exemption '" + E.Id +
                      "' must say where it applies: 'paths', 'outside' or 'captures'");
  return E;
}

} // namespace

llvm::Expected<std::vector<Exemption>> readExemptions(const ConfigNode &RuleTop) {
  std::vector<Exemption> Out;
  ConfigNode List = RuleTop.member("exemptions");
  if (!List.exists())
    return Out;
  if (!List.json().is_array() || List.json().empty())
    return List.error("'exemptions' must be a non-empty list");
  std::set<std::string> Ids;
  for (const ConfigNode &Item : List.elements()) {
    llvm::Expected<Exemption> E = readExemption(Item);
    if (!E)
      return E.takeError();
    if (!Ids.insert(E->Id).second)
      return Item.error("duplicate exemption id '" + E->Id + "'");
    Out.push_back(std::move(*E));
  }
  return Out;
}

} // namespace opmig::audit
