//===- RuleTests.cpp - Each rule proves itself on its fixtures ------------===//

#include "opmig/audit/RuleTests.h"

#include "opmig/audit/Audit.h"
#include "opmig/audit/Repository.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>
#include <tuple>

namespace opmig::audit {

namespace {

constexpr const char *ExpectFile = "EXPECT";

/// One annotation: the rule must (Fire) or must not fire at File:Line, or
/// (Exempt) find something there that one of its exemptions covers; Line 0
/// is about the whole path (EXPECT entries).
struct Expectation {
  bool Fire = false;
  bool Exempt = false;
  std::string File;
  unsigned Line = 0;
  unsigned WrittenAt = 0; ///< Where the annotation itself is, for messages.
};

struct Annotation {
  bool Fire = false;
  bool Exempt = false;
  std::vector<std::string> Ids;
  bool OwnLine = false; ///< Alone on its line: it is about the next line.
};

/// A `ruleid:` / `ok:` annotation in a comment on `Line`, if any.
std::optional<Annotation> parseAnnotation(llvm::StringRef Line) {
  for (llvm::StringRef Opener : {"//", "#", "<!--", "/*"}) {
    for (size_t At = Line.find(Opener); At != llvm::StringRef::npos;
         At = Line.find(Opener, At + 1)) {
      llvm::StringRef Rest = Line.drop_front(At + Opener.size()).ltrim();
      Annotation A;
      if (Rest.consume_front("ruleid:"))
        A.Fire = true;
      else if (Rest.consume_front("exempt:"))
        A.Exempt = true;
      else if (!Rest.consume_front("ok:"))
        continue;
      Rest = Rest.trim();
      for (llvm::StringRef Closer : {"-->", "*/"})
        if (Rest.ends_with(Closer))
          Rest = Rest.drop_back(Closer.size());
      llvm::SmallVector<llvm::StringRef, 2> Ids;
      Rest.split(Ids, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef Id : Ids)
        A.Ids.push_back(Id.trim().str());
      A.OwnLine = Line.take_front(At).trim().empty();
      return A;
    }
  }
  return std::nullopt;
}

/// The annotations for `Id` in one fixture file.
void annotationsIn(llvm::StringRef Text, const std::string &File, const std::string &Id,
                   std::vector<Expectation> &Out) {
  std::vector<Annotation> Pending; // For the next line; Ids[0] holds where it was written.
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    std::optional<Annotation> A = parseAnnotation(Line);
    bool ForThisRule = A && llvm::is_contained(A->Ids, Id);
    if (A && A->OwnLine) {
      if (ForThisRule)
        Pending.push_back({A->Fire, A->Exempt, {std::to_string(LineNo)}, true});
      continue;
    }
    for (const Annotation &P : Pending)
      Out.push_back({P.Fire, P.Exempt, File, LineNo, unsigned(std::stoul(P.Ids[0]))});
    Pending.clear();
    if (ForThisRule)
      Out.push_back({A->Fire, A->Exempt, File, LineNo, LineNo});
  }
}

/// `ruleid: <id> <path>` / `ok: <id> <path>` lines of an EXPECT file.
void expectationsIn(llvm::StringRef Text, const std::string &Id, std::vector<Expectation> &Out,
                    std::vector<std::string> &Problems, const std::string &Where) {
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    Line.split(Parts, ' ', -1, /*KeepEmpty=*/false);
    if (Parts.size() != 3 ||
        (Parts[0] != "ruleid:" && Parts[0] != "ok:" && Parts[0] != "exempt:")) {
      Problems.push_back(Where + ":" + std::to_string(LineNo) +
                         ": expected 'ruleid: <id> <path>', 'ok: <id> <path>' or "
                         "'exempt: <id> <path>'");
      continue;
    }
    if (Parts[1] == Id)
      Out.push_back(
          {Parts[0] == "ruleid:", Parts[0] == "exempt:", Parts[2].rtrim('/').str(), 0, LineNo});
  }
}

/// Checks one fixture folder; appends failures, returns the expectations.
/// Exempt annotations must meet a finding an exemption covers, and every
/// exempted finding must be annotated; records the exemptions used.
void checkExempted(const Rule &R, const std::string &Dir, const std::vector<Finding> &Exempted,
                   const std::vector<Expectation> &Expected, std::vector<std::string> &Failures,
                   std::set<std::string> &Used) {
  auto Covers = [](const Expectation &E, const Finding &F) {
    return E.Exempt && E.File == F.File && E.Line == F.Line;
  };
  for (const Expectation &E : Expected) {
    if (!E.Exempt)
      continue;
    if (llvm::none_of(Exempted, [&](const Finding &F) { return Covers(E, F); }))
      Failures.push_back(Dir + "/" + E.File + (E.Line ? ":" + std::to_string(E.Line) : "") +
                         ": expected a finding of " + R.Id +
                         " that an exemption covers here, got none");
  }
  for (const Finding &F : Exempted) {
    Used.insert(F.Exemption);
    if (llvm::none_of(Expected, [&](const Expectation &E) { return Covers(E, F); }))
      Failures.push_back(Dir + "/" + F.File + (F.Line ? ":" + std::to_string(F.Line) : "") +
                         ": finding exempted by '" + F.Exemption +
                         "' (annotate it with exempt: " + R.Id + "): " + F.Message);
  }
}

