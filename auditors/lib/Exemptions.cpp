//===- Exemptions.cpp - Reading a rule's `exemptions` ---------------------===//

#include "Exemptions.h"

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace opmig::audit {

namespace {

const char *const ExemptionKeys[] = {"id", "paths", "outside", "captures", "spec"};

class ExemptionReader {
public:
  ExemptionReader(const LocatedJson &Doc, const std::string &Origin) : Doc(Doc), Origin(Origin) {}

  llvm::Expected<Exemption> read(size_t Index) {
    Pointer = "/exemptions/" + std::to_string(Index);
    const nlohmann::json &V = Doc.Value["exemptions"][Index];
    if (!V.is_object())
      return error("", "an exemption must be a mapping (id, paths, outside, captures, spec)");
    for (auto &[Key, Value] : V.items())
      if (!llvm::is_contained(ExemptionKeys, Key))
        return error("/" + pointerToken(Key),
                     "unknown key '" + Key + "' in an exemption; expected one of: " +
                         llvm::join(std::begin(ExemptionKeys), std::end(ExemptionKeys), ", "));
    Exemption E;
    E.Line = Doc.lineOf(Pointer);
    for (auto [Key, Field] : {std::pair{"id", &E.Id}, {"spec", &E.Spec}}) {
      if (!V.contains(Key) || !V[Key].is_string() || V[Key].get<std::string>().empty())
        return error("", std::string("an exemption needs a non-empty string '") + Key + "'");
      *Field = V[Key].get<std::string>();
    }
    static const llvm::Regex KebabCase("^[a-z0-9]+(-[a-z0-9]+)*$");
    if (!KebabCase.match(E.Id))
      return error("/id", "exemption id '" + E.Id + "' must be kebab-case");
    if (llvm::Error Err = globs(V, "paths", E.Paths))
      return Err;
    if (llvm::Error Err = globs(V, "outside", E.Outside))
      return Err;
    if (llvm::Error Err = captures(V, E))
      return Err;
    if (E.Paths.empty() && E.Outside.empty() && E.Captures.empty())
      return error("", "exemption '" + E.Id +
                           "' must say where it applies: 'paths', 'outside' or 'captures'");
    return E;
  }

private:
  llvm::Error error(const std::string &Sub, const std::string &Problem) const {
    return inputError(Origin, ":", std::to_string(Doc.lineOf(Pointer + Sub)), ": ", Problem);
  }

  llvm::Error globs(const nlohmann::json &V, const char *Key, std::vector<std::string> &Out) {
    if (!V.contains(Key))
      return llvm::Error::success();
    const nlohmann::json &List = V[Key];
    if (!List.is_array() || List.empty())
      return error(std::string("/") + Key, std::string("'") + Key + "' must be a list of globs");
    for (size_t I = 0; I < List.size(); ++I) {
      std::string Sub = std::string("/") + Key + "/" + std::to_string(I);
      if (!List[I].is_string())
        return error(Sub, std::string("'") + Key + "' must be a list of globs");
      if (auto Glob = PathGlob::create(List[I].get<std::string>()); !Glob)
        return error(Sub, llvm::toString(Glob.takeError()));
      Out.push_back(List[I].get<std::string>());
    }
    return llvm::Error::success();
  }

  llvm::Error captures(const nlohmann::json &V, Exemption &E) {
    if (!V.contains("captures"))
      return llvm::Error::success();
    if (!V["captures"].is_object() || V["captures"].empty())
      return error("/captures", "'captures' must map capture names to regexes");
    for (auto &[Name, Pattern] : V["captures"].items()) {
      std::string Sub = "/captures/" + pointerToken(Name);
      if (!Pattern.is_string())
        return error(Sub, "capture '" + Name + "' must map to a regex");
      if (std::optional<std::string> Why = regexError(Pattern.get<std::string>()))
        return error(Sub, "bad regex for capture '" + Name + "': " + *Why);
      E.Captures[Name] = Pattern.get<std::string>();
    }
    return llvm::Error::success();
  }

  const LocatedJson &Doc;
  const std::string &Origin;
  std::string Pointer;
};

} // namespace

llvm::Expected<std::vector<Exemption>> readExemptions(const LocatedJson &Doc,
                                                      const std::string &Origin) {
  std::vector<Exemption> Out;
  if (!Doc.Value.contains("exemptions"))
    return Out;
  if (!Doc.Value["exemptions"].is_array() || Doc.Value["exemptions"].empty())
    return inputError(Origin, ":", std::to_string(Doc.lineOf("/exemptions")),
                      ": 'exemptions' must be a non-empty list");
  ExemptionReader Reader(Doc, Origin);
  std::set<std::string> Ids;
  for (size_t I = 0; I < Doc.Value["exemptions"].size(); ++I) {
    llvm::Expected<Exemption> E = Reader.read(I);
    if (!E)
      return E.takeError();
    if (!Ids.insert(E->Id).second)
      return inputError(Origin, ":", std::to_string(E->Line), ": duplicate exemption id '", E->Id,
                        "'");
    Out.push_back(std::move(*E));
  }
  return Out;
}

} // namespace opmig::audit
