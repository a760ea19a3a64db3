//===- CppChecker.cpp - `cpp` rules on C, C++ and CUDA files --------------===//
//
// Macro checks read raw-lexer invocations (CppMacroScanner.h), lexed once
// per file for all rules; namespace checks read a Clang parse
// (CppDefinitionScanner.h), done only for files a namespace rule covers.
//
// Captures for `message` and `fix`:
//   macro-only-in                {macro} {argument} {dir} {file}
//   macro-unique-argument        {macro} {argument} {others}
//   macro-argument               {macro} {argument}
//   namespace-follows-directory  {name} {kind} {namespace} {actual} {dir} {extension}
//   bindings-from-own-family     {name} {function} {dir} {families} {declared}
//
// `namespace` may name `{extension}`: the extension that hosts the folder,
// from `extensions` (`svdq=svdquant`: csrc/kernels/svdq/ is compiled into
// cache_dit._C_svdquant), else the folder's own name.
//
//===----------------------------------------------------------------------===//

#include "CheckParams.h"
#include "CheckerSupport.h"
#include "Checkers.h"
#include "CppBindingScanner.h"
#include "CppDefinitionScanner.h"
#include "CppMacroScanner.h"
#include "MatchParams.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

namespace opmig::audit {

namespace {

const std::vector<CheckSpec> &cppChecks() {
  static const std::vector<CheckSpec> Checks = {
      {"bindings-from-own-family",
       {{"root", ParamType::String, true}, {"ignore", ParamType::RegexList, false}}},
      {"macro-argument",
       {{"macro", ParamType::String, true},
        {"macros", ParamType::StringList, false},
        {"argument", ParamType::Integer, false},
        {"must-match", ParamType::Regex, true}}},
      {"macro-only-in",
       {{"macro", ParamType::String, true},
        {"macros", ParamType::StringList, false},
        {"allowed", ParamType::GlobList, true, "dir"}}},
      {"macro-unique-argument",
       {{"macro", ParamType::String, true},
        {"macros", ParamType::StringList, false},
        {"argument", ParamType::Integer, false},
        {"ignore", ParamType::RegexList, false}}},
      {"namespace-follows-directory",
       {{"root", ParamType::String, true},
        {"namespace", ParamType::String, true},
        {"allow", ParamType::StringList, false},
        {"extensions", ParamType::StringList, false}}},
  };
  return Checks;
}

bool isCppFile(llvm::StringRef Path) {
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  return llvm::is_contained({".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".cuh", ".h", ".hh",
                             ".hpp", ".hxx", ".inl", ".ipp", ".tcc"},
                            Extension);
}

bool isHeader(llvm::StringRef Path) {
  return llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".cuh"},
                            llvm::sys::path::extension(Path));
}

/// The macros a macro check looks for: `macro` and `macros`.
std::vector<std::string> macrosOf(const Rule &R) {
  std::vector<std::string> Names = listParam(R, "macros");
  Names.insert(Names.begin(), stringParam(R, "macro"));
  return Names;
}

std::string argumentAt(const MacroInvocation &Invocation, unsigned Index) {
  return Index < Invocation.Arguments.size() ? Invocation.Arguments[Index] : "";
}

/// Each file's invocations of the macros rules look for.
using InvocationMap = std::map<std::string, std::vector<MacroInvocation>>;

/// An invocation together with the file it is in.
struct Located {
  const std::string *File;
  const MacroInvocation *Invocation;
};

class CppChecker : public Checker {
public:
  const char *kind() const override { return "cpp"; }

  llvm::Error validate(const Rule &R) const override {
    return validateMatch(R, cppChecks()).takeError();
  }

  llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                    std::vector<Finding> &Out) const override {
    std::vector<const Rule *> MacroRules, NamespaceRules;
    for (const Rule *R : Rules) {
      if (checkName(*R) == "bindings-from-own-family")
        checkBindings(*R, Repo, Out);
      else
        (checkName(*R) == "namespace-follows-directory" ? NamespaceRules : MacroRules).push_back(R);
    }
    InvocationMap Invocations = scanMacros(Repo, MacroRules);
    for (const Rule *R : MacroRules)
      checkMacroRule(*R, Invocations, Out);
    return checkNamespaces(Repo, NamespaceRules, Out);
  }

