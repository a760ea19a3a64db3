#include "opmig/migrate/MigrationPlan.h"

#include "CppNames.h"
#include "opmig/migrate/FileLayout.h"
#include "opmig/migrate/Migrator.h"
#include "opmig/migrate/TemplateRenderer.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

namespace opmig::migrate {

namespace {

bool isIdentifier(llvm::StringRef Name) {
  return !Name.empty() && (llvm::isAlpha(Name.front()) || Name.front() == '_') &&
         llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

/// `a::b`, each component an identifier that is no keyword.
bool isQualifiedName(llvm::StringRef Name) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Name.split(Parts, "::");
  return llvm::all_of(Parts, isNamespaceIdentifier);
}

/// Whether some closure symbol lives in namespace `Ns` (qualified).
bool closureOpens(const analyze::AnalysisResult &Analysis, llvm::StringRef Ns) {
  return llvm::any_of(Analysis.Symbols, [&](const analyze::ClosureSymbol &S) {
    return llvm::StringRef(S.Name).starts_with((Ns + "::").str());
  });
}

/// `a::B<x::y>::c` -> `a`: the first component, outside template arguments.
llvm::StringRef firstComponent(llvm::StringRef Qualified) {
  int Depth = 0;
  for (size_t I = 0; I + 1 < Qualified.size(); ++I) {
    if (Qualified[I] == '<')
      ++Depth;
    else if (Qualified[I] == '>')
      --Depth;
    else if (Depth == 0 && Qualified.substr(I).starts_with("::"))
      return Qualified.take_front(I);
  }
  return "";
}

/// Top-level namespaces that closure symbols live in (a class's members
/// are qualified by the class, which is not a namespace).
std::vector<std::string> closureNamespaces(const analyze::AnalysisResult &Analysis) {
  std::set<std::string> Types, Namespaces;
  for (const analyze::ClosureSymbol &S : Analysis.Symbols) {
    using analyze::SymbolKind;
    // A template that qualifies a name (`Runner::run`) is a class template:
    // a function template has no members.
    if (S.Kind == SymbolKind::Class || S.Kind == SymbolKind::Enum || S.Kind == SymbolKind::Alias ||
        S.Kind == SymbolKind::Template)
      Types.insert(S.Name);
    if (llvm::StringRef First = firstComponent(S.Name); isIdentifier(First))
      Namespaces.insert(First.str());
  }
  std::vector<std::string> Result;
  for (const std::string &N : Namespaces)
    if (!Types.count(N))
      Result.push_back(N);
  return Result;
}

llvm::Expected<std::string> expand(const std::string &Template, const nlohmann::json &Context,
                                   const Profile &P, llvm::StringRef Key) {
  return renderTemplate(Template, Context, P.Name + " profile: " + Key.str());
}

std::string opNameOf(const analyze::ResolvedEntry &Entry) {
  llvm::StringRef Name = Entry.Via == "function" ? Entry.Function : Entry.Requested;
  return Name.rsplit("::").second.empty() ? Name.str() : Name.rsplit("::").second.str();
}

} // namespace

llvm::Error checkDomainName(const std::string &Domain) {
  llvm::StringRef D(Domain);
  bool Valid =
      !D.empty() && D.size() <= 64 && llvm::isLower(D.front()) &&
      llvm::all_of(D, [](char C) { return llvm::isLower(C) || llvm::isDigit(C) || C == '_'; });
  if (Valid && isCppKeyword(D))
    return inputError("invalid domain name '", Domain, "'", inputs::Domain,
                      ": it is a C++ keyword, and the domain becomes a C++ namespace; pick "
                      "another name");
  if (!Valid)
    return inputError("invalid domain name '", Domain, "'", inputs::Domain,
                      ": use a lower-case identifier such as 'attn' or 'fp8_comm' (it becomes a "
                      "folder, a C++ namespace and a Python module name)");
  return llvm::Error::success();
}

llvm::Expected<NamespaceRename> parseNamespaceRename(const std::string &Spec) {
  auto [From, To] = llvm::StringRef(Spec).split('=');
  From.consume_front("::");
  To.consume_front("::");
  if (!isQualifiedName(From) || !isQualifiedName(To))
    return inputError("invalid namespace rename '", Spec, "'", inputs::Renames,
                      ": expected OLD=NEW with C++ namespace names that are no keywords, "
                      "e.g. nunchaku::kernels=svdq::kernels");
  return NamespaceRename{From.str(), To.str()};
}

llvm::Expected<MigrationPlan> planDomain(const Profile &P, const std::string &Domain) {
  if (llvm::Error E = checkDomainName(Domain))
    return E;
  MigrationPlan Plan;
  Plan.Domain = Domain;
  nlohmann::json Context = {
      {"domain", Domain}, {"domain_upper", llvm::StringRef(Domain).upper()}, {"profile", P.Name}};
  struct Field {
    const std::string &Template;
    std::string &Out;
    const char *Key;
  };
  for (Field F : {Field{P.NativeDir, Plan.NativeDir, "native_dir"},
                  Field{P.Namespace, Plan.Namespace, "namespace"},
                  Field{P.OpNamespace, Plan.OpNamespace, "op_namespace"},
                  Field{P.Extension, Plan.Extension, "extension"},
                  Field{P.IncludeRoot, Plan.IncludeRoot, "includes.root"}}) {
    llvm::Expected<std::string> Value = expand(F.Template, Context, P, F.Key);
    if (!Value)
      return Value.takeError();
    F.Out = std::move(*Value);
  }
  Context["native_dir"] = Plan.NativeDir;
  llvm::Expected<std::string> ThirdParty = expand(P.ThirdPartyDir, Context, P, "third_party_dir");
  if (!ThirdParty)
    return ThirdParty.takeError();
  Plan.ThirdPartyDir = std::move(*ThirdParty);
  Plan.Includes = P.Includes;
  return Plan;
}

llvm::Expected<MigrationPlan> planMigration(const analyze::AnalysisResult &Analysis,
                                            const Profile &P, const PlanOptions &Options) {
  llvm::Expected<MigrationPlan> Named = planDomain(P, Options.Domain);
  if (!Named)
    return Named.takeError();
  MigrationPlan Plan = std::move(*Named);

  std::vector<std::string> Ported;
  for (const analyze::ClosureFile &F : Analysis.Files)
    (F.Role == analyze::FileRole::Registration ? Plan.Regenerated : Ported).push_back(F.Path);
  llvm::Expected<std::map<std::string, std::string>> Layout = layoutFiles(Ported, Options.Flatten);
  if (!Layout)
    return Layout.takeError();
  for (const auto &[Up, Below] : *Layout)
    Plan.FileMap[Up] = Plan.NativeDir + "/" + Below;
  Plan.Flattened = Options.Flatten;

  // A rename of a namespace the closure never opens would do nothing.
  for (const NamespaceRename &R : Options.ExplicitRenames)
    if (!closureOpens(Analysis, R.From))
      return inputError("the namespace rename ", R.From, "=", R.To, inputs::Renames,
                        ": the closure opens no namespace '", R.From,
                        "', so nothing would be renamed; namespaces it opens: ",
                        llvm::join(closureNamespaces(Analysis), ", "));
  Plan.Renames = Options.ExplicitRenames;
  for (const std::string &N : closureNamespaces(Analysis))
    if (llvm::none_of(Options.ExplicitRenames,
                      [&](const NamespaceRename &R) { return R.From == N; }))
      Plan.Renames.push_back({N, Plan.Namespace});
  if (P.WrapGlobalNamespace)
    Plan.WrapGlobalInto = Plan.Namespace;

  for (const std::string &Name : Options.Unregistered)
    if (llvm::none_of(Analysis.Entries,
                      [&](const analyze::ResolvedEntry &E) { return E.Requested == Name; }))
      return inputError("the unregistered entry '", Name, "'", inputs::Unregistered,
                        " is not one of the entries", analyze::inputs::Entries,
                        "; name it exactly as the entry was given");
  std::set<std::string> Seen;
  for (const analyze::ResolvedEntry &Entry : Analysis.Entries) {
    if (llvm::is_contained(Options.Unregistered, Entry.Requested)) {
      Plan.Unregistered.push_back(Entry.Function);
      continue;
    }
    PlannedOp Op{opNameOf(Entry), Entry.Function,
                 renamedQualifiedName(Entry.Function, Plan.Renames, Plan.WrapGlobalInto),
                 Entry.Loc.File};
    if (!Seen.insert(Op.Name).second)
      return inputError("two entries register as op '", Op.Name, "'; pass each entry once");
    Plan.Ops.push_back(std::move(Op));
  }
  return Plan;
}

} // namespace opmig::migrate
