//===- GateConfig.cpp - Reading .opmig.yaml -------------------------------===//
//
// Apart from the gate itself so that the reader, which parses what a pull
// request may edit, can be fuzzed without the checkers behind the gate.
//
//===----------------------------------------------------------------------===//

#include "YamlJson.h"
#include "opmig/audit/Gate.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace opmig::audit {

namespace {

/// Reads one key of the config document, complaining at its line.
class ConfigReader {
public:
  ConfigReader(const LocatedJson &Doc, const std::string &Origin) : Doc(Doc), Origin(Origin) {}

  llvm::Error error(const std::string &Key, const std::string &Problem) const {
    return inputError(Origin, ":", std::to_string(Doc.lineOf("/" + pointerToken(Key))), ": ",
                      Problem);
  }

  llvm::Expected<std::string> string(const std::string &Key) const {
    const nlohmann::json &V = Doc.Value.at(Key);
    if (!V.is_string())
      return error(Key, "'" + Key + "' must be a string");
    return V.get<std::string>();
  }

  llvm::Expected<std::vector<std::string>> strings(const std::string &Key) const {
    const nlohmann::json &V = Doc.Value.at(Key);
    if (!V.is_array())
      return error(Key, "'" + Key + "' must be a list of strings");
    std::vector<std::string> Out;
    for (const nlohmann::json &Item : V) {
      if (!Item.is_string())
        return error(Key, "'" + Key + "' must be a list of strings");
      Out.push_back(Item.get<std::string>());
    }
    return Out;
  }

  /// `review: {domains: auto | [names], compile-check: true | false}`.
  llvm::Error review(GateConfig &Config) const {
    const nlohmann::json &V = Doc.Value.at("review");
    if (!V.is_object())
      return error("review", "'review' must be a mapping with the key 'domains'");
    for (const auto &Item : V.items()) {
      std::string Line = std::to_string(Doc.lineOf("/review/" + pointerToken(Item.key())));
      if (Item.key() == "compile-check") {
        if (!Item.value().is_boolean())
          return inputError(Origin, ":", Line, ": 'compile-check' must be true or false");
        Config.ReviewCompileCheck = Item.value().get<bool>();
        continue;
      }
      if (Item.key() != "domains")
        return inputError(Origin, ":", Line, ": unknown key '", Item.key(),
                          "' in review; expected domains or compile-check");
      const nlohmann::json &D = Item.value();
      bool Auto = D.is_string() && D.get<std::string>() == "auto";
      bool Names =
          D.is_array() && llvm::all_of(D, [](const nlohmann::json &N) { return N.is_string(); });
      if (!Auto && !Names)
        return inputError(Origin, ":", std::to_string(Doc.lineOf("/review/domains")),
                          ": 'domains' must be auto or a list of domain names");
      Config.ReviewDomains = Auto ? std::vector<std::string>{} : D.get<std::vector<std::string>>();
    }
    return llvm::Error::success();
  }

private:
  const LocatedJson &Doc;
  const std::string &Origin;
};

llvm::Error readChecks(const ConfigReader &Reader, GateConfig &Config) {
  llvm::Expected<std::vector<std::string>> Checks = Reader.strings("checks");
  if (!Checks)
    return Checks.takeError();
  Config.RunAudit = Config.RunRuleTests = false;
  for (const std::string &Check : *Checks) {
    if (Check == "audit")
      Config.RunAudit = true;
    else if (Check == "rules-test")
      Config.RunRuleTests = true;
    else if (Check == "review")
      Config.RunReview = true;
    else
      return Reader.error("checks",
                          "unknown check '" + Check + "'; expected audit, review or rules-test");
  }
  return llvm::Error::success();
}

llvm::Error readKey(const ConfigReader &Reader, const std::string &Key, GateConfig &Config) {
  auto SetString = [&](std::string &Field) -> llvm::Error {
    llvm::Expected<std::string> S = Reader.string(Key);
    if (!S)
      return S.takeError();
    Field = *S;
    return llvm::Error::success();
  };
  if (Key == "profile")
    return SetString(Config.Profile);
  if (Key == "baseline")
    return SetString(Config.Baseline);
  if (Key == "sarif")
    return SetString(Config.Sarif);
  if (Key == "junit")
    return SetString(Config.JUnit);
  if (Key == "checks")
    return readChecks(Reader, Config);
  if (Key == "rules") {
    llvm::Expected<std::vector<std::string>> Rules = Reader.strings(Key);
    if (!Rules)
      return Rules.takeError();
    Config.Rules = *Rules;
    return llvm::Error::success();
  }
  if (Key == "exclude") {
    llvm::Expected<std::vector<std::string>> Globs = Reader.strings(Key);
    if (!Globs)
      return Globs.takeError();
    for (const std::string &Glob : *Globs)
      if (llvm::Expected<PathGlob> G = PathGlob::create(Glob); !G)
        return Reader.error(Key, "bad glob '" + Glob + "': " + llvm::toString(G.takeError()));
    Config.Exclude = *Globs;
    return llvm::Error::success();
  }
  if (Key == "fail-on") {
    std::string Text;
    if (llvm::Error E = SetString(Text))
      return E;
    std::optional<Severity> S = parseSeverity(Text);
    if (!S)
      return Reader.error(Key, "'fail-on' must be error, warning or note, not '" + Text + "'");
    Config.FailOn = *S;
    return llvm::Error::success();
  }
  if (Key == "review")
    return Reader.review(Config);
  return Reader.error(Key, "unknown key '" + Key +
                               "'; expected one of: baseline, checks, exclude, fail-on, junit, "
                               "profile, review, rules, sarif");
}

} // namespace

