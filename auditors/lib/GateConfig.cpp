//===- GateConfig.cpp - Reading .opmig.yaml -------------------------------===//
//
// Apart from the gate itself so that the reader, which parses what a pull
// request may edit, can be fuzzed without the checkers behind the gate.
//
//===----------------------------------------------------------------------===//

#include "opmig/audit/Gate.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace opmig::audit {

namespace {

const llvm::StringRef ConfigKeys[] = {"baseline", "checks", "exclude", "fail-on", "junit",
                                      "profile",  "review", "rules",   "sarif",   "validate"};

/// `domains: auto | [names]` of `Section` (`review`, `validate`) into
/// `Domains` (empty: auto).
llvm::Error readDomains(const ConfigNode &Section, llvm::StringRef Name,
                        std::vector<std::string> &Domains) {
  if (!Section.has("domains"))
    return llvm::Error::success();
  ConfigNode Node = Section.member("domains");
  const nlohmann::json &D = Node.json();
  if (D.is_string() && D.get<std::string>() == "auto") {
    Domains.clear();
    return llvm::Error::success();
  }
  llvm::Expected<std::vector<std::string>> Names = Node.strings();
  if (!Names) {
    llvm::consumeError(Names.takeError());
    return Node.error("'" + Name.str() + ".domains' must be auto or a list of domain names");
  }
  Domains = std::move(*Names);
  return llvm::Error::success();
}

/// `review: {domains: auto | [names], compile-check: true | false,
/// validation: [reports]}`.
llvm::Error readReview(const ConfigNode &Review, GateConfig &Config) {
  if (llvm::Error E = Review.expectMapping())
    return E;
  if (llvm::Error E = Review.allowKeys({"domains", "compile-check", "validation"}))
    return E;
  if (llvm::Error E = Review.readBool("compile-check", Config.ReviewCompileCheck))
    return E;
  if (llvm::Error E = Review.readStrings("validation", Config.ReviewValidation))
    return E;
  return readDomains(Review, "review", Config.ReviewDomains);
}

/// `validate: {domains: auto | [names], layers: [names]}`; the layer names
/// are checked by validate itself, which knows them.
llvm::Error readValidate(const ConfigNode &Validate, GateConfig &Config) {
  if (llvm::Error E = Validate.expectMapping())
    return E;
  if (llvm::Error E = Validate.allowKeys({"domains", "layers"}))
    return E;
  if (llvm::Error E = Validate.readStrings("layers", Config.ValidateLayers))
    return E;
  return readDomains(Validate, "validate", Config.ValidateDomains);
}

llvm::Error readChecks(const ConfigNode &Checks, GateConfig &Config) {
  llvm::Expected<std::vector<std::string>> Names = Checks.strings();
  if (!Names)
    return Names.takeError();
  Config.RunAudit = Config.RunRuleTests = false;
  for (size_t I = 0; I < Names->size(); ++I) {
    const std::string &Check = (*Names)[I];
    if (Check == "audit")
      Config.RunAudit = true;
    else if (Check == "rules-test")
      Config.RunRuleTests = true;
    else if (Check == "review")
      Config.RunReview = true;
    else if (Check == "validate")
      Config.RunValidate = true;
    else
      return Checks.element(I).error("unknown check '" + Check +
                                     "'; expected audit, review, rules-test or validate");
  }
  return llvm::Error::success();
}

llvm::Error readExclude(const ConfigNode &Exclude, GateConfig &Config) {
  llvm::Expected<std::vector<std::string>> Globs = Exclude.strings();
  if (!Globs)
    return Globs.takeError();
  for (size_t I = 0; I < Globs->size(); ++I)
    if (llvm::Expected<PathGlob> G = PathGlob::create((*Globs)[I]); !G)
      return Exclude.element(I).error("bad glob '" + (*Globs)[I] +
                                      "': " + llvm::toString(G.takeError()));
  Config.Exclude = std::move(*Globs);
  return llvm::Error::success();
}

llvm::Error readFailOn(const ConfigNode &FailOn, GateConfig &Config) {
  llvm::Expected<std::string> Text = FailOn.string();
  if (!Text)
    return Text.takeError();
  std::optional<Severity> S = parseSeverity(*Text);
  if (!S)
    return FailOn.error("'fail-on' must be error, warning or note, not '" + *Text + "'");
  Config.FailOn = *S;
  return llvm::Error::success();
}

llvm::Error readConfig(const ConfigNode &Top, GateConfig &Config) {
  if (llvm::Error E = Top.allowKeys(ConfigKeys))
    return E;
  for (auto [Key, Field] : {std::pair{"profile", &Config.Profile},
                            {"baseline", &Config.Baseline},
                            {"sarif", &Config.Sarif},
                            {"junit", &Config.JUnit}})
    if (llvm::Error E = Top.readString(Key, *Field))
      return E;
  if (llvm::Error E = Top.readStrings("rules", Config.Rules))
    return E;
  if (Top.has("checks"))
    if (llvm::Error E = readChecks(Top.member("checks"), Config))
      return E;
  if (Top.has("exclude"))
    if (llvm::Error E = readExclude(Top.member("exclude"), Config))
      return E;
  if (Top.has("fail-on"))
    if (llvm::Error E = readFailOn(Top.member("fail-on"), Config))
      return E;
  if (Top.has("review"))
    if (llvm::Error E = readReview(Top.member("review"), Config))
      return E;
  if (Top.has("validate"))
    return readValidate(Top.member("validate"), Config);
  return llvm::Error::success();
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
                      "; name a path inside the repository");
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
  llvm::Expected<ConfigDocument> Doc = parseConfig(Text, ConfigSyntax::Yaml, Origin, "gate config");
  if (!Doc)
    return Doc.takeError();
  GateConfig Config;
  ConfigNode Top = Doc->root();
  if (Top.json().is_null())
    return Config; // An empty file: every default.
  if (llvm::Error E = Top.expectMapping())
    return E;
  if (llvm::Error E = readConfig(Top, Config))
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
