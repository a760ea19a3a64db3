//===- PythonChecker.cpp - `python` rules on CPython's parse tree ---------===//
//
// All python rules of an audit are one run of the helper (PythonAstBridge.h).
// Checks whose rule holds a regex get candidates back and apply the regex
// here, in the rule regex dialect (RegexSyntax.h), so that `^_fake_\w+$`
// means the same in a python rule as in a text rule.
//
// Captures for `message` and `fix`:
//   call-string-argument     {call} {argument} {namespace} {op}
//   decorator-argument       {decorator} {argument} {name} {namespace} {op}
//   decorated-function-name  {name} {decorator} {namespace} {op}
//   all-equals-public-names  {name} {problem}
//   no-partial-alias         {name}
//   public-wrapper-calls     {name} {expected} {bridge} {problem}
//   forbidden-names          {name} {kind} {pattern}
//   guarded-import           {module} {guard} {function}
//   function-pointer-pattern {name} {pointer} {missing}
//   exported-in              {name} {package} {file} {problem}
//   registered-in            {name} {package} {patch} {function} {file} {registries}
//   module-state             {name}
//   section-order            {name} {kind} {after} {section}
//   required-names           {name} {domain} {file}
//   all-lists-public-functions {name} {problem}
//   no-calls-in              {function} {call} {pattern}
//   defines-have-fakes       {qualname} {namespace} {op} {fake}
//   value-follows-file       {name} {value} {stem}
//   imports-every-package    {name} {package} {file}
//   forbidden-import         {module} {pattern} {function}
//   raises-with-message      {function} {exception}
//   asserted-names           {name}
//   extension-sources        {file} {dir} {extension} {host} {others}
//
//===----------------------------------------------------------------------===//

#include "CheckParams.h"
#include "CheckerSupport.h"
#include "Checkers.h"
#include "MatchParams.h"
#include "PythonAstBridge.h"
#include "PythonParams.h"
#include "RequiredNames.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <optional>
#include <set>

namespace opmig::audit {

namespace {

const std::vector<CheckSpec> &pythonChecks() {
  static const std::vector<CheckSpec> Checks = {
      {"all-equals-public-names", {}},
      {"all-lists-public-functions", {}},
      {"asserted-names", {{"names", ParamType::StringList, true}}},
      {"call-string-argument",
       {{"call", ParamType::String, true},
        {"argument", ParamType::Integer, false},
        {"keyword", ParamType::String, false},
        {"must-match", ParamType::Regex, true}}},
      {"decorated-function-name",
       {{"decorator", ParamType::String, true}, {"name", ParamType::Regex, true, "op"}}},
      {"decorator-argument",
       {{"decorator", ParamType::String, true},
        {"argument", ParamType::Integer, false},
        {"keyword", ParamType::String, false},
        {"must-equal", ParamType::String, true}}},
      {"defines-have-fakes",
       {{"define", ParamType::String, false}, {"fake", ParamType::String, false}}},
      {"exported-in", {{"file", ParamType::String, true}}},
      {"extension-sources",
       {{"root", ParamType::String, true}, {"extensions", ParamType::StringList, false}}},
      {"forbidden-import", {{"modules", ParamType::RegexList, true}}},
      {"forbidden-names", {{"names", ParamType::RegexList, true}}},
      {"function-pointer-pattern", {{"raises", ParamType::String, false}}},
      {"guarded-import",
       {{"module", ParamType::Regex, true},
        {"guard", ParamType::String, true},
        {"guard-names", ParamType::StringList, false},
        {"guard-device-type", ParamType::String, false}}},
      {"imports-every-package", {{"file", ParamType::String, true}}},
      {"module-state", {{"allow", ParamType::RegexList, false}}},
      {"no-calls-in",
       {{"functions", ParamType::Regex, true}, {"calls", ParamType::RegexList, true}}},
      {"no-partial-alias", {}},
      {"public-wrapper-calls", {{"prefix", ParamType::String, true}}},
      {"raises-with-message",
       {{"function", ParamType::String, true},
        {"exception", ParamType::String, true},
        {"message", ParamType::Regex, true}}},
      {"registered-in",
       {{"function", ParamType::String, false},
        {"file", ParamType::String, false},
        {"registries", ParamType::StringList, false},
        {"registers", ParamType::String, false}}},
      {"required-names",
       {{"names", ParamType::StringList, true},
        {"domains", ParamType::String, false},
        {"domain-map", ParamType::StringList, false},
        {"file-domain", ParamType::Regex, false}}},
      {"section-order", {{"order", ParamType::RegexList, true}}},
      {"value-follows-file",
       {{"name", ParamType::String, true}, {"must-match", ParamType::Regex, true, "stem"}}},
  };
  return Checks;
}

bool isPythonFile(llvm::StringRef Path) {
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  return Extension == ".py" || Extension == ".pyi";
}

/// The files of one audit the helper reads, numbered for the request.
class FileTable {
public:
  FileTable(std::string Root) : Root(std::move(Root)) {}