std::string pathUnderRoot(const std::string &Root, const std::string &Path) {
  if (llvm::sys::path::is_absolute(Path))
    return Path;
  llvm::SmallString<256> Joined(Root);
  llvm::sys::path::append(Joined, Path);
  return std::string(Joined);
}

llvm::Expected<std::string> reportPathUnderRoot(const std::string &Root, const std::string &Path,
                                                llvm::StringRef Key) {
  auto Refuse = [&](llvm::StringRef Why) {
    return inputError(".opmig.yaml: ", Key.str(), ": '", Path, "' ", Why.str(),
                      "; name a path inside the repository, or pass --", Key.str(),
                      " to write elsewhere");
  };
  llvm::SmallString<256> Clean(Path);
  llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  llvm::StringRef Rel = Clean;
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Refuse("is not a path relative to the repository");
  if (Rel.empty() || Rel == ".." || Rel.starts_with("../"))
    return Refuse("leaves the repository");
  if (llvm::any_of(Path, [](char C) { return static_cast<unsigned char>(C) < 0x20; }))
    return Refuse("holds a control character");
  // A link inside the repository could still lead out of it.
  llvm::SmallString<256> Prefix(Root);
  for (auto It = llvm::sys::path::begin(Rel), End = llvm::sys::path::end(Rel); It != End; ++It) {
    llvm::sys::path::append(Prefix, *It);
    if (llvm::sys::fs::is_symlink_file(Prefix))
      return Refuse("passes through the symbolic link " + std::string(Prefix));
  }
  return std::string(Prefix);
}

llvm::Expected<GateConfig> parseGateConfig(llvm::StringRef Text, const std::string &Origin) {
  llvm::Expected<LocatedJson> Doc = parseYamlAsJson(Text, Origin);
  if (!Doc)
    return Doc.takeError();
  GateConfig Config;
  if (Doc->Value.is_null())
    return Config; // An empty file: every default.
  if (!Doc->Value.is_object())
    return inputError(Origin, ":1: the gate config must be a mapping");
  ConfigReader Reader(*Doc, Origin);
  for (const auto &Item : Doc->Value.items())
    if (llvm::Error E = readKey(Reader, Item.key(), Config))
      return E;
  return Config;
}

llvm::Expected<GateConfig> readGateConfig(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return inputError("cannot read ", Path, ": ", Buffer.getError().message());
  return parseGateConfig((*Buffer)->getBuffer(), Path);
}

} // namespace opmig::audit
