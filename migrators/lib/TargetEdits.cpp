//===- TargetEdits.cpp - Generated files and blocks of a profile ----------===//
//
// Each edit first looks for its block by its markers and replaces it where
// it stands (the user may have moved it); only a block not yet in the file
// is placed at its anchor. That makes a re-run over its own output a fixed
// point, and keeps every line outside the blocks as the target wrote it.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/TargetEdits.h"

#include "MarkdownTree.h"
#include "PythonAnchors.h"
#include "opmig/migrate/Migrator.h"
#include "opmig/migrate/TemplateRenderer.h"
#include "opmig/support/BlockMarkers.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

namespace opmig::migrate {

using nlohmann::json;
namespace fs = llvm::sys::fs;

namespace {

/// Where a new block goes: before line `Line` (0-based), indented so.
struct Placement {
  size_t Line = 0;
  std::string Indent;
};

/// One edit, rendered and ready to apply.
struct EditJob {
  const TargetEditSpec *Spec = nullptr;
  std::string Path;    ///< Target-relative.
  std::string Key;     ///< `domain:id`.
  std::string Content; ///< The block as rendered.
  std::string Origin;  ///< The block's template, for messages.
  std::string ProfileName;
};

/// A target-owned file being edited.
struct EditedFile {
  FileLines Lines;
  bool MayCreate = false; ///< Missing or empty: a block may become its content.
  std::vector<std::string> Ids;
};

llvm::Error anchorNotFound(const EditJob &Job, llvm::ArrayRef<std::string> Anchors,
                           const InputText &Why) {
  return inputError(Job.Path, ": anchor '", llvm::join(Anchors, "' or '"), "' not found: ", Why,
                    " (edit '", Job.Spec->Id, "' of profile '", Job.ProfileName, "')");
}

/// "bootstrapping<Rest>", naming the option that asks for it.
InputText bootstrapping(llvm::StringRef Rest) {
  InputText Text("bootstrapping");
  Text += inputs::Bootstrap;
  Text += Rest;
  return Text;
}

std::string templatePath(const Profile &P, llvm::StringRef Relative) {
  llvm::SmallString<256> Full(P.Folder);
  llvm::sys::path::append(Full, Relative);
  return std::string(Full);
}

llvm::Expected<std::string> readTemplate(const Profile &P, llvm::StringRef Relative) {
  std::string Full = templatePath(P, Relative);
  auto Buffer = llvm::MemoryBuffer::getFile(Full);
  if (!Buffer)
    return inputError("cannot read template ", Full, ": ", Buffer.getError().message());
  return (*Buffer)->getBuffer().str();
}

/// Renders a `path` template of the profile and checks that it stays inside
/// the target.
llvm::Expected<std::string> renderTargetPath(const Profile &P, const std::string &PathTemplate,
                                             const json &Context, const std::string &Field) {
  std::string Origin = P.Folder + "/profile.json (" + Field + ")";
  llvm::Expected<std::string> Path = renderTemplate(PathTemplate, Context, Origin);
  if (!Path)
    return Path.takeError();
  if (!isContainedRelativePath(*Path))
    return inputError(Origin, ": '", *Path,
                      "' is not a path inside the target (relative, without '.' or '..')");
  return Path;
}

//===----------------------------------------------------------------------===//
// Anchors
//===----------------------------------------------------------------------===//

/// The level of an ATX heading (`## Title`), or 0.
size_t headingLevel(llvm::StringRef Line) {
  if (indentationOf(Line).size() > 3)
    return 0;
  llvm::StringRef Rest = Line.ltrim(' ');
  size_t Level = Rest.find_first_not_of('#');
  Level = Level == Rest.npos ? Rest.size() : Level;
  bool Separated = Level == Rest.size() || Rest[Level] == ' ' || Rest[Level] == '\t';
  return Level >= 1 && Level <= 6 && Separated ? Level : 0;
}

/// The text of a heading line, less its optional closing `#`s.
llvm::StringRef headingText(llvm::StringRef Line) {
  llvm::StringRef Text = Line.trim().ltrim('#').trim();
  llvm::StringRef Unclosed = Text.rtrim('#');
  return Unclosed.size() < Text.size() && (Unclosed.empty() || Unclosed.ends_with(" "))
             ? Unclosed.rtrim()
             : Text;
}

/// After the last row of the first table in the section of heading
/// `Heading` (up to the next heading of the same or a higher level). Lines
/// inside fenced code are not headings or tables.
llvm::Expected<Placement> locateMarkdownTable(const FileLines &File, llvm::StringRef Heading,
                                              const EditJob &Job) {
  bool InFence = false;
  std::optional<size_t> SectionLevel;
  auto IsRow = [&](size_t I) { return File.text(I).ltrim().starts_with("|"); };
  for (size_t I = 0; I < File.Lines.size(); ++I) {
    llvm::StringRef Line = File.text(I);
    if (Line.ltrim().starts_with("```") || Line.ltrim().starts_with("~~~"))
      InFence = !InFence;
    if (InFence)
      continue;
    if (size_t Level = headingLevel(Line)) {
      if (SectionLevel && Level <= *SectionLevel)
        break;
      if (!SectionLevel && headingText(Line) == Heading)
        SectionLevel = Level;
      continue;
    }
    if (!SectionLevel || !IsRow(I))
      continue;
    while (I + 1 < File.Lines.size() && IsRow(I + 1))
      ++I;
    return Placement{I + 1, indentationOf(File.text(I)).str()};
  }
  return anchorNotFound(Job, Job.Spec->Anchors,
                        InputText(SectionLevel
                                      ? "no table under the heading '" + Heading.str() + "'"
                                      : "no heading '" + Heading.str() + "'"));
}

/// Breaks line `At` (1-based) at its byte column, the rest going to a new
/// line indented by `Indent`.
void splitLine(FileLines &File, PythonPosition At, llvm::StringRef Indent) {
  std::string &Line = File.Lines[At.first - 1];
  std::string Rest = Indent.str() + Line.substr(At.second);
  Line = llvm::StringRef(Line).take_front(At.second).rtrim().str() + File.Eol;
  File.Lines.insert(File.Lines.begin() + At.first, Rest);
}

/// Where one anchor is, nullopt with `Why` set when it is not in the file.
llvm::Expected<std::optional<Placement>> locatePython(FileLines &File, llvm::StringRef Anchor,
                                                      const EditJob &Job,
                                                      PythonAnchorLocator &Python,
                                                      std::string &Why) {
  Anchor.consume_front("python:");
  llvm::Expected<PythonAnchorResult> Result = Python.locate(File.join(), Anchor, Job.Path);
  if (!Result)
    return Result.takeError();
  if (!Result->Placement) {
    Why = Result->WhyNotFound;
    return std::nullopt;
  }
  const PythonPlacement &Found = *Result->Placement;
  // The split comes first: the comma is never after it on the same line.
  if (Found.Split)
    splitLine(File, *Found.Split, Found.CloseIndent);
  if (Found.Comma)
    File.Lines[Found.Comma->first - 1].insert(Found.Comma->second, ",");
  return Placement{Found.Line - 1, Found.Indent};
}

/// The first of `Anchors` found in the file, or an error that says why
/// none of them is there.
llvm::Expected<std::optional<Placement>> findAnchor(FileLines &File,
                                                    llvm::ArrayRef<std::string> Anchors,
                                                    const EditJob &Job, PythonAnchorLocator &Python,
                                                    std::string &Why) {
  std::vector<std::string> Reasons;
  for (llvm::StringRef Anchor : Anchors) {
    if (Anchor == "end")
      return Placement{File.Lines.size(), ""};
    if (!Anchor.starts_with("python:"))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "unsupported anchor '%s'",
                                     Anchor.str().c_str());
    std::string Reason;
    llvm::Expected<std::optional<Placement>> Found =
        locatePython(File, Anchor, Job, Python, Reason);
    if (!Found || *Found)
      return Found;
    Reasons.push_back(std::move(Reason));
  }
  Why = llvm::join(Reasons, "; ");
  return std::nullopt;
}

/// `Line`, or the line after the block it falls into: an anchor found inside
/// another generated block (the last import of a re-export block, say) must
/// not split it.
size_t outsideBlocks(const FileLines &File, const CommentSyntax &Syntax, size_t Line) {
  for (const BlockRange &Block : findAllMarkedBlocks(File, Syntax))
    if (Block.Begin < Line && Line <= Block.End)
      return Block.End + 1;
  return Line;
}

//===----------------------------------------------------------------------===//
// Placing blocks
//===----------------------------------------------------------------------===//

constexpr llvm::StringLiteral TableAnchor = "markdown:table:";

/// Rows of a table block replace its marked rows where the first of them
/// stands, or go after the anchor table's last row.
llvm::Error applyTableEdit(FileLines &File, const EditJob &Job) {
  std::vector<size_t> Existing = findMarkedRows(File, Job.Key);
  Placement At;
  if (!Existing.empty()) {
    At = {Existing.front(), indentationOf(File.text(Existing.front())).str()};
    for (size_t Row : llvm::reverse(Existing))
      File.erase(Row, Row + 1);
  } else {
    llvm::StringRef Heading =
        llvm::StringRef(Job.Spec->Anchors.front()).drop_front(TableAnchor.size());
    llvm::Expected<Placement> Found = locateMarkdownTable(File, Heading, Job);
    if (!Found)
      return Found.takeError();
    At = *Found;
  }
  llvm::Expected<std::vector<std::string>> Rows =
      markTableRows(Job.Content, Job.Key, At.Indent, Job.Origin);
  if (!Rows)
    return Rows.takeError();
  File.insert(At.Line, *Rows);
  return llvm::Error::success();
}

constexpr llvm::StringLiteral TreeAnchor = "markdown:tree:";

/// Lines of a tree edit replace its marked lines where the first of them
/// stands, or become the first children of the anchor folder; each starts
/// with the glyphs its place in the tree calls for.
llvm::Error applyTreeEdit(FileLines &File, const EditJob &Job) {
  std::vector<size_t> Existing = findMarkedRows(File, Job.Key);
  Placement At;
  if (!Existing.empty()) {
    At = {Existing.front(), treePrefixOf(File.text(Existing.front()))};
    for (size_t Row : llvm::reverse(Existing))
      File.erase(Row, Row + 1);
  } else {
    llvm::StringRef Folder =
        llvm::StringRef(Job.Spec->Anchors.front()).drop_front(TreeAnchor.size());
    std::optional<TreeChildPlacement> Found = locateTreeFolder(File, Folder);
    if (!Found)
      return anchorNotFound(
          Job, Job.Spec->Anchors,
          InputText("no tree in a fenced block draws the folder " + Folder.str()));
    At = {Found->Line, Found->Prefix};
  }
  std::vector<std::string> Rows;
  for (const std::string &Line : indentedLines("", Job.Content))
    if (!llvm::StringRef(Line).trim().empty())
      Rows.push_back(At.Indent + llvm::StringRef(Line).trim().str() + " " +
                     tableRowMarker(Job.Key));
  File.insert(At.Line, Rows);
  return llvm::Error::success();
}

/// The target file `Relative` to edit: its lines, or none when it is
/// missing or empty and `Spec` may create it.
llvm::Expected<EditedFile> readTargetFile(const std::string &TargetRoot,
                                          const std::string &Relative, const TargetEditSpec &Spec,
                                          const std::string &ProfileName) {
  llvm::SmallString<256> Full(TargetRoot);
  llvm::sys::path::append(Full, Relative);
  bool Exists = fs::exists(Full);
  if (!Exists && fs::is_symlink_file(Full))
    return inputError(Relative, ": a dangling symlink in the target; remove it or point it at a "
                                "file inside the target");
  if (!Exists && !Spec.CreateIfMissing)
    return inputError(Relative, ": no such file in the target ", TargetRoot, " (edit '", Spec.Id,
                      "' of profile '", ProfileName, "' needs it)");
  EditedFile Target;
  if (Exists) {
    llvm::SmallString<256> RealRoot, RealFile;
    if (!fs::real_path(TargetRoot, RealRoot) && !fs::real_path(Full, RealFile) &&
        !llvm::StringRef(RealFile).starts_with((RealRoot + "/").str()))
      return inputError(Relative, ": leads outside the target through a symlink (to ",
                        std::string(RealFile), ")");
    auto Buffer = llvm::MemoryBuffer::getFile(Full, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return inputError("cannot read ", std::string(Full), ": ", Buffer.getError().message());
    Target.Lines = FileLines::split((*Buffer)->getBuffer());
  }
  Target.MayCreate = Spec.CreateIfMissing && Target.Lines.Lines.empty();
  return Target;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

/// `File` less every marked block: the names a bootstrap lists are the
/// target's own, not those the migration's blocks bring (their templates
/// list those).
FileLines withoutMarkedBlocks(FileLines File, llvm::StringRef Path) {
  std::optional<CommentSyntax> Syntax = commentSyntaxFor(Path);
  if (!Syntax)
    return File;
  std::vector<BlockRange> Blocks = findAllMarkedBlocks(File, *Syntax);
  for (const BlockRange &Block : llvm::reverse(Blocks))
    File.erase(Block.Begin, Block.End + 1);
  return File;
}

/// What the renderer does with what the target lacks.
struct RenderMode {
  bool Bootstrap = false; ///< Create it from the profile's bootstrap templates.
  bool CheckOnly = false; ///< Render nothing; collect every gap instead of failing.
};

class ProfileRenderer {
public:
  ProfileRenderer(const Profile &P, const json &Context, const std::string &TargetRoot,
                  RenderMode Mode)
      : P(P), Context(Context), TargetRoot(TargetRoot), Mode(Mode) {}

  llvm::Expected<std::vector<GeneratedOutput>> run() {
    if (!Context.contains("domain") || !Context["domain"].is_string())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the template context has no 'domain' string");
    Domain = Context["domain"].get<std::string>();
    for (const RequiredFile &Required : P.RequiredTargetFiles)
      if (llvm::Error E = gap(requireFile(Required)))
        return E;
    for (size_t I = 0; !Mode.CheckOnly && I < P.Files.size(); ++I)
      if (llvm::Error E = renderFile(P.Files[I], "files[" + std::to_string(I) + "]"))
        return E;
    for (size_t I = 0; I < P.Edits.size(); ++I)
      if (llvm::Error E = gap(renderEdit(P.Edits[I], "edits[" + std::to_string(I) + "]")))
        return E;
    for (const std::string &Path : EditOrder)
      Outputs.push_back(finishEditedFile(Path, Edited[Path]));
    return std::move(Outputs);
  }

  /// What CheckOnly found missing, one line each.
  const std::vector<InputText> &gaps() const { return Gaps; }

private:
  const Profile &P;
  const json &Context;
  const std::string &TargetRoot;
  RenderMode Mode;
  std::string Domain;
  std::vector<GeneratedOutput> Outputs;
  std::set<std::string> OwnedPaths;
  std::map<std::string, EditedFile> Edited;
  std::vector<std::string> EditOrder;
  std::vector<InputText> Gaps;
  std::set<std::string> MissingFiles; ///< Required and reported missing.
  PythonAnchorLocator Python;

  /// In CheckOnly mode an input error is one more gap to list.
  llvm::Error gap(llvm::Error E) {
    if (!Mode.CheckOnly)
      return E;
    return llvm::handleErrors(std::move(E),
                              [&](const InputError &Gap) { Gaps.push_back(Gap.text()); });
  }

  llvm::Error requireFile(const RequiredFile &Required) {
    llvm::SmallString<256> Full(TargetRoot);
    llvm::sys::path::append(Full, Required.Path);
    if (fs::exists(Full))
      return llvm::Error::success();
    if (!Mode.Bootstrap || Required.Bootstrap.empty()) {
      MissingFiles.insert(Required.Path);
      InputText Missing(Required.Path + " is missing");
      if (!Required.Bootstrap.empty()) {
        Missing += "; ";
        Missing += bootstrapping(" creates it");
      }
      return inputError(Missing);
    }
    llvm::Expected<std::string> Content =
        renderBootstrap(Required.Bootstrap, Required.Path, FileLines());
    if (!Content)
      return Content.takeError();
    Edited[Required.Path].Lines = FileLines::split(*Content);
    EditOrder.push_back(Required.Path);
    return llvm::Error::success();
  }

  /// A bootstrap template, rendered with the context and, for a Python
  /// file, the public names it already has (an `__all__` lists them).
  llvm::Expected<std::string> renderBootstrap(const std::string &Template, const std::string &Path,
                                              const FileLines &Current) {
    llvm::Expected<std::string> Text = readTemplate(P, Template);
    if (!Text)
      return Text.takeError();
    json BootstrapContext = Context;
    BootstrapContext["public_names"] = json::array();
    if (llvm::StringRef(Path).ends_with(".py") && !Current.Lines.empty()) {
      llvm::Expected<std::vector<std::string>> Names =
          Python.publicNames(withoutMarkedBlocks(Current, Path).join(), Path);
      if (!Names)
        return Names.takeError();
      BootstrapContext["public_names"] = *Names;
    }
    return renderTemplate(*Text, BootstrapContext, templatePath(P, Template));
  }

  llvm::Error renderFile(const GeneratedFileSpec &Spec, const std::string &Field) {
    llvm::Expected<std::string> Template = readTemplate(P, Spec.Template);
    if (!Template)
      return Template.takeError();
    if (!Spec.PerOp)
      return renderFileWith(Spec, *Template, Context, Field);
    if (!Context.contains("ops") || !Context["ops"].is_array())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the template context has no 'ops' list");
    for (const json &Op : Context["ops"]) {
      json OpContext = Context;
      OpContext["op"] = Op;
      if (llvm::Error E = renderFileWith(Spec, *Template, OpContext, Field))
        return E;
    }
    return llvm::Error::success();
  }

  llvm::Error renderFileWith(const GeneratedFileSpec &Spec, const std::string &Template,
                             const json &FileContext, const std::string &Field) {
    llvm::Expected<std::string> Path = renderTargetPath(P, Spec.Path, FileContext, Field + ".path");
    if (!Path)
      return Path.takeError();
    llvm::Expected<std::string> Content =
        renderTemplate(Template, FileContext, templatePath(P, Spec.Template));
    if (!Content)
      return Content.takeError();
    if (!OwnedPaths.insert(*Path).second)
      return inputError(P.Folder, "/profile.json (", Field, ".path): '", *Path,
                        "' is generated twice");
    Outputs.push_back({*Path, std::move(*Content), false, {}});
    return llvm::Error::success();
  }

  llvm::Error renderEdit(const TargetEditSpec &Spec, const std::string &Field) {
    llvm::Expected<std::string> Path = renderTargetPath(P, Spec.Path, Context, Field + ".path");
    if (!Path)
      return Path.takeError();
    if (OwnedPaths.count(*Path))
      return inputError(P.Folder, "/profile.json (", Field, ".path): '", *Path,
                        "' is both a generated file and a file the target owns");
    if (MissingFiles.count(*Path))
      return llvm::Error::success(); // Reported once, as missing.
    EditJob Job{&Spec, *Path, Domain + ":" + Spec.Id, "", templatePath(P, Spec.Template), P.Name};
    // A check places empty blocks: the ops are not known before the analysis.
    if (!Mode.CheckOnly) {
      llvm::Expected<std::string> Template = readTemplate(P, Spec.Template);
      if (!Template)
        return Template.takeError();
      llvm::Expected<std::string> Content = renderTemplate(*Template, Context, Job.Origin);
      if (!Content)
        return Content.takeError();
      Job.Content = std::move(*Content);
    }
    if (!Edited.count(*Path)) {
      llvm::Expected<EditedFile> Target = readTargetFile(TargetRoot, *Path, Spec, P.Name);
      if (!Target)
        return Target.takeError();
      Edited[*Path] = std::move(*Target);
      EditOrder.push_back(*Path);
    }
    Edited[*Path].Ids.push_back(Spec.Id);
    return applyEdit(Edited[*Path], Job);
  }

  llvm::Error applyEdit(EditedFile &Target, const EditJob &Job) {
    if (llvm::StringRef(Job.Spec->Anchors.front()).starts_with(TableAnchor))
      return applyTableEdit(Target.Lines, Job);
    if (llvm::StringRef(Job.Spec->Anchors.front()).starts_with(TreeAnchor))
      return applyTreeEdit(Target.Lines, Job);
    std::optional<CommentSyntax> Syntax = commentSyntaxFor(Job.Path);
    if (!Syntax)
      return inputError(Job.Path, ": no comment syntax is known for this file type, so edit '",
                        Job.Spec->Id, "' cannot mark its block");
    FileLines &File = Target.Lines;
    llvm::Expected<std::optional<BlockRange>> Block =
        findMarkedBlock(File, *Syntax, Job.Key, Job.Path);
    if (!Block)
      return Block.takeError();
    if (*Block) {
      auto [Begin, End, Indent] = **Block;
      File.erase(Begin, End + 1);
      File.insert(Begin, markedBlockLines(*Syntax, Job.Key, Indent, Job.Content));
      return llvm::Error::success();
    }
    Placement At;
    if (Target.MayCreate && File.Lines.empty()) {
      At = {0, ""};
    } else {
      llvm::Expected<Placement> Found = locateOrBootstrap(File, *Syntax, Job);
      if (!Found)
        return Found.takeError();
      At = *Found;
    }
    File.insert(outsideBlocks(File, *Syntax, At.Line),
                markedBlockLines(*Syntax, Job.Key, At.Indent, Job.Content));
    return llvm::Error::success();
  }

  /// The edit's anchor; when bootstrapping, after writing what creates it.
  llvm::Expected<Placement> locateOrBootstrap(FileLines &File, const CommentSyntax &Syntax,
                                              const EditJob &Job) {
    const TargetEditSpec &Spec = *Job.Spec;
    std::string Why;
    llvm::Expected<std::optional<Placement>> Found =
        findAnchor(File, Spec.Anchors, Job, Python, Why);
    if (!Found || *Found)
      return Found ? llvm::Expected<Placement>(**Found) : Found.takeError();
    if (Spec.Bootstrap.empty())
      return anchorNotFound(Job, Spec.Anchors, InputText(Why));
    if (!Mode.Bootstrap) {
      InputText Advice(Why + "; ");
      Advice += bootstrapping(" adds it");
      return anchorNotFound(Job, Spec.Anchors, Advice);
    }
    for (const BootstrapStep &Step : Spec.Bootstrap)
      if (llvm::Error E = bootstrap(File, Syntax, Job, Step))
        return E;
    Found = findAnchor(File, Spec.Anchors, Job, Python, Why);
    if (!Found || *Found)
      return Found ? llvm::Expected<Placement>(**Found) : Found.takeError();
    InputText After("not even after ");
    After += bootstrapping(": " + Why);
    return anchorNotFound(Job, Spec.Anchors, After);
  }

  llvm::Error bootstrap(FileLines &File, const CommentSyntax &Syntax, const EditJob &Job,
                        const BootstrapStep &Step) {
    llvm::Expected<std::string> Content = renderBootstrap(Step.Template, Job.Path, File);
    if (!Content)
      return Content.takeError();
    std::string Why;
    llvm::Expected<std::optional<Placement>> At = findAnchor(File, Step.Anchors, Job, Python, Why);
    if (!At)
      return At.takeError();
    if (!*At)
      return anchorNotFound(Job, Step.Anchors,
                            bootstrapping(" has no place for " + Step.Template + ": " + Why));
    File.insert(outsideBlocks(File, Syntax, (*At)->Line), indentedLines((*At)->Indent, *Content));
    return llvm::Error::success();
  }

  GeneratedOutput finishEditedFile(const std::string &Path, const EditedFile &Target) const {
    GeneratedOutput Output{Path, Target.Lines.join(), true, {}};
    for (const std::string &Id : Target.Ids)
      Output.Blocks.push_back(
          {Id, findGeneratedBlock(Output.Content, Path, Domain, Id).value_or("")});
    return Output;
  }
};

} // namespace

llvm::Expected<std::vector<GeneratedOutput>> renderProfile(const Profile &P, const json &Context,
                                                           const std::string &TargetRoot,
                                                           bool Bootstrap) {
  return ProfileRenderer(P, Context, TargetRoot, {Bootstrap, /*CheckOnly=*/false}).run();
}

namespace {

/// The gaps a check finds, or an error that is not a gap (a profile whose
/// template does not render, say).
llvm::Expected<std::vector<InputText>> conventionGaps(const Profile &P, const json &Context,
                                                      const std::string &TargetRoot,
                                                      bool Bootstrap) {
  ProfileRenderer Check(P, Context, TargetRoot, {Bootstrap, /*CheckOnly=*/true});
  if (llvm::Expected<std::vector<GeneratedOutput>> Outputs = Check.run(); !Outputs)
    return Outputs.takeError();
  return Check.gaps();
}

/// What to do about the gaps of a check without bootstrapping.
llvm::Expected<InputText> conventionAdvice(const Profile &P, const json &Context,
                                           const std::string &TargetRoot, size_t GapCount) {
  llvm::Expected<std::vector<InputText>> Left = conventionGaps(P, Context, TargetRoot, true);
  if (!Left)
    return Left.takeError();
  if (Left->empty()) {
    InputText Advice = bootstrapping(" the target creates all of them; a dry run");
    Advice += inputs::DryRun;
    Advice += " shows what it writes";
    return Advice;
  }
  if (Left->size() < GapCount)
    return bootstrapping(" the target creates those it names; the others need a hand");
  return InputText("pick the profile the target follows");
}

} // namespace

llvm::Error checkTargetConvention(const Profile &P, const json &Context,
                                  const std::string &TargetRoot, bool Bootstrap) {
  llvm::Expected<std::vector<InputText>> Gaps = conventionGaps(P, Context, TargetRoot, Bootstrap);
  if (!Gaps || Gaps->empty())
    return Gaps.takeError();
  llvm::Expected<InputText> Advice = Bootstrap
                                         ? InputText("pick the profile the target follows")
                                         : conventionAdvice(P, Context, TargetRoot, Gaps->size());
  if (!Advice)
    return Advice.takeError();
  InputText List;
  for (const InputText &Gap : *Gaps) {
    List += "\n  ";
    List += Gap;
  }
  return inputError("the target ", TargetRoot, " does not follow the ", P.Name, " convention (",
                    std::to_string(Gaps->size()), Gaps->size() == 1 ? " gap" : " gaps", "):", List,
                    "\n", *Advice);
}

} // namespace opmig::migrate
