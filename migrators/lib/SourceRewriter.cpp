#include "opmig/migrate/SourceRewriter.h"

#include "DefinitionSlicer.h"
#include "EditMerger.h"
#include "GlobalWrapper.h"
#include "IncludeRewriter.h"
#include "LeftoverScanner.h"
#include "RewriteContext.h"
#include "RewriteIssue.h"
#include "RewriteParse.h"
#include "RewriteParses.h"
#include "opmig/analyze/TUParser.h"
#include "opmig/support/Errors.h"
#include "opmig/support/SourceFiles.h"

#include <algorithm>
#include <set>

namespace opmig::migrate {

namespace {

using analyze::ParseSide;

/// Flags of a TU's parse: its own, then the request's extra arguments.
std::vector<std::string> flagsOf(const RewriteContext &Ctx, const std::string &TU) {
  std::vector<std::string> Flags;
  if (auto It = Ctx.request().TUFlags.find(TU); It != Ctx.request().TUFlags.end())
    Flags = It->second;
  Flags.insert(Flags.end(), Ctx.request().ExtraArgs.begin(), Ctx.request().ExtraArgs.end());
  return Flags;
}

void addSides(std::vector<ParseJob> &Jobs, ParseJob Job) {
  bool Cuda = opmig::isCudaSource(Job.MainFile);
  Jobs.push_back(Job);
  // `__CUDA_ARCH__` code is only seen by a device parse.
  if (Cuda) {
    Job.Side = ParseSide::Device;
    Jobs.push_back(std::move(Job));
  }
}

std::vector<ParseJob> translationUnitJobs(const RewriteContext &Ctx) {
  std::vector<ParseJob> Jobs;
  for (const PortedFile &File : Ctx.files())
    if (Ctx.request().TUFlags.count(File.Upstream))
      addSides(Jobs,
               {File.Upstream, File.RealPath, flagsOf(Ctx, File.Upstream), ParseSide::Host, {}});
  return Jobs;
}

/// Ported headers no parse included are parsed on their own, included from
/// a probe file compiled like the first ported TU (CUDA when that TU or the
/// header is).
std::vector<ParseJob> probeJobs(const RewriteContext &Ctx,
                                const std::vector<ParseRecord> &Records) {
  std::string FirstTU;
  for (const PortedFile &File : Ctx.files())
    if (Ctx.request().TUFlags.count(File.Upstream)) {
      FirstTU = File.Upstream;
      break;
    }
  std::vector<ParseJob> Jobs;
  for (const PortedFile &File : Ctx.files()) {
    bool Seen =
        llvm::any_of(Records, [&](const ParseRecord &R) { return R.Files.count(File.Upstream); });
    if (Seen)
      continue;
    bool Cuda = opmig::isCudaSource(File.Upstream) || opmig::isCudaSource(FirstTU);
    std::string Probe = Ctx.sourceRoot() + (Cuda ? "/.opmig-probe.cu" : "/.opmig-probe.cpp");
    addSides(Jobs, {File.Upstream, Probe, flagsOf(Ctx, FirstTU), ParseSide::Host,
                    "#include \"" + File.RealPath + "\"\n"});
  }
  return Jobs;
}

/// What all parses found about one file.
struct FileFindings {
  std::vector<const ParseRecord *> Parses; ///< Those that included the file.
  std::vector<FileEdit> Edits;
  std::set<unsigned> Handled, SeenIncludes;
  std::vector<TopLevelItem> Items;
  std::vector<FoundDefinition> Definitions;

