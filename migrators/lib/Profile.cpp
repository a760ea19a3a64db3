//===- Profile.cpp - A target repository's conventions, as data -----------===//
//
// The loader checks everything a profile says before any migration starts:
// types, unknown keys (a typo must not pass silently), anchors, template
// syntax and files. Every problem is reported as `profile.json:line: problem`;
// nlohmann keeps no positions, so JsonLocations finds the lines.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/Profile.h"

#include "JsonLocations.h"
#include "TemplateSyntax.h"
#include "nlohmann/json.hpp"
#include "opmig/support/BlockMarkers.h"
#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace opmig::migrate {

using nlohmann::json;
namespace fs = llvm::sys::fs;

namespace {

constexpr llvm::StringLiteral SchemaId = "opmig.profile/1";

/// Anchors whose block can stand alone as a new file's whole content.
constexpr llvm::StringLiteral StandaloneAnchors[] = {"end", "python:after-imports",
                                                     "python:before-def", "python:before-call"};

/// A place in profile.json: a JSON pointer, to find the line, and the path
/// shown in messages (`edits[1].id`).
struct Where {
  std::string Pointer;
  std::string Display;

  Where member(llvm::StringRef Key) const {
    return {Pointer + "/" + JsonLocations::escape(Key),
            Display.empty() ? Key.str() : Display + "." + Key.str()};
  }
  Where element(size_t Index) const {
    return {Pointer + "/" + std::to_string(Index), Display + "[" + std::to_string(Index) + "]"};
  }
};

bool isKebabCase(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef> Words;
  Text.split(Words, '-');
  return llvm::all_of(Words, [](llvm::StringRef Word) {
    return !Word.empty() &&
           llvm::all_of(Word, [](char C) { return llvm::isLower(C) || llvm::isDigit(C); });
  });
}

/// A name a python anchor matches: an identifier, or a shell-style pattern
/// of one (`_get_*_extension`).
bool isPythonNamePattern(llvm::StringRef Name) {
  return !Name.empty() && !llvm::isDigit(Name.front()) && llvm::all_of(Name, [](char C) {
    return llvm::isAlnum(C) || llvm::is_contained("_*?", C);
  });
}

/// Why `Anchor` is not valid for an edit of `Path` (a path template), or "".
std::string anchorProblem(llvm::StringRef Anchor, llvm::StringRef Path) {
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  if (Anchor == "end")
    return "";
  if (Anchor.consume_front("markdown:table:")) {
    if (Anchor.trim().empty())
      return "'markdown:table:' needs a heading";
    return Extension == ".md" ? "" : "markdown anchors need a .md file";
  }
  if (!Anchor.consume_front("python:"))
    return "unknown anchor kind";
  auto [Kind, Name] = Anchor.split(':');
  bool Named = llvm::is_contained({"list", "function-list", "function-end", "before-def",
                                   "before-call", "call-end", "collection"},
                                  Kind);
  bool Text = Kind == "list-with";
  if (Kind == "after-imports" ? Anchor.contains(':') : !Named && !Text)
    return "unknown python anchor";
  if (Named && !isPythonNamePattern(Name))
    return "'python:" + Kind.str() + ":' needs a Python name or a pattern of one";
  if (Text && Name.empty())
    return "'python:list-with:' needs a text pattern";
  return Extension == ".py" ? "" : "python anchors need a .py file";
}

constexpr llvm::StringLiteral KnownAnchors =
    " (anchors: end, python:after-imports, python:list:NAME, python:function-list:FUNC, "
    "python:function-end:FUNC, python:before-def:NAME, python:before-call:NAME, "
    "python:call-end:NAME, python:collection:NAME, python:list-with:TEXT, "
    "markdown:table:HEADING)";

/// Reads one profile.json that has parsed as JSON.
class ProfileReader {
public:
  ProfileReader(std::string File, std::string Folder, llvm::StringRef Text)
      : File(std::move(File)), Folder(std::move(Folder)), Locations(Text) {}