  size_t indexOf(const std::string &File) {
    auto [It, Inserted] = Indices.try_emplace(File, Relative.size());
    if (Inserted) {
      Relative.push_back(File);
      Absolute.push_back(Root + "/" + File);
    }
    return It->second;
  }
  const std::string &relative(size_t Index) const { return Relative.at(Index); }
  const std::vector<std::string> &absolute() const { return Absolute; }

private:
  std::string Root;
  std::map<std::string, size_t> Indices;
  std::vector<std::string> Relative, Absolute;
};

/// registered-in's registries, each with the index of its file when the
/// file exists (a missing one registers nothing).
void addRegistries(const Rule &R, const Repository &Repo, FileTable &Files,
                   nlohmann::json &Params) {
  std::vector<Registry> Registries = registriesOf(R);
  if (Repo.exists(Registries.front().File))
    Params["file_index"] = Files.indexOf(Registries.front().File);
  if (!R.Match.contains("registries"))
    return;
  nlohmann::json List = nlohmann::json::array();
  for (const Registry &Entry : Registries) {
    nlohmann::json Item = {{"file", Entry.File}, {"function", Entry.Function}};
    if (Repo.exists(Entry.File))
      Item["file_index"] = Files.indexOf(Entry.File);
    List.push_back(std::move(Item));
  }
  Params["registries"] = std::move(List);
}

/// What the helper reads of a rule's `match`: everything but regexes.
nlohmann::json paramsFor(const Rule &R, const Repository &Repo, FileTable &Files) {
  nlohmann::json Params = nlohmann::json::object();
  for (const char *Key :
       {"call", "decorator", "keyword", "prefix", "guard", "guard-device-type", "function", "file",
        "raises", "registers", "define", "fake", "name", "exception", "root"})
    if (std::string Value = stringParam(R, Key); !Value.empty())
      Params[Key] = Value;
  Params["argument"] = integerParam(R, "argument");
  Params["guard-names"] = listParam(R, "guard-names");
  // Checks that read a second file (the registry) get it in the request.
  std::string Check = checkName(R);
  if ((Check == "exported-in" || Check == "imports-every-package") &&
      Repo.exists(stringParam(R, "file")))
    Params["file_index"] = Files.indexOf(stringParam(R, "file"));
  if (Check == "registered-in")
    addRegistries(R, Repo, Files, Params);
  if (Check == "asserted-names")
    Params["names"] = listParam(R, "names");
  if (Check == "extension-sources")
    Params["extensions"] = listParam(R, "extensions");
  return Params;
}

/// Rule regexes compiled once per pattern: a check may filter thousands of
/// candidates (every top-level name of every file).
class RegexCache {
public:
  bool match(const std::string &Pattern, llvm::StringRef Text) {
    auto It = Compiled.find(Pattern);
    if (It == Compiled.end())
      It = Compiled.emplace(Pattern, compileRegex(Pattern)).first;
    return It->second.match(Text);
  }