private:
  /// Lexes each file a macro rule covers once, for the macros of all of them.
  static InvocationMap scanMacros(const Repository &Repo, llvm::ArrayRef<const Rule *> MacroRules) {
    InvocationMap Invocations;
    if (MacroRules.empty())
      return Invocations;
    for (const std::string &File : Repo.files()) {
      if (!isCppFile(File))
        continue;
      llvm::StringSet<> Names;
      for (const Rule *R : MacroRules)
        if (appliesTo(*R, File))
          for (const std::string &Name : macrosOf(*R))
            Names.insert(Name);
      if (Names.empty())
        continue;
      if (std::optional<std::string> Text = Repo.text(File))
        Invocations[File] = scanMacroInvocations(*Text, Names);
    }
    return Invocations;
  }

  /// The invocations of `R`'s macros in the files `R` covers, in file order.
  static std::vector<Located> invocationsFor(const Rule &R, const InvocationMap &Invocations) {
    std::vector<std::string> Macros = macrosOf(R);
    std::vector<Located> Found;
    for (const auto &[File, List] : Invocations) {
      if (!appliesTo(R, File))
        continue;
      for (const MacroInvocation &Invocation : List)
        if (llvm::is_contained(Macros, Invocation.Macro))
          Found.push_back({&File, &Invocation});
    }
    return Found;
  }

  static void checkMacroRule(const Rule &R, const InvocationMap &Invocations,
                             std::vector<Finding> &Out) {
    std::string Check = checkName(R);
    std::vector<Located> Found = invocationsFor(R, Invocations);
    if (Check == "macro-only-in")
      checkOnlyIn(R, Found, Out);
    else if (Check == "macro-unique-argument")
      checkUniqueArgument(R, Found, Out);
    else
      checkArgument(R, Found, Out);
  }

  static void checkOnlyIn(const Rule &R, const std::vector<Located> &Found,
                          std::vector<Finding> &Out) {
    std::vector<std::string> Allowed = listParam(R, "allowed");
    for (const Located &At : Found) {
      std::string Dir = llvm::sys::path::filename(llvm::sys::path::parent_path(*At.File)).str();
      bool Permitted = llvm::any_of(Allowed, [&](const std::string &Pattern) {
        // The glob refers to its text: keep that alive while matching.
        std::string Instantiated = substitute(Pattern, "dir", Dir);
        llvm::Expected<PathGlob> Glob = PathGlob::create(Instantiated);
        if (!Glob) {
          // Validated with a stand-in folder name; a real one with glob
          // syntax in it cannot match anything.
          llvm::consumeError(Glob.takeError());
          return false;
        }
        return Glob->match(*At.File);
      });
      if (Permitted)
        continue;
      Out.push_back(makeFinding(R, *At.File, At.Invocation->Line, At.Invocation->Column,
                                {{"macro", At.Invocation->Macro},
                                 {"argument", argumentAt(*At.Invocation, 0)},
                                 {"dir", Dir},
                                 {"file", *At.File}}));
    }
  }

  static void checkUniqueArgument(const Rule &R, const std::vector<Located> &Found,
                                  std::vector<Finding> &Out) {
    unsigned Index = integerParam(R, "argument");
    std::vector<llvm::Regex> Ignored;
    for (const std::string &Pattern : listParam(R, "ignore"))
      Ignored.push_back(compileRegex(Pattern));
    std::map<std::string, std::vector<const Located *>> ByArgument;
    for (const Located &At : Found) {
      std::string Argument = argumentAt(*At.Invocation, Index);
      if (!llvm::any_of(Ignored, [&](llvm::Regex &Re) { return Re.match(Argument); }))
        ByArgument[Argument].push_back(&At);
    }
    for (const auto &[Argument, Group] : ByArgument) {
      if (Group.size() < 2)
        continue;
      for (const Located *At : Group) {
        std::vector<std::string> Others;
        for (const Located *Other : Group)
          if (Other != At)
            Others.push_back(*Other->File + ":" + std::to_string(Other->Invocation->Line));
        Out.push_back(makeFinding(R, *At->File, At->Invocation->Line, At->Invocation->Column,
                                  {{"macro", At->Invocation->Macro},
                                   {"argument", Argument},
                                   {"others", llvm::join(Others, ", ")}}));
      }
    }
  }

  static void checkArgument(const Rule &R, const std::vector<Located> &Found,
                            std::vector<Finding> &Out) {
    unsigned Index = integerParam(R, "argument");
    llvm::Regex MustMatch = compileRegex(stringParam(R, "must-match"));
    for (const Located &At : Found) {
      // An invocation without that argument does not compile; the compiler
      // says so better than a policy rule.
      if (Index >= At.Invocation->Arguments.size())
        continue;
      const std::string &Argument = At.Invocation->Arguments[Index];
      if (MustMatch.match(Argument))
        continue;
      Out.push_back(makeFinding(R, *At.File, At.Invocation->Line, At.Invocation->Column,
                                {{"macro", At.Invocation->Macro}, {"argument", Argument}}));
    }
  }

  /// Where each function is declared: name -> family -> first `file:line`.
  using Declarations = std::map<std::string, std::map<std::string, std::string>>;

  /// The functions every file under `root` declares, by family.
  static Declarations declarationsUnder(const Rule &R, const Repository &Repo) {
    Declarations Found;
    for (const std::string &File : Repo.files()) {
      std::string Family = domainOf(R, File);
      if (Family.empty() || !isCppFile(File))
        continue;
      if (std::optional<std::string> Text = Repo.text(File))
        for (const DeclaredFunction &D : scanDeclaredFunctions(*Text)) {
          // A header's declaration is the one to cite, over a definition.
          auto [It, Inserted] =
              Found[D.Name].try_emplace(Family, File + ":" + std::to_string(D.Line));
          if (!Inserted && isHeader(File) &&
              !isHeader(llvm::StringRef(It->second).rsplit(':').first))
            It->second = File + ":" + std::to_string(D.Line);
        }
    }
    return Found;
  }

  /// bindings-from-own-family: a `.def` in a file of family A binding a
  /// function that only other families declare.
  static void checkBindings(const Rule &R, const Repository &Repo, std::vector<Finding> &Out) {
    std::vector<llvm::Regex> Ignored;
    for (const std::string &Pattern : listParam(R, "ignore"))
      Ignored.push_back(compileRegex(Pattern));
    std::optional<Declarations> Declared;
    for (const std::string &File : Repo.files()) {
      std::string Family = domainOf(R, File);
      if (Family.empty() || !isCppFile(File) || !appliesTo(R, File))
        continue;
      std::optional<std::string> Text = Repo.text(File);
      if (!Text)
        continue;
      for (const BoundFunction &Bound : scanBoundFunctions(*Text)) {
        if (llvm::any_of(Ignored, [&](llvm::Regex &Re) { return Re.match(Bound.Target); }))
          continue;
        if (!Declared)
          Declared = declarationsUnder(R, Repo);
        auto It = Declared->find(Bound.Name);
        // Declared nowhere under root (torch, a lambda's helper), or by the
        // binding TU's own family: not judged.
        if (It == Declared->end() || It->second.count(Family))
          continue;
        std::vector<std::string> Families;
        for (const auto &Entry : It->second)
          Families.push_back(Entry.first);
        Out.push_back(makeFinding(R, File, Bound.Line, Bound.Column,
                                  {{"name", Bound.PythonName},
                                   {"function", Bound.Target},
                                   {"dir", Family},
                                   {"families", llvm::join(Families, ", ")},
                                   {"declared", It->second.begin()->second}}));
      }
    }
  }

  /// The folder under `root` that `File` is in (`attn` for
  /// `csrc/kernels/attn/x.cu`), or "" when it is not in one.
  static std::string domainOf(const Rule &R, llvm::StringRef File) {
    std::string Root = llvm::StringRef(stringParam(R, "root")).rtrim('/').str() + "/";
    if (!File.starts_with(Root))
      return "";
    auto [Dir, Rest] = File.drop_front(Root.size()).split('/');
    return Rest.empty() ? "" : Dir.str();
  }

  static llvm::Error checkNamespaces(const Repository &Repo,
                                     llvm::ArrayRef<const Rule *> NamespaceRules,
                                     std::vector<Finding> &Out) {
    if (NamespaceRules.empty())
      return llvm::Error::success();
    llvm::Expected<std::string> Root = absoluteRoot(Repo);
    if (!Root)
      return Root.takeError();
    std::vector<std::string> Files, Paths;
    std::vector<std::vector<const Rule *>> RulesOf;
    // The rules' roots are the include roots of the code under them
    // (`#include "attn/x.cuh"` in csrc/kernels/attn/).
    std::set<std::string> IncludeDirs;
    for (const Rule *R : NamespaceRules)
      IncludeDirs.insert(*Root + "/" + llvm::StringRef(stringParam(*R, "root")).rtrim('/').str());
    for (const std::string &File : Repo.files()) {
      if (!isCppFile(File))
        continue;
      std::vector<const Rule *> Applicable;
      for (const Rule *R : NamespaceRules)
        if (appliesTo(*R, File) && !domainOf(*R, File).empty())
          Applicable.push_back(R);
      if (Applicable.empty())
        continue;
      Files.push_back(File);
      Paths.push_back(*Root + "/" + File);
      RulesOf.push_back(std::move(Applicable));
    }
    std::vector<std::optional<std::vector<NamespaceScopeDefinition>>> Definitions =
        scanDefinitions(Paths, {IncludeDirs.begin(), IncludeDirs.end()});
    for (size_t I = 0; I < Files.size(); ++I) {
      if (!Definitions[I]) {
        Out.push_back(unparsableFinding(Files[I], 0, 0, "clang could not read the file"));
        continue;
      }
      for (const Rule *R : RulesOf[I])
        checkDefinitions(*R, Files[I], *Definitions[I], Out);
    }
    return llvm::Error::success();
  }

  static void checkDefinitions(const Rule &R, const std::string &File,
                               const std::vector<NamespaceScopeDefinition> &Definitions,
                               std::vector<Finding> &Out) {
    std::string Dir = domainOf(R, File);
    std::string Extension = extensionOf(R, Dir);
    std::string Required =
        substitute(substitute(stringParam(R, "namespace"), "dir", Dir), "extension", Extension);
    std::vector<std::string> Accepted = listParam(R, "allow");
    Accepted.insert(Accepted.begin(), Required);
    for (const NamespaceScopeDefinition &D : Definitions) {
      // An anonymous namespace keeps its enclosing namespace's name.
      std::vector<std::string> Named;
      llvm::copy_if(D.Namespaces, std::back_inserter(Named),
                    [](const std::string &N) { return !N.empty(); });
      std::string Actual = llvm::join(Named, "::");
      bool Inside = llvm::any_of(Accepted, [&](const std::string &Prefix) {
        return Actual == Prefix || llvm::StringRef(Actual).starts_with(Prefix + "::");
      });
      if (Inside)
        continue;
      std::string Described = Actual.empty() ? "the global namespace" : "namespace " + Actual;
      if (Named.size() != D.Namespaces.size())
        Described += " (in an anonymous namespace)";
      Out.push_back(makeFinding(R, File, D.Line, D.Column,
                                {{"name", D.Name},
                                 {"kind", D.Kind},
                                 {"namespace", Required},
                                 {"actual", Described},
                                 {"dir", Dir},
                                 {"extension", Extension}}));
    }
  }

  /// The extension hosting folder `Dir` (`extensions` entries `dir=ext`).
  static std::string extensionOf(const Rule &R, const std::string &Dir) {
    for (const std::string &Entry : listParam(R, "extensions")) {
      auto [From, To] = llvm::StringRef(Entry).split('=');
      if (From == Dir && !To.empty())
        return To.str();
    }
    return Dir;
  }
};

} // namespace

std::unique_ptr<Checker> makeCppChecker() { return std::make_unique<CppChecker>(); }

} // namespace opmig::audit