llvm::Expected<std::vector<Expectation>> runFixture(const Rule &R, const std::string &Dir,
                                                    std::vector<std::string> &Failures,
                                                    std::set<std::string> &UsedExemptions) {
  std::vector<Expectation> Expected;
  llvm::Expected<Repository> Repo = Repository::open(Dir);
  if (!Repo) {
    Failures.push_back(Dir + ": " + llvm::toString(Repo.takeError()));
    return Expected;
  }
  for (const std::string &File : Repo->files()) {
    std::optional<std::string> Text = Repo->text(File);
    if (!Text)
      continue;
    if (File == ExpectFile)
      expectationsIn(*Text, R.Id, Expected, Failures, Dir + "/" + File);
    else
      annotationsIn(*Text, File, R.Id, Expected);
  }
  llvm::Expected<AuditResult> Result = auditRepository(*Repo, {R});
  if (!Result)
    return Result.takeError();
  std::vector<Finding> Exempted;
  for (const Finding &F : Result->Exempted)
    if (F.Id == R.Id)
      Exempted.push_back(F);
  checkExempted(R, Dir, Exempted, Expected, Failures, UsedExemptions);
  std::vector<const Finding *> Fired;
  for (const Finding &F : Result->Findings)
    if (F.Id == R.Id && F.State != FindingState::Suppressed && F.File != ExpectFile)
      Fired.push_back(&F);
  auto FiredAt = [&](const Expectation &E) {
    return llvm::find_if(Fired, [&](const Finding *F) {
      return F->File == E.File && (F->Line == E.Line || (E.Line == 0 && !E.Fire));
    });
  };
  std::set<const Finding *> Explained;
  for (const Expectation &E : Expected) {
    auto It = FiredAt(E);
    std::string Where = Dir + "/" + E.File + (E.Line ? ":" + std::to_string(E.Line) : "");
    if (E.Fire && It == Fired.end())
      Failures.push_back(Where + ": expected " + R.Id + " here, got no finding");
    else if (!E.Fire && It != Fired.end())
      Failures.push_back(Where + ": " + R.Id + " fired on a place marked " +
                         (E.Exempt ? "exempt" : "ok") + ": " + (*It)->Message);
    for (const Finding *F : Fired)
      if (E.Fire && F->File == E.File && F->Line == E.Line)
        Explained.insert(F);
  }
  for (const Finding *F : Fired)
    if (!Explained.count(F) && llvm::none_of(Expected, [&](const Expectation &E) {
          return !E.Fire && E.File == F->File && (E.Line == F->Line || E.Line == 0);
        }))
      Failures.push_back(Dir + "/" + F->File + (F->Line ? ":" + std::to_string(F->Line) : "") +
                         ": unexpected " + R.Id + " finding (annotate it with ruleid: " + R.Id +
                         " if it is meant): " + F->Message);
  return Expected;
}

} // namespace

std::string resolveFixture(const Rule &R, const std::string &Entry) {
  llvm::StringRef Folder = llvm::sys::path::parent_path(R.Origin);
  std::string UnderTests = (Folder + "/tests/" + Entry).str();
  if (llvm::sys::fs::is_directory(UnderTests))
    return llvm::StringRef(UnderTests).rtrim('/').str();
  return llvm::StringRef((Folder + "/" + Entry).str()).rtrim('/').str();
}

llvm::Expected<std::vector<RuleTestOutcome>> runRuleTests(const std::vector<Rule> &Rules) {
  std::vector<RuleTestOutcome> Outcomes;
  for (const Rule &R : Rules) {
    RuleTestOutcome Outcome{R.Id, R.Origin, 0, {}};
    std::string Here = R.Origin + ":" + std::to_string(R.Line);
    if (R.Tests.empty())
      Outcome.Failures.push_back(Here + ": rule has no tests; list fixture folders under 'tests'");
    unsigned Fires = 0, Oks = 0;
    std::set<std::string> UsedExemptions;
    for (const std::string &Entry : R.Tests) {
      std::string Dir = resolveFixture(R, Entry);
      if (!llvm::sys::fs::is_directory(Dir)) {
        Outcome.Failures.push_back(Here + ": fixture folder '" + Dir + "' does not exist");
        continue;
      }
      auto Expected = runFixture(R, Dir, Outcome.Failures, UsedExemptions);
      if (!Expected)
        return Expected.takeError();
      for (const Expectation &E : *Expected)
        if (!E.Exempt)
          ++(E.Fire ? Fires : Oks);
      Outcome.Expectations += Expected->size();
    }
    if (!R.Tests.empty() && (Fires == 0 || Oks == 0))
      Outcome.Failures.push_back(Here + ": fixtures need at least one 'ruleid: " + R.Id +
                                 "' and one 'ok: " + R.Id + "' annotation (found " +
                                 std::to_string(Fires) + " and " + std::to_string(Oks) + ")");
    // An exemption nothing exercises is a claim about the spec no fixture backs.
    for (const Exemption &E : R.Exemptions)
      if (!UsedExemptions.count(E.Id))
        Outcome.Failures.push_back(R.Origin + ":" + std::to_string(E.Line) + ": exemption '" +
                                   E.Id +
                                   "' covers no finding in the fixtures; add a fixture line "
                                   "annotated 'exempt: " +
                                   R.Id + "'");
    Outcomes.push_back(std::move(Outcome));
  }
  return Outcomes;
}

} // namespace opmig::audit
