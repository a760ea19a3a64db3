//===- Profile.cpp - A target repository's conventions, as data -----------===//
//
// The loader checks everything a profile says before any migration starts:
// types, unknown keys (a typo must not pass silently), anchors, template
// syntax and files. It reads through ConfigDocument, so every problem is
// reported as `profile.json:line:col: problem`.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/Profile.h"

#include "TemplateSyntax.h"
#include "opmig/support/BlockMarkers.h"
#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace opmig::migrate {

namespace fs = llvm::sys::fs;

namespace {

constexpr llvm::StringLiteral SchemaId = "opmig.profile/1";

/// Anchors whose block can stand alone as a new file's whole content.
constexpr llvm::StringLiteral StandaloneAnchors[] = {"end", "python:after-imports",
                                                     "python:before-def", "python:before-call"};

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
  if (Anchor.consume_front("markdown:tree:")) {
    if (!Anchor.ends_with("/") || Anchor.trim("/").empty() || Anchor.contains(' '))
      return "'markdown:tree:' needs a folder path ending in '/', such as veomni/ops/";
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
    "markdown:table:HEADING, markdown:tree:FOLDER/)";

const llvm::StringRef ProfileKeys[] = {"schema",
                                       "name",
                                       "spec",
                                       "description",
                                       "native_dir",
                                       "namespace",
                                       "op_namespace",
                                       "extension",
                                       "includes",
                                       "wrap_global_namespace",
                                       "provenance_comment",
                                       "third_party_dir",
                                       "required_target_files",
                                       "files",
                                       "edits"};

/// The keys `Node` may hold, and those it must.
llvm::Error checkKeys(const ConfigNode &Node, llvm::ArrayRef<llvm::StringRef> Known,
                      llvm::ArrayRef<llvm::StringRef> Required) {
  if (llvm::Error E = Node.allowKeys(Known))
    return E;
  return Node.requireKeys(Required);
}

/// Reads one profile.json that has parsed.
class ProfileReader {
public:
  explicit ProfileReader(std::string Folder) : Folder(std::move(Folder)) {}

  llvm::Expected<Profile> read(const ConfigNode &Top) const {
    if (llvm::Error E = Top.expectMapping())
      return E;
    if (llvm::Error E = checkKeys(Top, ProfileKeys,
                                  {"schema", "name", "native_dir", "namespace", "op_namespace",
                                   "includes", "provenance_comment"}))
      return E;
    Profile P;
    P.Folder = Folder;
    std::string Schema;
    if (llvm::Error E = Top.readString("schema", Schema))
      return E;
    if (Schema != SchemaId)
      return Top.member("schema").error(llvm::Twine("unsupported schema '") + Schema +
                                        "' (expected '" + SchemaId + "')");
    if (llvm::Error E = readScalars(Top, P))
      return E;
    if (llvm::Error E = readSpec(Top, P))
      return E;
    if (llvm::Error E = readIncludes(Top.member("includes"), P))
      return E;
    if (llvm::Error E = readRequiredFiles(Top.member("required_target_files"), P))
      return E;
    if (llvm::Error E = readFiles(Top.member("files"), P))
      return E;
    if (llvm::Error E = readEdits(Top.member("edits"), P))
      return E;
    return P;
  }

private:
  std::string Folder;

  /// As ConfigNode::readString, for a string that is a template.
  static llvm::Error readTemplate(const ConfigNode &Object, llvm::StringRef Key, std::string &Out) {
    if (llvm::Error E = Object.readString(Key, Out))
      return E;
    ConfigNode Member = Object.member(Key);
    if (auto Problem = checkTemplateSyntax(Out))
      return Member.error(Member.describe() + ": " + Problem->Message);
    return llvm::Error::success();
  }

  /// The elements of an optional list; none when it is absent.
  static llvm::Expected<std::vector<ConfigNode>> optionalList(const ConfigNode &List) {
    if (!List.exists())
      return std::vector<ConfigNode>();
    if (llvm::Error E = List.expectList())
      return E;
    return List.elements();
  }

  static llvm::Error checkKebabCase(const ConfigNode &Node, const std::string &Value) {
    if (isKebabCase(Value))
      return llvm::Error::success();
    return Node.error(Node.describe() + ": '" + Value + "' must be kebab-case (a-z, 0-9, '-')");
  }

  llvm::Error readScalars(const ConfigNode &Top, Profile &P) const {
    if (llvm::Error E = Top.readString("name", P.Name))
      return E;
    if (llvm::Error E = checkKebabCase(Top.member("name"), P.Name))
      return E;
    std::pair<llvm::StringRef, std::string *> Templates[] = {
        {"native_dir", &P.NativeDir},
        {"namespace", &P.Namespace},
        {"op_namespace", &P.OpNamespace},
        {"extension", &P.Extension},
        {"provenance_comment", &P.ProvenanceComment},
        {"third_party_dir", &P.ThirdPartyDir}};
    for (auto [Key, Out] : Templates)
      if (llvm::Error E = readTemplate(Top, Key, *Out))
        return E;
    if (llvm::Error E = Top.readString("description", P.Description))
      return E;
    return Top.readBool("wrap_global_namespace", P.WrapGlobalNamespace);
  }

  /// `spec` is required: a profile copied under another name must keep
  /// the validation layers its convention requires, so a review never
  /// guesses them from the name.
  llvm::Error readSpec(const ConfigNode &Top, Profile &P) const {
    if (!Top.has("spec"))
      return Top.error("missing required key 'spec' in the profile: add the spec convention "
                       "the profile follows, e.g. \"spec\": \"cache-dit\" (the specs are listed "
                       "under `specs:` in rules/review/validation-layers.yaml); it decides which "
                       "validation layers opmig review requires");
    if (llvm::Error E = Top.readString("spec", P.Spec))
      return E;
    return checkKebabCase(Top.member("spec"), P.Spec);
  }

  llvm::Error readIncludes(const ConfigNode &Includes, Profile &P) const {
    if (llvm::Error E = Includes.expectMapping())
      return E;
    if (llvm::Error E = checkKeys(Includes, {"style", "root"}, {"style"}))
      return E;
    std::string Style;
    if (llvm::Error E = Includes.readString("style", Style))
      return E;
    if (Style != "relative-to-root" && Style != "relative-to-file")
      return Includes.member("style").error(llvm::Twine("'includes.style': '") + Style +
                                            "' is neither 'relative-to-root' nor "
                                            "'relative-to-file'");
    P.Includes =
        Style == "relative-to-root" ? IncludeStyle::RelativeToRoot : IncludeStyle::RelativeToFile;
    if (P.Includes == IncludeStyle::RelativeToRoot && !Includes.has("root"))
      return Includes.error("'includes' needs a 'root' for style 'relative-to-root'");
    return readTemplate(Includes, "root", P.IncludeRoot);
  }

  /// Each entry is a path, or `{"path": ..., "bootstrap": TEMPLATE}`.
  llvm::Error readRequiredFiles(const ConfigNode &List, Profile &P) const {
    llvm::Expected<std::vector<ConfigNode>> Entries = optionalList(List);
    if (!Entries)
      return Entries.takeError();
    for (const ConfigNode &Entry : *Entries) {
      RequiredFile Required;
      if (Entry.json().is_string()) {
        Required.Path = Entry.json().get<std::string>();
      } else if (llvm::Error E = readRequiredFile(Entry, Required)) {
        return E;
      }
      if (!isContainedRelativePath(Required.Path))
        return Entry.error(Entry.describe() + " must be a relative path inside the target");
      P.RequiredTargetFiles.push_back(std::move(Required));
    }
    return llvm::Error::success();
  }

  llvm::Error readRequiredFile(const ConfigNode &Entry, RequiredFile &Required) const {
    if (llvm::Error E = Entry.expectMapping())
      return E;
    if (llvm::Error E = checkKeys(Entry, {"path", "bootstrap"}, {"path"}))
      return E;
    if (llvm::Error E = Entry.readString("path", Required.Path))
      return E;
    if (llvm::Error E = Entry.readString("bootstrap", Required.Bootstrap))
      return E;
    if (Required.Bootstrap.empty())
      return llvm::Error::success();
    return checkTemplateFile(Required.Bootstrap, Entry.member("bootstrap"));
  }

  /// The template at `Node` exists inside the profile folder and parses.
  llvm::Error checkTemplateFile(const std::string &Relative, const ConfigNode &Node) const {
    std::string Name = Node.describe();
    if (!isContainedRelativePath(Relative))
      return Node.error(Name + ": '" + Relative +
                        "' must be a relative path inside the profile folder");
    llvm::SmallString<256> Full(Folder), Real;
    llvm::sys::path::append(Full, Relative);
    if (!fs::is_regular_file(Full))
      return Node.error(Name + ": no such template file " + Full);
    if (fs::real_path(Full, Real) || !llvm::StringRef(Real).starts_with(Folder + "/"))
      return Node.error(Name + ": '" + Relative +
                        "' leads outside the profile folder through a symlink");
    auto Buffer = llvm::MemoryBuffer::getFile(Full);
    if (!Buffer)
      return Node.error(Name + ": cannot read " + Full + ": " + Buffer.getError().message());
    if (auto Problem = checkTemplateSyntax((*Buffer)->getBuffer()))
      return inputError(std::string(Full), ":", std::to_string(Problem->Line), ": ",
                        Problem->Message);
    return llvm::Error::success();
  }

  llvm::Error readFiles(const ConfigNode &List, Profile &P) const {
    llvm::Expected<std::vector<ConfigNode>> Entries = optionalList(List);
    if (!Entries)
      return Entries.takeError();
    for (const ConfigNode &Entry : *Entries) {
      GeneratedFileSpec Spec;
      llvm::Error E = Entry.expectMapping();
      if (!E)
        E = checkKeys(Entry, {"path", "template", "per_op"}, {"path", "template"});
      if (!E)
        E = readTemplate(Entry, "path", Spec.Path);
      if (!E)
        E = Entry.readString("template", Spec.Template);
      if (!E)
        E = Entry.readBool("per_op", Spec.PerOp);
      if (!E)
        E = checkTemplateFile(Spec.Template, Entry.member("template"));
      if (E)
        return E;
      P.Files.push_back(std::move(Spec));
    }
    return llvm::Error::success();
  }

  /// `anchor` is one anchor or a list of them, each valid for `Path`.
  static llvm::Error readAnchors(const ConfigNode &Object, llvm::StringRef Path,
                                 std::vector<std::string> &Out) {
    ConfigNode Anchor = Object.member("anchor");
    const nlohmann::json &Value = Anchor.json();
    if (Value.is_string())
      Out = {Value.get<std::string>()};
    else if (Value.is_array() && !Value.empty() &&
             llvm::all_of(Value, [](const nlohmann::json &A) { return A.is_string(); }))
      Out = Value.get<std::vector<std::string>>();
    else
      return Anchor.error(Anchor.describe() + " must be a string or a non-empty list of strings");
    for (const std::string &Name : Out)
      if (std::string Why = anchorProblem(Name, Path); !Why.empty())
        return Anchor.error(Anchor.describe() + ": '" + Name + "': " + Why + KnownAnchors);
    return llvm::Error::success();
  }

  llvm::Error checkEdit(const TargetEditSpec &Spec, const ConfigNode &Entry) const {
    if (llvm::Error E = checkKebabCase(Entry.member("id"), Spec.Id))
      return E;
    if (!commentSyntaxFor(Spec.Path)) {
      ConfigNode Path = Entry.member("path");
      return Path.error(Path.describe() + ": no comment syntax is known for '" + Spec.Path +
                        "', so its block cannot be marked");
    }
    if (Spec.CreateIfMissing && !llvm::is_contained(StandaloneAnchors, Spec.Anchors.front())) {
      ConfigNode Create = Entry.member("create_if_missing");
      return Create.error(Create.describe() + ": a block at anchor '" + Spec.Anchors.front() +
                          "' cannot stand alone as a new file's content");
    }
    return checkTemplateFile(Spec.Template, Entry.member("template"));
  }

  llvm::Error readBootstrap(const ConfigNode &Entry, TargetEditSpec &Spec) const {
    llvm::Expected<std::vector<ConfigNode>> Steps = optionalList(Entry.member("bootstrap"));
    if (!Steps)
      return Steps.takeError();
    for (const ConfigNode &Step : *Steps) {
      BootstrapStep Read;
      llvm::Error E = Step.expectMapping();
      if (!E)
        E = checkKeys(Step, {"anchor", "template"}, {"anchor", "template"});
      if (!E)
        E = readAnchors(Step, Spec.Path, Read.Anchors);
      if (!E)
        E = Step.readString("template", Read.Template);
      if (!E)
        E = checkTemplateFile(Read.Template, Step.member("template"));
      if (E)
        return E;
      Spec.Bootstrap.push_back(std::move(Read));
    }
    return llvm::Error::success();
  }

  llvm::Expected<TargetEditSpec> readEdit(const ConfigNode &Entry) const {
    TargetEditSpec Spec;
    llvm::Error E = Entry.expectMapping();
    if (!E)
      E = checkKeys(Entry, {"id", "path", "template", "anchor", "create_if_missing", "bootstrap"},
                    {"id", "path", "template", "anchor"});
    if (!E)
      E = Entry.readString("id", Spec.Id);
    if (!E)
      E = readTemplate(Entry, "path", Spec.Path);
    if (!E)
      E = Entry.readString("template", Spec.Template);
    if (!E)
      E = readAnchors(Entry, Spec.Path, Spec.Anchors);
    if (!E)
      E = Entry.readBool("create_if_missing", Spec.CreateIfMissing);
    if (!E)
      E = checkEdit(Spec, Entry);
    if (!E)
      E = readBootstrap(Entry, Spec);
    if (E)
      return E;
    return Spec;
  }

  llvm::Error readEdits(const ConfigNode &List, Profile &P) const {
    llvm::Expected<std::vector<ConfigNode>> Entries = optionalList(List);
    if (!Entries)
      return Entries.takeError();
    std::map<std::string, unsigned> IdLines;
    for (const ConfigNode &Entry : *Entries) {
      llvm::Expected<TargetEditSpec> Spec = readEdit(Entry);
      if (!Spec)
        return Spec.takeError();
      ConfigNode Id = Entry.member("id");
      auto [It, New] = IdLines.try_emplace(Spec->Id, Id.location().Line);
      if (!New)
        return Id.error(Id.describe() + ": id '" + Spec->Id + "' is used twice (first at line " +
                        std::to_string(It->second) + ")");
      P.Edits.push_back(std::move(*Spec));
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
  llvm::Expected<ConfigDocument> Doc = parseConfig(Text, ConfigSyntax::Json, *File, "profile");
  if (!Doc)
    return Doc.takeError();
  return ProfileReader(std::string(Folder)).read(Doc->root());
}

} // namespace opmig::migrate