  llvm::Expected<Profile> read(const json &Root) {
    if (auto Duplicate = Locations.duplicateKey())
      return problemAt(Duplicate->second, llvm::Twine("key '") + lastComponent(Duplicate->first) +
                                              "' appears twice in one object");
    Where Top;
    if (!Root.is_object())
      return problem(Top, "a profile is a JSON object");
    if (llvm::Error E = checkKeys(Root, Top,
                                  {"schema", "name", "spec", "description", "native_dir",
                                   "namespace", "op_namespace", "extension", "includes",
                                   "wrap_global_namespace", "provenance_comment", "third_party_dir",
                                   "required_target_files", "files", "edits"},
                                  {"schema", "name", "native_dir", "namespace", "op_namespace",
                                   "includes", "provenance_comment"}))
      return E;
    Profile P;
    P.Folder = Folder;
    std::string Schema;
    if (llvm::Error E = getString(Root, Top, "schema", Schema))
      return E;
    if (Schema != SchemaId)
      return problem(Top.member("schema"), llvm::Twine("unsupported schema '") + Schema +
                                               "' (expected '" + SchemaId.str() + "')");
    if (llvm::Error E = readScalars(Root, Top, P))
      return E;
    if (llvm::Error E = readSpec(Root, Top, P))
      return E;
    if (llvm::Error E = readIncludes(Root, Top, P))
      return E;
    if (llvm::Error E = readRequiredFiles(Root, Top, P))
      return E;
    if (llvm::Error E = readFiles(Root, Top, P))
      return E;
    if (llvm::Error E = readEdits(Root, Top, P))
      return E;
    return P;
  }

private:
  std::string File;
  std::string Folder;
  JsonLocations Locations;

  static std::string lastComponent(llvm::StringRef Pointer) {
    return Pointer.rsplit('/').second.str();
  }

  // Messages are Twines: GCC 12 warns falsely (-Wrestrict) on some
  // `"literal" + std::string` chains in Release builds.
  llvm::Error problemAt(unsigned Line, const llvm::Twine &Message) const {
    return inputError(File, ":", std::to_string(Line), ": ", Message.str());
  }

  llvm::Error problem(const Where &W, const llvm::Twine &Message) const {
    return problemAt(Locations.lineOf(W.Pointer), Message);
  }

  /// Rejects keys not in `Known` (the first in the file) and reports the
  /// first of `Required` that is missing.
  llvm::Error checkKeys(const json &Object, const Where &W,
                        std::initializer_list<llvm::StringRef> Known,
                        std::initializer_list<llvm::StringRef> Required) const {
    std::optional<Where> FirstUnknown;
    for (const auto &[Key, Value] : Object.items()) {
      Where Member = W.member(Key);
      if (!llvm::is_contained(Known, Key) &&
          (!FirstUnknown ||
           Locations.lineOf(Member.Pointer) < Locations.lineOf(FirstUnknown->Pointer)))
        FirstUnknown = Member;
    }
    std::string Context = W.Display.empty() ? "" : " in " + W.Display;
    if (FirstUnknown)
      return problem(*FirstUnknown,
                     llvm::Twine("unknown key '") + lastComponent(FirstUnknown->Pointer) + "'" +
                         Context + " (known keys: " + llvm::join(Known.begin(), Known.end(), ", ") +
                         ")");
    for (llvm::StringRef Key : Required)
      if (!Object.contains(Key.str()))
        return problem(W, llvm::Twine("missing key '") + Key + "'" + Context);
    return llvm::Error::success();
  }

  /// Sets `Out` to the string at `Key`; leaves it when the key is absent.
  llvm::Error getString(const json &Object, const Where &W, llvm::StringRef Key,
                        std::string &Out) const {
    if (!Object.contains(Key.str()))
      return llvm::Error::success();
    const json &Value = Object[Key.str()];
    Where Member = W.member(Key);
    if (!Value.is_string())
      return problem(Member, llvm::Twine("'") + Member.Display + "' must be a string");
    Out = Value.get<std::string>();
    return llvm::Error::success();
  }

