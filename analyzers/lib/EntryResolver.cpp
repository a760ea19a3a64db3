#include "opmig/analyze/EntryResolver.h"

#include "opmig/analyze/Analyzer.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace opmig::analyze {

namespace {

bool isFunctionLike(SymbolKind Kind) {
  return Kind == SymbolKind::Function || Kind == SymbolKind::Kernel || Kind == SymbolKind::Template;
}

/// `b::f` matches `a::b::f` and `b::f`, never `a::xb::f`.
bool matchesQualified(llvm::StringRef Qualified, llvm::StringRef Requested) {
  if (Qualified == Requested)
    return true;
  return Qualified.ends_with(Requested) && Qualified.drop_back(Requested.size()).ends_with("::");
}

/// Host and device parses of a `.cu` both report its registrations.
void sortUnique(std::vector<Location> &Locations) {
  auto Key = [](const Location &L) { return std::tie(L.File, L.Line); };
  llvm::sort(Locations, [&](const Location &A, const Location &B) { return Key(A) < Key(B); });
  Locations.erase(
      std::unique(Locations.begin(), Locations.end(),
                  [&](const Location &A, const Location &B) { return Key(A) == Key(B); }),
      Locations.end());
}

std::string where(const SourceTree &Tree, const std::string &File, unsigned Line) {
  return Tree.relative(File) + ":" + std::to_string(Line);
}

/// Function definitions matching `Name`, grouped by qualified name; an exact
/// qualified match hides longer names that merely end with it.
std::map<std::string, std::vector<std::string>> functionCandidates(const std::string &Name,
                                                                   const TUFacts &Program) {
  std::map<std::string, std::vector<std::string>> ByName;
  for (const auto &[Usr, Sym] : Program.Symbols)
    if (Sym.IsDefinition && isFunctionLike(Sym.Kind) && matchesQualified(Sym.Name, Name))
      ByName[Sym.Name].push_back(Usr);
  if (ByName.count(Name))
    return {{Name, ByName[Name]}};
  return ByName;
}

std::vector<std::string> nearestNames(const std::string &Name,
                                      const std::vector<std::string> &KnownNames) {
  std::string Base = entryBaseName(Name);
  std::vector<std::pair<unsigned, std::string>> Scored;
  for (const std::string &Known : KnownNames)
    Scored.push_back({llvm::StringRef(Known).edit_distance(Base), Known});
  std::sort(Scored.begin(), Scored.end());
  std::vector<std::string> Nearest;
  for (const auto &[Distance, Known] : Scored) {
    if (Nearest.size() == 3 || Distance > std::max<size_t>(3, Base.size() / 2))
      break;
    Nearest.push_back(Known);
  }
  return Nearest;
}

llvm::Expected<EntryMatch> resolveThroughRegistration(const std::string &Requested,
                                                      const TUFacts &Program,
                                                      const SourceTree &Tree) {
  auto [Ns, Op] = llvm::StringRef(Requested).rsplit("::");
  if (Op.empty())
    std::swap(Ns, Op);
  EntryMatch Match;
  for (const RegistrationFact &Reg : Program.Registrations) {
    if (Reg.OpName != Op || (!Ns.empty() && Reg.Namespace != Ns))
      continue;
    Match.RegistrationFiles.insert(Reg.File);
    Match.Entry.RegisteredAt.push_back({Tree.relative(Reg.File), Reg.Line});
    if (Reg.Function.empty())
      continue; // A schema-only def; the impl names the function.
    const SymbolFact &Fn = Program.Symbols.at(Reg.Function);
    if (!Match.Usrs.empty() && Match.Entry.Function != Fn.Name)
      return inputError("op '", Requested, "' is bound to two functions: ", Match.Entry.Function,
                        " and ", Fn.Name, " (", where(Tree, Reg.File, Reg.Line),
                        "); name the C++ function as the entry", inputs::Entries, " instead");
    Match.Entry.Function = Fn.Name;
    Match.Entry.Via = Reg.Via;
    Match.Entry.Loc = {Tree.relative(Fn.File), Fn.Line};
    if (Match.Usrs.empty())
      Match.Usrs.push_back(Reg.Function);
  }
  sortUnique(Match.Entry.RegisteredAt);
  if (Match.Usrs.empty() && !Match.Entry.RegisteredAt.empty())
    return inputError("op '", Requested, "' is declared at ", Match.Entry.RegisteredAt[0].File, ":",
                      std::to_string(Match.Entry.RegisteredAt[0].Line),
                      " but no registration binds it to a named C++ function (a lambda?); "
                      "name the C++ function it calls as the entry",
                      inputs::Entries);
  return Match;
}

/// The schema of a torch `def` of an op bound to the entry, where the
/// upstream wrote one (the `impl` binding the function often comes apart).
void addUpstreamSchema(EntryMatch &Match, const TUFacts &Program, const SourceTree &Tree) {
  std::set<std::pair<std::string, std::string>> Ops;
  for (const RegistrationFact &Reg : Program.Registrations)
    if (Reg.Via == "torch-op" && llvm::is_contained(Match.Usrs, Reg.Function))
      Ops.insert({Reg.Namespace, Reg.OpName});
  for (const RegistrationFact &Reg : Program.Registrations)
    if (!Reg.Schema.empty() && Ops.count({Reg.Namespace, Reg.OpName})) {
      Match.Entry.UpstreamSchema = Reg.Schema;
      Match.Entry.UpstreamSchemaAt = {Tree.relative(Reg.File), Reg.Line};
      return;
    }
}

} // namespace

