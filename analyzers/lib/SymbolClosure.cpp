#include "opmig/analyze/SymbolClosure.h"

#include "opmig/support/SourceFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <deque>

namespace opmig::analyze {

namespace {

class ClosureBuilder {
  /// Included file -> the directives naming it.
  using IncludeMap = std::map<std::string, std::vector<const IncludeFact *>>;

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
    for (const IncludeFact &Include : Program.Includes) {
      if (Include.HasIncludeOnly)
        continue;
      if (!Include.Resolved.empty() && Scope.contains(Include.Resolved))
        IncludesOf[Include.Includer][Include.Resolved].push_back(&Include);
      else
        ExternalsOf[Include.Includer].insert(Include.Resolved.empty() ? Include.Spelling
                                                                      : Include.Resolved);
    }
    for (const auto &[Usr, Sym] : Program.Symbols) {
      if (!Sym.IsDefinition)
        continue;
      DefinitionsIn[Sym.File].push_back(Usr);
      if (isSliceable(Sym))
        SliceableDefinitionsIn[Sym.File].push_back(Usr);
    }
  }

  SymbolClosure run(const std::vector<std::string> &Entries) {
    for (const std::string &Entry : Entries)
      SymbolQueue.push_back(Entry);
    do
      drainQueues();
    while (followDeferredIncludes());
    recordDroppedIncludes();
    return std::move(Result);
  }

private:
  void drainQueues() {
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
  }

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

  /// A definition that comes out of its file when not needed: any linkable
  /// one of a TU, one a header makes every includer emit.
  static bool isSliceable(const SymbolFact &Sym) {
    return isLinkable(Sym.Kind) && (isTranslationUnitName(Sym.File) || Sym.EmittedWhereIncluded);
  }

  void visitFile(const std::string &File) {
    if (NoFollow.count(File))
      return;
    // The includes of a file that may be sliced wait until the symbols it
    // needs are known.
    if (isTranslationUnitName(File) || SliceableDefinitionsIn.count(File))
      Deferred.insert(File);
    else if (auto Includes = IncludesOf.find(File); Includes != IncludesOf.end())
      for (const auto &[Included, Directives] : Includes->second)
        followInclude(File, Included);
    if (auto Refs = Program.FileScopeRefs.find(File); Refs != Program.FileScopeRefs.end())
      SymbolQueue.insert(SymbolQueue.end(), Refs->second.begin(), Refs->second.end());
  }

  void followInclude(const std::string &Includer, const std::string &Included) {
    if (Followed.insert({Includer, Included}).second)
      needFile(Included).IncludedBy.insert(Includer);
  }

  /// Follows the includes each deferred file wants now; true when the
  /// closure grew. A file without siblings is copied whole and wants every
  /// include.
  bool followDeferredIncludes() {
    size_t Before = Followed.size();
    std::set<std::string> Used = usedFiles();
    for (const std::string &File : Deferred) {
      auto Includes = IncludesOf.find(File);
      if (Includes == IncludesOf.end())
        continue;
      if (!definesSiblings(File)) {
        for (const auto &[Included, Directives] : Includes->second)
          followInclude(File, Included);
        continue;
      }
      std::set<std::string> UsedHere = Used;
      addFilesDeclaringRefsOfKept(File, UsedHere);
      for (const std::string &Included : includesUsedBy(File, Includes->second, UsedHere))
        followInclude(File, Included);
    }
    return Followed.size() != Before;
  }

  /// What the definitions that stay in `File` (all but its siblings: inline
  /// functions, classes, templates, needed code) refer to must stay declared.
  void addFilesDeclaringRefsOfKept(const std::string &File, std::set<std::string> &Used) const {
    auto Definitions = DefinitionsIn.find(File);
    if (Definitions == DefinitionsIn.end())
      return;
    for (const std::string &Usr : Definitions->second) {
      const SymbolFact &Sym = Program.Symbols.at(Usr);
      if (isSliceable(Sym) && !Result.Symbols.count(Usr))
        continue;
      for (const std::string &Ref : Sym.Refs)
        addFilesDeclaring(Ref, Used);
    }
  }