  /// As getString, for a string that is a template.
  llvm::Error getTemplate(const json &Object, const Where &W, llvm::StringRef Key,
                          std::string &Out) const {
    if (llvm::Error E = getString(Object, W, Key, Out))
      return E;
    Where Member = W.member(Key);
    if (auto Problem = checkTemplateSyntax(Out))
      return problem(Member, llvm::Twine("'") + Member.Display + "': " + Problem->Message);
    return llvm::Error::success();
  }

  llvm::Error getBool(const json &Object, const Where &W, llvm::StringRef Key, bool &Out) const {
    if (!Object.contains(Key.str()))
      return llvm::Error::success();
    const json &Value = Object[Key.str()];
    Where Member = W.member(Key);
    if (!Value.is_boolean())
      return problem(Member, llvm::Twine("'") + Member.Display + "' must be true or false");
    Out = Value.get<bool>();
    return llvm::Error::success();
  }

  /// The array at `Key`, or null when absent.
  llvm::Expected<const json *> getArray(const json &Object, const Where &W,
                                        llvm::StringRef Key) const {
    if (!Object.contains(Key.str()))
      return nullptr;
    const json &Value = Object[Key.str()];
    Where Member = W.member(Key);
    if (!Value.is_array())
      return problem(Member, llvm::Twine("'") + Member.Display + "' must be a list");
    return &Value;
  }

  llvm::Error checkObject(const json &Value, const Where &W) const {
    if (Value.is_object())
      return llvm::Error::success();
    return problem(W, llvm::Twine("'") + W.Display + "' must be an object");
  }

  llvm::Error readScalars(const json &Root, const Where &Top, Profile &P) const {
    if (llvm::Error E = getString(Root, Top, "name", P.Name))
      return E;
    if (!isKebabCase(P.Name))
      return problem(Top.member("name"),
                     llvm::Twine("'name': '") + P.Name + "' must be kebab-case (a-z, 0-9, '-')");
    std::pair<llvm::StringRef, std::string *> Templates[] = {
        {"native_dir", &P.NativeDir},
        {"namespace", &P.Namespace},
        {"op_namespace", &P.OpNamespace},
        {"extension", &P.Extension},
        {"provenance_comment", &P.ProvenanceComment},
        {"third_party_dir", &P.ThirdPartyDir}};
    for (auto [Key, Out] : Templates)
      if (llvm::Error E = getTemplate(Root, Top, Key, *Out))
        return E;
    if (llvm::Error E = getString(Root, Top, "description", P.Description))
      return E;
    return getBool(Root, Top, "wrap_global_namespace", P.WrapGlobalNamespace);
  }

  /// `spec` is required: a profile copied under another name must keep
  /// the validation layers its convention requires, so a review never
  /// guesses them from the name.
  llvm::Error readSpec(const json &Root, const Where &Top, Profile &P) const {
    if (!Root.contains("spec"))
      return problem(Top, "missing key 'spec': add the spec convention the profile follows, "
                          "e.g. \"spec\": \"cache-dit\" (the specs are listed under `specs:` "
                          "in rules/review/validation-layers.yaml); it decides which validation "
                          "layers opmig review requires");
    if (llvm::Error E = getString(Root, Top, "spec", P.Spec))
      return E;
    if (!isKebabCase(P.Spec))
      return problem(Top.member("spec"),
                     llvm::Twine("'spec': '") + P.Spec + "' must be kebab-case (a-z, 0-9, '-')");
    return llvm::Error::success();
  }