  /// The first of `Patterns` that matches `Text`.
  std::optional<std::string> firstMatch(const std::vector<std::string> &Patterns,
                                        llvm::StringRef Text) {
    for (const std::string &Pattern : Patterns)
      if (match(Pattern, Text))
        return Pattern;
    return std::nullopt;
  }

private:
  std::map<std::string, llvm::Regex> Compiled;
};

/// value-follows-file's `{stem}`: the file name without its extension and
/// leading underscores (`_attn.py` -> `attn`).
std::string fileStem(llvm::StringRef File) { return llvm::sys::path::stem(File).ltrim('_').str(); }

/// Loader caches, dunders and ALL_CAPS constants are the module-level
/// state the cache-dit conventions allow.
bool isAllowedModuleState(const std::string &Name) {
  static const llvm::Regex Allowed(
      "^(_cached_.*|_EXTENSION_MODULE_NAME|__[a-z_]+__|_*[A-Z][A-Z0-9_]*)$");
  return Allowed.match(Name);
}

/// raises-with-message: whether one of the `<exception>\t<text>` lines the
/// helper found raises the rule's exception with a matching message.
bool raisesWithMessage(const Rule &R, llvm::StringRef Raises, RegexCache &Regexes) {
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Raises.split(Lines, '\n', -1, false);
  return llvm::any_of(Lines, [&](llvm::StringRef Line) {
    auto [Exception, Text] = Line.split('\t');
    return Exception == stringParam(R, "exception") &&
           Regexes.match(stringParam(R, "message"), Text);
  });
}

/// Whether a candidate record of `R`'s check is a finding; may add
/// captures. Checks without a regex return findings only.
bool isFinding(const Rule &R, PythonRecord &Record, RegexCache &Regexes) {
  std::map<std::string, std::string> &Captures = Record.Captures;
  std::string Check = checkName(R);
  if (Check == "call-string-argument")
    return !Regexes.match(stringParam(R, "must-match"), Captures["argument"]);
  if (Check == "decorator-argument")
    return Captures["argument"] != stringParam(R, "must-equal");
  if (Check == "decorated-function-name") {
    // `def _` is anonymous whatever the op; without a known op the name
    // pattern cannot be instantiated.
    if (Captures["name"] == "_")
      return true;
    if (!Captures.count("op"))
      return false;
    std::string Pattern =
        substitute(stringParam(R, "name"), "op", llvm::Regex::escape(Captures["op"]));
    return !Regexes.match(Pattern, Captures["name"]);
  }
  if (Check == "forbidden-names") {
    std::optional<std::string> Pattern =
        Regexes.firstMatch(listParam(R, "names"), Captures["name"]);
    if (Pattern)
      Captures["pattern"] = *Pattern;
    return Pattern.has_value();
  }
  if (Check == "guarded-import")
    return Regexes.match(stringParam(R, "module"), Captures["module"]);
  if (Check == "forbidden-import") {
    std::optional<std::string> Pattern =
        Regexes.firstMatch(listParam(R, "modules"), Captures["module"]);
    if (Pattern)
      Captures["pattern"] = *Pattern;
    return Pattern.has_value();
  }
  if (Check == "no-calls-in") {
    if (!Regexes.match(stringParam(R, "functions"), Captures["function"]))
      return false;
    std::optional<std::string> Pattern =
        Regexes.firstMatch(listParam(R, "calls"), Captures["call"]);
    if (Pattern)
      Captures["pattern"] = *Pattern;
    return Pattern.has_value();
  }
  if (Check == "raises-with-message")
    return !raisesWithMessage(R, Captures["raises"], Regexes);
  if (Check == "value-follows-file")
    return !Regexes.match(
        substitute(stringParam(R, "must-match"), "stem", llvm::Regex::escape(Captures["stem"])),
        Captures["value"]);
  if (Check == "module-state")
    return !isAllowedModuleState(Captures["name"]) &&
           !Regexes.firstMatch(listParam(R, "allow"), Captures["name"]).has_value();
  return true;
}

/// section-order: each item takes the first `order` regex matching one of
/// its keys; an item whose section comes before one already seen in the
/// file is out of order.
std::vector<PythonRecord> outOfOrder(const Rule &R, std::vector<PythonRecord> Records) {
  std::vector<std::string> Order = listParam(R, "order");
  std::vector<llvm::Regex> Sections;
  for (const std::string &Pattern : Order)
    Sections.push_back(compileRegex(Pattern));
  std::vector<PythonRecord> Found;
  std::map<size_t, std::pair<size_t, std::string>> Latest; // file -> (section, item)
  for (PythonRecord &Record : Records) {
    size_t Section = 0;
    while (Section < Sections.size() &&
           llvm::none_of(
               Record.Keys, [&](const std::string &Key) { return Sections[Section].match(Key); }))
      ++Section;
    if (Section == Sections.size())
      continue;
    auto [It, First] = Latest.try_emplace(Record.File, Section, Record.Captures["name"]);
    if (First || Section >= It->second.first) {
      It->second = {Section, Record.Captures["name"]};
      continue;
    }
    Record.Captures["after"] = It->second.second;
    Record.Captures["section"] = Order[Section];
    Found.push_back(std::move(Record));
  }
  return Found;
}

class PythonChecker : public Checker {
public:
  const char *kind() const override { return "python"; }