std::string entryBaseName(const std::string &Requested) {
  llvm::StringRef Name = llvm::StringRef(Requested).rsplit("::").second;
  return Name.empty() ? Requested : Name.str();
}

llvm::Expected<EntryMatch> resolveEntry(const std::string &Requested, const TUFacts &Program,
                                        const SourceTree &Tree,
                                        const std::vector<std::string> &KnownNames) {
  std::string Name = llvm::StringRef(Requested).trim().ltrim(':').str();
  auto Candidates = functionCandidates(Name, Program);
  if (Candidates.size() > 1) {
    std::string List;
    for (const auto &[Qualified, Usrs] : Candidates) {
      const SymbolFact &Sym = Program.Symbols.at(Usrs.front());
      List += "\n  " + Qualified + " (" + where(Tree, Sym.File, Sym.Line) + ")";
    }
    return inputError("entry '", Requested,
                      "' is ambiguous; pass one of these qualified names:", List);
  }
  if (Candidates.size() == 1) {
    EntryMatch Match;
    Match.Usrs = Candidates.begin()->second;
    const SymbolFact &Sym = Program.Symbols.at(Match.Usrs.front());
    Match.Entry = {Requested, Sym.Name, "function", {Tree.relative(Sym.File), Sym.Line},
                   {},        {},       {},         {}};
    for (const RegistrationFact &Reg : Program.Registrations)
      if (llvm::is_contained(Match.Usrs, Reg.Function)) {
        Match.RegistrationFiles.insert(Reg.File);
        Match.Entry.RegisteredAt.push_back({Tree.relative(Reg.File), Reg.Line});
      }
    sortUnique(Match.Entry.RegisteredAt);
    addUpstreamSchema(Match, Program, Tree);
    return Match;
  }
  auto ViaOp = resolveThroughRegistration(Name, Program, Tree);
  if (!ViaOp || !ViaOp->Usrs.empty()) {
    if (ViaOp) {
      ViaOp->Entry.Requested = Requested;
      addUpstreamSchema(*ViaOp, Program, Tree);
    }
    return ViaOp;
  }
  std::string Hint;
  for (const std::string &Near : nearestNames(Name, KnownNames))
    Hint += (Hint.empty() ? "; nearest names: " : ", ") + Near;
  return inputError("entry '", Requested, "' names no function or registered op under '", Tree.Root,
                    "'", Hint.empty() ? "; check the spelling" : Hint);
}

} // namespace opmig::analyze