  llvm::Error readIncludes(const json &Root, const Where &Top, Profile &P) const {
    Where W = Top.member("includes");
    const json &Includes = Root["includes"];
    if (llvm::Error E = checkObject(Includes, W))
      return E;
    if (llvm::Error E = checkKeys(Includes, W, {"style", "root"}, {"style"}))
      return E;
    std::string Style;
    if (llvm::Error E = getString(Includes, W, "style", Style))
      return E;
    if (Style != "relative-to-root" && Style != "relative-to-file")
      return problem(W.member("style"), llvm::Twine("'includes.style': '") + Style +
                                            "' is neither 'relative-to-root' nor "
                                            "'relative-to-file'");
    P.Includes =
        Style == "relative-to-root" ? IncludeStyle::RelativeToRoot : IncludeStyle::RelativeToFile;
    if (P.Includes == IncludeStyle::RelativeToRoot && !Includes.contains("root"))
      return problem(W, "'includes' needs a 'root' for style 'relative-to-root'");
    return getTemplate(Includes, W, "root", P.IncludeRoot);
  }

  /// Each entry is a path, or `{"path": ..., "bootstrap": TEMPLATE}`.
  llvm::Error readRequiredFiles(const json &Root, const Where &Top, Profile &P) const {
    llvm::Expected<const json *> Entries = getArray(Root, Top, "required_target_files");
    if (!Entries || !*Entries)
      return Entries.takeError();
    for (size_t I = 0; I < (*Entries)->size(); ++I) {
      const json &Entry = (**Entries)[I];
      Where W = Top.member("required_target_files").element(I);
      RequiredFile Required;
      llvm::Error E = llvm::Error::success();
      if (Entry.is_string()) {
        Required.Path = Entry.get<std::string>();
      } else {
        E = checkObject(Entry, W);
        if (!E)
          E = checkKeys(Entry, W, {"path", "bootstrap"}, {"path"});
        if (!E)
          E = getString(Entry, W, "path", Required.Path);
        if (!E)
          E = getString(Entry, W, "bootstrap", Required.Bootstrap);
        if (!E && !Required.Bootstrap.empty())
          E = checkTemplateFile(Required.Bootstrap, W.member("bootstrap"));
      }
      if (E)
        return E;
      if (!isContainedRelativePath(Required.Path))
        return problem(W, llvm::Twine("'") + W.Display +
                              "' must be a relative path inside the target");
      P.RequiredTargetFiles.push_back(std::move(Required));
    }
    return llvm::Error::success();
  }

  /// The template at `W` exists inside the profile folder and parses.
  llvm::Error checkTemplateFile(const std::string &Relative, const Where &W) const {
    if (!isContainedRelativePath(Relative))
      return problem(W, llvm::Twine("'") + W.Display + "': '" + Relative +
                            "' must be a relative path inside the profile folder");
    llvm::SmallString<256> Full(Folder), Real;
    llvm::sys::path::append(Full, Relative);
    if (!fs::is_regular_file(Full))
      return problem(W, llvm::Twine("'") + W.Display + "': no such template file " +
                            std::string(Full));
    if (fs::real_path(Full, Real) || !llvm::StringRef(Real).starts_with(Folder + "/"))
      return problem(W, llvm::Twine("'") + W.Display + "': '" + Relative +
                            "' leads outside the profile folder through a symlink");
    auto Buffer = llvm::MemoryBuffer::getFile(Full);
    if (!Buffer)
      return problem(W, llvm::Twine("'") + W.Display + "': cannot read " + std::string(Full) +
                            ": " + Buffer.getError().message());
    if (auto Problem = checkTemplateSyntax((*Buffer)->getBuffer()))
      return inputError(std::string(Full), ":", std::to_string(Problem->Line), ": ",
                        Problem->Message);
    return llvm::Error::success();
  }