  /// Why no parse saw `Offset`; nothing when one did.
  std::optional<UnseenReason> unseen(const std::string &File, unsigned Offset) const {
    std::optional<UnseenReason> Reason;
    for (const ParseRecord *Parse : Parses) {
      const FileObservation &Seen = Parse->Files.at(File);
      auto It = llvm::find_if(
          Seen.Unseen, [&](const UnseenRange &R) { return R.Begin <= Offset && Offset < R.End; });
      if (It == Seen.Unseen.end())
        return std::nullopt;
      Reason = Reason ? Reason : It->Reason;
    }
    return Reason ? Reason : UnseenReason::SkippedBranch;
  }
};

void mergeDefinition(std::vector<FoundDefinition> &Into, const FoundDefinition &Found) {
  for (FoundDefinition &Existing : Into)
    if (Existing.Begin == Found.Begin && Existing.End == Found.End &&
        Existing.Registration == Found.Registration) {
      for (const std::string &Name : Found.Names)
        if (!llvm::is_contained(Existing.Names, Name))
          Existing.Names.push_back(Name);
      return;
    }
  Into.push_back(Found);
}

FileFindings findingsOf(const PortedFile &File, const std::vector<ParseRecord> &Records) {
  FileFindings Findings;
  for (const ParseRecord &Parse : Records) {
    if (auto It = Parse.Edits.find(File.Upstream); It != Parse.Edits.end())
      Findings.Edits.insert(Findings.Edits.end(), It->second.begin(), It->second.end());
    auto It = Parse.Files.find(File.Upstream);
    if (It == Parse.Files.end())
      continue;
    const FileObservation &Seen = It->second;
    Findings.Parses.push_back(&Parse);
    Findings.Handled.insert(Seen.Handled.begin(), Seen.Handled.end());
    Findings.SeenIncludes.insert(Seen.SeenIncludes.begin(), Seen.SeenIncludes.end());
    Findings.Items.insert(Findings.Items.end(), Seen.Items.begin(), Seen.Items.end());
    for (const FoundDefinition &Found : Seen.Definitions)
      mergeDefinition(Findings.Definitions, Found);
  }
  return Findings;
}

/// The include directories of the parses that included the file.
IncludeSearchPath searchPathFor(const RewriteContext &Ctx, const FileFindings &Findings) {
  IncludeSearchPath Search;
  for (const ParseRecord *Parse : Findings.Parses) {
    IncludeSearchPath One = searchPathOf(Parse->Flags, Ctx.sourceRoot());
    for (const std::string &Dir : One.Quote)
      if (!llvm::is_contained(Search.Quote, Dir))
        Search.Quote.push_back(Dir);
    for (const std::string &Dir : One.Angled)
      if (!llvm::is_contained(Search.Angled, Dir))
        Search.Angled.push_back(Dir);
  }
  return Search;
}

/// The rewritten file, and the upstream ranges left out of it.
struct FileRewrite {
  RewrittenFile File;
  std::vector<std::pair<unsigned, unsigned>> Removed;
};

/// What the copy of `File` leaves out, as the manifest records it: the
/// removed definitions and the includes dropped with them.
std::vector<LeftOutRange> leftOutRanges(const RewriteRequest &Request, const PortedFile &File,
                                        const SlicePlan &Slices) {
  const SourceLayout &Layout = File.Layout;
  auto Range = [&](unsigned Begin, unsigned End) {
    LeftOutRange R;
    R.Begin = Begin;
    R.End = End;
    R.FirstLine = Layout.lineOf(Begin);
    R.LastLine = Layout.lineOf(End - 1);
    return R;
  };
  std::vector<LeftOutRange> LeftOut;
  for (size_t I = 0; I < Slices.Removed.size(); ++I) {
    auto [Begin, End] = Slices.Removed[I];
    if (Begin >= End || Slices.RemovedNames[I].empty())
      continue;
    LeftOut.push_back(Range(Begin, End));
    LeftOut.back().Definitions = Slices.RemovedNames[I];
  }
  auto Lines = Request.DropIncludeLines.find(File.Upstream);
  if (Lines != Request.DropIncludeLines.end())
    for (const IncludeSpelling &Include : Layout.includes()) {
      if (!Lines->second.count(Layout.lineOf(Include.DirectiveBegin)))
        continue;
      LeftOut.push_back(Range(Layout.lineStart(Include.DirectiveBegin),
                              Layout.nextLineStart(Include.DirectiveBegin)));
      LeftOut.back().Include = Layout.text().substr(Include.Begin, Include.End - Include.Begin);
    }
  llvm::sort(LeftOut, [](const LeftOutRange &A, const LeftOutRange &B) {
    return std::tie(A.Begin, A.End) < std::tie(B.Begin, B.End);
  });
  return LeftOut;
}

FileRewrite rewriteFile(const RewriteContext &Ctx, const PortedFile &File,
                        const std::vector<ParseRecord> &Records, std::vector<Finding> &Issues) {
  const RewriteRequest &Request = Ctx.request();
  FileFindings Findings = findingsOf(File, Records);
  FileRewrite Rewrite{{File.Upstream, File.Target, File.Layout.text().str(), 0, {}, {}}, {}};
  RewrittenFile &Result = Rewrite.File;
  if (Findings.Parses.empty()) {
    Issues.push_back(
        rewriteIssue(issue_id::FileNotParsed, File.Upstream, 0,
                     "no parse could include this file: it is copied without any rewriting", true));
    return Rewrite;
  }
  static const std::vector<analyze::SiblingDefinition> NoDrops;
  auto Wanted = Request.DropDefinitions.find(File.Upstream);
  SlicePlan Slices =
      planSlices(File, Findings.Definitions,
                 Wanted == Request.DropDefinitions.end() ? NoDrops : Wanted->second, Issues);
  std::vector<FileEdit> Edits = std::move(Findings.Edits);
  if (!Request.WrapGlobalInto.empty())
    for (FileEdit &Edit : wrapEdits(File, Findings.Items, Slices.Removed, Request.WrapGlobalInto))
      Edits.push_back(std::move(Edit));
  auto IsSeen = [&](unsigned Offset) { return !Findings.unseen(File.Upstream, Offset); };
  rewriteUnparsedIncludes(Ctx, File, Findings.SeenIncludes, searchPathFor(Ctx, Findings), IsSeen,
                          Edits, Issues);

  clang::tooling::Replacements Replacements =
      buildReplacements(File, std::move(Edits), Slices.Removed, Issues);
  llvm::Expected<std::string> Output =
      clang::tooling::applyAllReplacements(File.Layout.text(), Replacements);
  if (!Output) {
    Issues.push_back(
        rewriteIssue(issue_id::EditsNotApplied, File.Upstream, 0,
                     "edits could not be applied: " + llvm::toString(Output.takeError()), true));
    return Rewrite;
  }
  LeftoverInputs Leftovers{Ctx.renames().vanishingNames(), Findings.Handled,
                           [&](unsigned Offset) { return Findings.unseen(File.Upstream, Offset); }};
  reportLeftovers(File, *Output, Replacements, Leftovers, Issues);

  Result.Content = std::move(*Output);
  if (auto Header = Request.Headers.find(File.Upstream); Header != Request.Headers.end()) {
    std::string Text = Header->second;
    if (!Text.empty() && Text.back() != '\n')
      Text += '\n';
    Result.Content.insert(0, Text);
  }
  Result.Replacements = Replacements.size();
  Result.LeftOut = leftOutRanges(Request, File, Slices);
  Result.DroppedDefinitions = std::move(Slices.Dropped);
  Rewrite.Removed = std::move(Slices.Removed);
  return Rewrite;
}

/// The parses' issues, less those in code left out of the copy.
void addParseIssues(
    const std::vector<ParseRecord> &Records,
    const std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> &Removed,
    std::vector<Finding> &Issues) {
  for (const ParseRecord &Record : Records)
    for (const ParseIssue &Found : Record.Issues) {
      auto Ranges = Removed.find(Found.Issue.File);
      bool LeftOut = Found.Offset && Ranges != Removed.end() &&
                     llvm::any_of(Ranges->second, [&](const std::pair<unsigned, unsigned> &R) {
                       return R.first <= *Found.Offset && *Found.Offset < R.second;
                     });
      if (!LeftOut)
        Issues.push_back(Found.Issue);
    }
}

void sortIssues(std::vector<Finding> &Issues) {
  auto Key = [](const Finding &I) { return std::tie(I.File, I.Line, I.Message, I.Level); };
  std::sort(Issues.begin(), Issues.end(),
            [&](const Finding &A, const Finding &B) { return Key(A) < Key(B); });
  Issues.erase(std::unique(Issues.begin(), Issues.end(),
                           [&](const Finding &A, const Finding &B) { return Key(A) == Key(B); }),
               Issues.end());
}

} // namespace

llvm::Expected<RewriteResult> rewriteSources(const RewriteRequest &Request) {
  llvm::Expected<std::unique_ptr<RewriteContext>> Created = RewriteContext::create(Request);
  if (!Created)
    return Created.takeError();
  const RewriteContext &Ctx = **Created;

  RewriteParses Parses(Ctx);
  std::vector<ParseRecord> Records = Parses.run(translationUnitJobs(Ctx));
  for (const ParseRecord &Record : Records)
    if (!Record.Completed)
      return inputError("cannot parse ", Record.TU, " (", Record.Side,
                        " side): the Clang frontend did not run; check its flags");
  std::vector<ParseRecord> Probes = Parses.run(probeJobs(Ctx, Records));
  std::move(Probes.begin(), Probes.end(), std::back_inserter(Records));

  RewriteResult Result;
  Result.Stats = Parses.stats();
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Removed;
  for (const PortedFile &File : Ctx.files()) {
    FileRewrite Rewrite = rewriteFile(Ctx, File, Records, Result.Issues);
    Removed[File.Upstream] = std::move(Rewrite.Removed);
    Result.Files.push_back(std::move(Rewrite.File));
  }
  addParseIssues(Records, Removed, Result.Issues);
  sortIssues(Result.Issues);
  return Result;
}

std::string renamedQualifiedName(const std::string &Qualified,
                                 const std::vector<NamespaceRename> &Renames,
                                 const std::string &WrapGlobalInto) {
  llvm::StringRef Name = Qualified;
  Name.consume_front("::");
  if (!Name.contains("::"))
    return appendPath(WrapGlobalInto, Name);
  return RenameMap(Renames).apply(Name);
}

} // namespace opmig::migrate
