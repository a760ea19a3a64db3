#include "opmig/analyze/SymbolClosure.h"

#include "llvm/ADT/StringRef.h"

#include <deque>

namespace opmig::analyze {

namespace {

class ClosureBuilder {
public:
  ClosureBuilder(const TUFacts &Program, const TreeScope &Scope,
                 const std::set<std::string> &NoFollow)
      : Program(Program), Scope(Scope), NoFollow(NoFollow) {
    for (const auto &[Usr, Sym] : Program.Symbols)
      if (!Sym.Parent.empty())
        Members[Sym.Parent].push_back(Usr);
    for (const InstantiationFact &Inst : Program.Instantiations) {
      Providers[Inst.Specialization].push_back(&Inst);
      Instantiated.insert(Inst.Template);
    }
    for (const IncludeFact &Include : Program.Includes)
      if (!Include.Resolved.empty() && !Include.HasIncludeOnly)
        IncludesOf[Include.Includer].insert(Include.Resolved);
  }

  SymbolClosure run(const std::vector<std::string> &Entries) {
    for (const std::string &Entry : Entries)
      SymbolQueue.push_back(Entry);
    while (!SymbolQueue.empty() || !FileQueue.empty()) {
      while (!SymbolQueue.empty()) {
        std::string Usr = std::move(SymbolQueue.front());
        SymbolQueue.pop_front();
        visitSymbol(Usr);
      }
      while (!FileQueue.empty()) {
        std::string File = std::move(FileQueue.front());
        FileQueue.pop_front();
        visitFile(File);
      }
    }
    return std::move(Result);
  }

private:
  void visitSymbol(const std::string &Usr) {
    if (!Result.Symbols.insert(Usr).second)
      return;
    auto It = Program.Symbols.find(Usr);
    if (It == Program.Symbols.end())
      return;
    const SymbolFact &Sym = It->second;
    if (Sym.IsDefinition)
      needFile(Sym.File).Defines.insert(Usr);
    else if (!Instantiated.count(Usr))
      Result.MissingDefinitions.insert(Usr);
    // Only the specializations actually used: a per-dtype TU for a dtype
    // the dispatch never reaches stays behind.
    for (const auto &[Specialization, Template] : Sym.Specializations) {
      auto Provided = Providers.find(Specialization);
      if (Provided == Providers.end()) {
        Result.UnprovidedTemplates.insert(Template);
        continue;
      }
      for (const InstantiationFact *Inst : Provided->second) {
        FileNeed &Need = needFile(Inst->File);
        Need.Instantiates.insert(Template);
        Need.Provides.insert(Inst->Name);
      }
    }
    for (const std::string &Ref : Sym.Refs)
      SymbolQueue.push_back(Ref);
    if (!Sym.Parent.empty())
      SymbolQueue.push_back(Sym.Parent);
    // A class comes with all its members: out-of-line definitions of its
    // methods are needed as soon as the class is, virtual or not.
    if (auto Children = Members.find(Usr); Children != Members.end())
      SymbolQueue.insert(SymbolQueue.end(), Children->second.begin(), Children->second.end());
  }

  void visitFile(const std::string &File) {
    if (NoFollow.count(File))
      return;
    if (auto Includes = IncludesOf.find(File); Includes != IncludesOf.end())
      for (const std::string &Included : Includes->second)
        if (Scope.contains(Included))
          needFile(Included).IncludedBy.insert(File);
    if (auto Refs = Program.FileScopeRefs.find(File); Refs != Program.FileScopeRefs.end())
      SymbolQueue.insert(SymbolQueue.end(), Refs->second.begin(), Refs->second.end());
  }

  FileNeed &needFile(const std::string &File) {
    auto [It, Inserted] = Result.Files.try_emplace(File);
    if (Inserted)
      FileQueue.push_back(File);
    return It->second;
  }

  const TUFacts &Program;
  const TreeScope &Scope;
  const std::set<std::string> &NoFollow;
  std::map<std::string, std::vector<std::string>> Members;
  std::map<std::string, std::vector<const InstantiationFact *>> Providers;
  std::set<std::string> Instantiated; ///< Templates with any provider.
  std::map<std::string, std::set<std::string>> IncludesOf;
  std::deque<std::string> SymbolQueue, FileQueue;
  SymbolClosure Result;
};

} // namespace

SymbolClosure computeClosure(const TUFacts &Program, const TreeScope &Scope,
                             const std::vector<std::string> &Entries,
                             const std::set<std::string> &NoFollow) {
  return ClosureBuilder(Program, Scope, NoFollow).run(Entries);
}

} // namespace opmig::analyze