  llvm::Error readFiles(const json &Root, const Where &Top, Profile &P) const {
    llvm::Expected<const json *> Files = getArray(Root, Top, "files");
    if (!Files || !*Files)
      return Files.takeError();
    for (size_t I = 0; I < (*Files)->size(); ++I) {
      const json &Entry = (**Files)[I];
      Where W = Top.member("files").element(I);
      GeneratedFileSpec Spec;
      llvm::Error E = checkObject(Entry, W);
      if (!E)
        E = checkKeys(Entry, W, {"path", "template", "per_op"}, {"path", "template"});
      if (!E)
        E = getTemplate(Entry, W, "path", Spec.Path);
      if (!E)
        E = getString(Entry, W, "template", Spec.Template);
      if (!E)
        E = getBool(Entry, W, "per_op", Spec.PerOp);
      if (!E)
        E = checkTemplateFile(Spec.Template, W.member("template"));
      if (E)
        return E;
      P.Files.push_back(std::move(Spec));
    }
    return llvm::Error::success();
  }

  /// `anchor` is one anchor or a list of them, each valid for `Path`.
  llvm::Error getAnchors(const json &Object, const Where &W, llvm::StringRef Path,
                         std::vector<std::string> &Out) const {
    Where Member = W.member("anchor");
    const json &Value = Object["anchor"];
    if (Value.is_string())
      Out = {Value.get<std::string>()};
    else if (Value.is_array() && !Value.empty() &&
             llvm::all_of(Value, [](const json &A) { return A.is_string(); }))
      Out = Value.get<std::vector<std::string>>();
    else
      return problem(Member, llvm::Twine("'") + Member.Display +
                                 "' must be a string or a non-empty list of strings");
    for (const std::string &Anchor : Out)
      if (std::string Why = anchorProblem(Anchor, Path); !Why.empty())
        return problem(Member, llvm::Twine("'") + Member.Display + "': '" + Anchor + "': " + Why +
                                   KnownAnchors);
    return llvm::Error::success();
  }

  llvm::Error checkEdit(const TargetEditSpec &Spec, const Where &W) const {
    if (!isKebabCase(Spec.Id))
      return problem(W.member("id"), llvm::Twine("'") + W.member("id").Display + "': '" + Spec.Id +
                                         "' must be kebab-case (a-z, 0-9, '-')");
    if (!commentSyntaxFor(Spec.Path))
      return problem(W.member("path"), llvm::Twine("'") + W.member("path").Display +
                                           "': no comment syntax " + "is known for '" + Spec.Path +
                                           "', so its block cannot be marked");
    if (Spec.CreateIfMissing && !llvm::is_contained(StandaloneAnchors, Spec.Anchors.front()))
      return problem(W.member("create_if_missing"),
                     llvm::Twine("'") + W.member("create_if_missing").Display +
                         "': a block at anchor '" + Spec.Anchors.front() +
                         "' cannot stand alone as a new file's content");
    return checkTemplateFile(Spec.Template, W.member("template"));
  }

  llvm::Error readBootstrap(const json &Entry, const Where &W, TargetEditSpec &Spec) const {
    llvm::Expected<const json *> Steps = getArray(Entry, W, "bootstrap");
    if (!Steps || !*Steps)
      return Steps.takeError();
    for (size_t I = 0; I < (*Steps)->size(); ++I) {
      const json &Step = (**Steps)[I];
      Where S = W.member("bootstrap").element(I);
      BootstrapStep Read;
      llvm::Error E = checkObject(Step, S);
      if (!E)
        E = checkKeys(Step, S, {"anchor", "template"}, {"anchor", "template"});
      if (!E)
        E = getAnchors(Step, S, Spec.Path, Read.Anchors);
      if (!E)
        E = getString(Step, S, "template", Read.Template);
      if (!E)
        E = checkTemplateFile(Read.Template, S.member("template"));
      if (E)
        return E;
      Spec.Bootstrap.push_back(std::move(Read));
    }
    return llvm::Error::success();
  }