  /// The includes of a file with siblings that its kept code uses: those
  /// declaring something it uses, then those through which alone a needed
  /// file (or an external header) is reached.
  std::vector<std::string> includesUsedBy(const std::string &TU, const IncludeMap &Includes,
                                          const std::set<std::string> &Used) {
    std::vector<std::string> Wanted, Declaring, Rest;
    std::set<std::string> Covered, Externals = ExternalsOf[TU];
    auto Want = [&](const std::string &Included) {
      Wanted.push_back(Included);
      const std::set<std::string> &Reached = reach(Included);
      Covered.insert(Reached.begin(), Reached.end());
      addExternalsReached(Included, Externals);
    };
    for (const auto &[Included, Directives] : Includes)
      (Used.count(Included) ? Declaring : Rest).push_back(Included);
    for (const std::string &Included : Declaring)
      Want(Included);
    for (const std::string &Included : Rest) {
      std::set<std::string> Brought;
      addExternalsReached(Included, Brought);
      // Code may rely on an external header only a sibling's header brings.
      bool BringsExternals =
          !std::includes(Externals.begin(), Externals.end(), Brought.begin(), Brought.end());
      bool ReachesUsed = llvm::any_of(reach(Included), [&](const std::string &F) {
        return Used.count(F) && !Covered.count(F);
      });
      if (BringsExternals || ReachesUsed)
        Want(Included);
    }
    return Wanted;
  }

  bool definesSiblings(const std::string &File) const {
    auto It = SliceableDefinitionsIn.find(File);
    return It != SliceableDefinitionsIn.end() &&
           llvm::any_of(It->second,
                        [&](const std::string &Usr) { return !Result.Symbols.count(Usr); });
  }

  /// Adds the files that define or declare `Usr`.
  void addFilesDeclaring(const std::string &Usr, std::set<std::string> &Used) const {
    if (auto It = Program.Symbols.find(Usr); It != Program.Symbols.end()) {
      Used.insert(It->second.File);
      Used.insert(It->second.DeclaredIn.begin(), It->second.DeclaredIn.end());
    }
  }

  /// Files that define or declare a needed symbol.
  std::set<std::string> usedFiles() const {
    std::set<std::string> Used;
    for (const std::string &Usr : Result.Symbols)
      addFilesDeclaring(Usr, Used);
    return Used;
  }

  /// The tree files `Header` includes, itself included, transitively.
  const std::set<std::string> &reach(const std::string &Header) {
    auto [It, Inserted] = Reach.try_emplace(Header);
    if (!Inserted)
      return It->second;
    std::set<std::string> Seen{Header};
    std::vector<std::string> Stack{Header};
    while (!Stack.empty()) {
      std::string File = std::move(Stack.back());
      Stack.pop_back();
      if (auto Includes = IncludesOf.find(File); Includes != IncludesOf.end())
        for (const auto &[Included, Directives] : Includes->second)
          if (Seen.insert(Included).second)
            Stack.push_back(Included);
    }
    It->second = std::move(Seen);
    return It->second;
  }

  void addExternalsReached(const std::string &Header, std::set<std::string> &Out) {
    for (const std::string &File : reach(Header))
      if (auto It = ExternalsOf.find(File); It != ExternalsOf.end())
        Out.insert(It->second.begin(), It->second.end());
  }

  void recordDroppedIncludes() {
    for (const std::string &TU : Deferred) {
      auto Includes = IncludesOf.find(TU);
      if (Includes == IncludesOf.end())
        continue;
      std::set<unsigned> Lines; // The host and device parses both saw each.
      for (const auto &[Included, Facts] : Includes->second)
        for (const IncludeFact *Fact : Facts)
          if (!Result.Files.count(Included) && Lines.insert(Fact->Line).second)
            Result.Files[TU].DroppedIncludes.push_back(*Fact);
    }
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
  /// In-tree includes per includer.
  std::map<std::string, IncludeMap> IncludesOf;
  /// Headers outside the tree each file includes (resolved, or as spelled).
  std::map<std::string, std::set<std::string>> ExternalsOf;
  std::map<std::string, std::vector<std::string>> DefinitionsIn;
  std::map<std::string, std::vector<std::string>> SliceableDefinitionsIn;
  /// Needed files that may be sliced (TUs, headers with emitted
  /// definitions), whose includes are followed later.
  std::set<std::string> Deferred;
  std::set<std::pair<std::string, std::string>> Followed;
  std::map<std::string, std::set<std::string>> Reach;
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