  llvm::Error validate(const Rule &R) const override {
    if (llvm::Error E = validateMatch(R, pythonChecks()).takeError())
      return E;
    return validatePythonParams(R);
  }

  llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                    std::vector<Finding> &Out) const override {
    llvm::Expected<std::string> Root = absoluteRoot(Repo);
    if (!Root)
      return Root.takeError();
    FileTable Files(*Root);
    std::vector<PythonTask> Tasks;
    std::vector<const Rule *> TaskRules;
    for (const Rule *R : Rules) {
      PythonTask Task{R->Id, checkName(*R), nlohmann::json(), {}};
      for (const std::string &File : Repo.files())
        if (isPythonFile(File) && appliesTo(*R, File))
          Task.Files.push_back(Files.indexOf(File));
      if (Task.Files.empty())
        continue;
      Task.Params = paramsFor(*R, Repo, Files);
      Tasks.push_back(std::move(Task));
      TaskRules.push_back(R);
    }
    // No python3 is needed when no python rule covers a file.
    if (Tasks.empty())
      return llvm::Error::success();
    llvm::Expected<PythonAnswer> Answer = runPythonChecks(Files.absolute(), Tasks);
    if (!Answer)
      return Answer.takeError();
    for (size_t I = 0; I < Tasks.size(); ++I)
      report(*TaskRules[I], Repo, std::move(Answer->Records[I]), Files, Out);
    for (const PythonUnparsable &Failed : Answer->Unparsable)
      Out.push_back(unparsableFinding(Files.relative(Failed.File), Failed.Line, Failed.Column,
                                      "cannot parse as Python: " + Failed.Message));
    return llvm::Error::success();
  }

private:
  static void report(const Rule &R, const Repository &Repo, std::vector<PythonRecord> Records,
                     const FileTable &Files, std::vector<Finding> &Out) {
    std::string Check = checkName(R);
    if (Check == "section-order")
      Records = outOfOrder(R, std::move(Records));
    if (Check == "required-names") {
      for (const PythonRecord &Record : Records)
        llvm::append_range(Out, missingNames(R, Repo, Files.relative(Record.File), Record));
      return;
    }
    RegexCache Regexes;
    std::set<std::pair<size_t, std::string>> Statements; // forbidden-import: one per import
    for (PythonRecord &Record : Records) {
      if (Check == "value-follows-file")
        Record.Captures["stem"] = fileStem(Files.relative(Record.File));
      if (Check == "forbidden-import" &&
          Statements.count({Record.File, Record.Captures["statement"]}))
        continue;
      if (!isFinding(R, Record, Regexes))
        continue;
      if (Check == "forbidden-import")
        Statements.insert({Record.File, Record.Captures["statement"]});
      Out.push_back(
          makeFinding(R, Files.relative(Record.File), Record.Line, Record.Column, Record.Captures));
    }
  }
};

} // namespace

std::unique_ptr<Checker> makePythonChecker() { return std::make_unique<PythonChecker>(); }

} // namespace opmig::audit