  llvm::Error readEdits(const json &Root, const Where &Top, Profile &P) const {
    llvm::Expected<const json *> Edits = getArray(Root, Top, "edits");
    if (!Edits || !*Edits)
      return Edits.takeError();
    std::map<std::string, unsigned> IdLines;
    for (size_t I = 0; I < (*Edits)->size(); ++I) {
      const json &Entry = (**Edits)[I];
      Where W = Top.member("edits").element(I);
      TargetEditSpec Spec;
      llvm::Error E = checkObject(Entry, W);
      if (!E)
        E = checkKeys(Entry, W,
                      {"id", "path", "template", "anchor", "create_if_missing", "bootstrap"},
                      {"id", "path", "template", "anchor"});
      if (!E)
        E = getString(Entry, W, "id", Spec.Id);
      if (!E)
        E = getTemplate(Entry, W, "path", Spec.Path);
      if (!E)
        E = getString(Entry, W, "template", Spec.Template);
      if (!E)
        E = getAnchors(Entry, W, Spec.Path, Spec.Anchors);
      if (!E)
        E = getBool(Entry, W, "create_if_missing", Spec.CreateIfMissing);
      if (!E)
        E = checkEdit(Spec, W);
      if (!E)
        E = readBootstrap(Entry, W, Spec);
      if (E)
        return E;
      unsigned Line = Locations.lineOf(W.member("id").Pointer);
      auto [It, New] = IdLines.try_emplace(Spec.Id, Line);
      if (!New)
        return problem(W.member("id"), llvm::Twine("'") + W.member("id").Display + "': id '" +
                                           Spec.Id + "' is used twice (first at line " +
                                           std::to_string(It->second) + ")");
      P.Edits.push_back(std::move(Spec));
    }
    return llvm::Error::success();
  }
};

/// Names of the folders of `BuiltinDir` that hold a profile.json, sorted.
std::vector<std::string> builtinNames(const std::string &BuiltinDir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (fs::directory_iterator It(BuiltinDir, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::SmallString<256> Candidate(It->path());
    llvm::sys::path::append(Candidate, "profile.json");
    if (fs::is_regular_file(Candidate))
      Names.push_back(llvm::sys::path::filename(It->path()).str());
  }
  llvm::sort(Names);
  return Names;
}

/// The profile.json that `NameOrPath` designates.
llvm::Expected<std::string> resolveProfileFile(const std::string &NameOrPath,
                                               const std::string &BuiltinDir) {
  llvm::StringRef Given = NameOrPath;
  llvm::SmallString<256> File;
  if (Given.contains('/') || Given.ends_with(".json")) {
    File = Given;
    fs::make_absolute(File);
    if (fs::is_directory(File))
      llvm::sys::path::append(File, "profile.json");
    if (!fs::is_regular_file(File))
      return inputError("profile file ", std::string(File), " does not exist");
    return std::string(File);
  }
  File = BuiltinDir;
  llvm::sys::path::append(File, NameOrPath, "profile.json");
  if (fs::is_regular_file(File))
    return std::string(File);
  std::vector<std::string> Names = builtinNames(BuiltinDir);
  std::string Known = Names.empty() ? "there are none in " + BuiltinDir
                                    : llvm::join(Names.begin(), Names.end(), ", ");
  return inputError("unknown profile '", NameOrPath, "'; built-in profiles: ", Known,
                    " (or give the path of a profile.json)");
}

} // namespace

llvm::Expected<Profile> loadProfile(const std::string &NameOrPath, const std::string &BuiltinDir) {
  llvm::Expected<std::string> File = resolveProfileFile(NameOrPath, BuiltinDir);
  if (!File)
    return File.takeError();
  auto Buffer = llvm::MemoryBuffer::getFile(*File);
  if (!Buffer)
    return inputError("cannot read profile ", *File, ": ", Buffer.getError().message());
  llvm::StringRef Text = (*Buffer)->getBuffer();
  llvm::SmallString<256> Folder;
  if (std::error_code EC = fs::real_path(llvm::sys::path::parent_path(*File), Folder))
    return inputError("cannot resolve the folder of ", *File, ": ", EC.message());
  llvm::Expected<json> Root = parseJsonText(Text, *File);
  if (!Root)
    return Root.takeError();
  return ProfileReader(*File, std::string(Folder), Text).read(*Root);
}

} // namespace opmig::migrate
