//===- ValidationCoverage.cpp - Which validation layers have tests --------===//

#include "opmig/audit/ValidationCoverage.h"

#include "PythonAstBridge.h"
#include "TargetFiles.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <deque>
#include <optional>
#include <set>

namespace opmig::audit {

namespace {

/// What a test uses, as the Python helper reported it.
struct TestRecord {
  std::string File;
  std::string Name;                 ///< `path::test`
  std::string Function;             ///< `test_x`, `TestX::test_y`
  std::vector<std::string> Used;    ///< Dotted names and string constants.
  std::vector<std::string> Imports; ///< Modules the file imports.
  bool Placeholder = false;
};

std::vector<std::string> lines(const std::string &Text) {
  llvm::SmallVector<llvm::StringRef> Parts;
  llvm::StringRef(Text).split(Parts, '\n', -1, /*KeepEmpty=*/false);
  return {Parts.begin(), Parts.end()};
}

bool isTestFile(llvm::StringRef Name) {
  return Name.ends_with(".py") && (Name.starts_with("test_") || Name.ends_with("_test.py"));
}

llvm::Expected<std::vector<TestRecord>> readTests(const std::string &Root,
                                                  const std::vector<std::string> &Files) {
  std::vector<std::string> Absolute;
  PythonTask Task{"opmig-review", "test-functions", nlohmann::json::object(), {}};
  for (size_t I = 0; I < Files.size(); ++I) {
    llvm::SmallString<256> Path(Root);
    llvm::sys::path::append(Path, Files[I]);
    Absolute.push_back(std::string(Path));
    Task.Files.push_back(I);
  }
  llvm::Expected<PythonAnswer> Answer = runPythonChecks(Absolute, {Task});
  if (!Answer)
    return Answer.takeError();
  std::vector<TestRecord> Tests;
  for (PythonRecord &R : Answer->Records.front()) {
    TestRecord T{Files[R.File],
                 Files[R.File] + "::" + R.Captures["name"],
                 R.Captures["name"],
                 lines(R.Captures["uses"]),
                 lines(R.Captures["imports"]),
                 !R.Captures["placeholder"].empty()};
    for (std::string &S : lines(R.Captures["strings"]))
      T.Used.push_back(std::move(S));
    Tests.push_back(std::move(T));
  }
  return Tests;
}

/// Globs with `{op}` expanded for each op, compiled once.
class GlobSet {
public:
  GlobSet(const std::vector<std::string> &Globs, const std::vector<std::string> &Ops) {
    for (const std::string &Glob : Globs) {
      size_t At = Glob.find("{op}");
      if (At == std::string::npos)
        add(Glob);
      else
        for (const std::string &Op : Ops)
          add(Glob.substr(0, At) + Op + Glob.substr(At + 4));
    }
  }

  // A copy's globs would refer to the original's texts.
  GlobSet(const GlobSet &) = delete;
  GlobSet &operator=(const GlobSet &) = delete;

  /// Whether a glob matches one of `Names`.
  bool matchesAny(const std::vector<std::string> &Names) const {
    return llvm::any_of(Globs, [&](const llvm::GlobPattern &Glob) {
      return llvm::any_of(Names, [&](const std::string &Name) { return Glob.match(Name); });
    });
  }

private:
  void add(std::string Text) {
    // llvm::GlobPattern keeps a StringRef to its text: a deque never moves
    // its elements. The layers file's globs were validated when it was read.
    llvm::Expected<llvm::GlobPattern> Glob = llvm::GlobPattern::create(Texts.emplace_back(Text));
    if (Glob)
      Globs.push_back(std::move(*Glob));
    else
      llvm::consumeError(Glob.takeError());
  }

  std::deque<std::string> Texts;
  std::vector<llvm::GlobPattern> Globs;
};

/// A layer's globs for the ops of one domain.
struct LayerMatcher {
  LayerMatcher(const ValidationLayer &Layer, const std::vector<std::string> &Ops)
      : Unless(Layer.Unless, Ops), TestNames(Layer.TestNames, {}) {
    for (const std::vector<std::string> &Group : Layer.Requires)
      Requires.emplace_back(Group, Ops);
  }

  /// Whether `Test` covers the layer: a real test by what it uses, a
  /// placeholder (it always skips, so it uses nothing) by its name.
  bool covers(const TestRecord &Test) const {
    if (Test.Placeholder)
      return TestNames.matchesAny({Test.Function});
    return llvm::all_of(Requires,
                        [&](const GlobSet &Group) { return Group.matchesAny(Test.Used); }) &&
           !Unless.matchesAny(Test.Used);
  }

  std::deque<GlobSet> Requires;
  GlobSet Unless, TestNames;
};

/// A test exercises the domain when it calls one of its ops or when its
/// file imports the domain's module (`..._<domain>`, `...<domain>`) or an op.
bool exercisesDomain(const TestRecord &Test, const CoverageInput &Input, const GlobSet &OpCalls) {
  if (OpCalls.matchesAny(Test.Used))
    return true;
  return llvm::any_of(Test.Imports, [&](const std::string &Module) {
    llvm::StringRef Last = llvm::StringRef(Module).rsplit('.').second;
    if (Last.empty())
      Last = Module;
    return Last == Input.Domain || Last == "_" + Input.Domain ||
           llvm::is_contained(Input.Ops, Last);
  });
}

} // namespace

std::string describe(const ValidateEvidence &E, llvm::StringRef ValidateLayer) {
  llvm::StringRef Verb = E.Status == "fail" ? "failed" : E.Status == "skip" ? "skipped" : "passed";
  return "opmig validate (" + E.Report + ") " + Verb.str() + " its " + ValidateLayer.str() +
         " layer";
}

bool LayerCoverage::provedByValidate() const {
  auto Says = [](llvm::StringRef Status) {
    return [Status](const ValidateEvidence &E) { return E.Status == Status; };
  };
  return llvm::any_of(Validate, Says("pass")) && llvm::none_of(Validate, Says("fail"));
}

void addValidateEvidence(std::vector<LayerCoverage> &Coverage,
                         const std::vector<ValidationLayer> &Layers,
                         const std::vector<ValidateReport> &Reports) {
  for (size_t I = 0; I < Coverage.size() && I < Layers.size(); ++I) {
    if (Layers[I].ProvedByValidate.empty())
      continue;
    for (const ValidateReport &Report : Reports)
      if (const ValidateLayerStatus *S = Report.layer(Layers[I].ProvedByValidate))
        Coverage[I].Validate.push_back({Report.Path, S->Status, S->Reason});
  }
}

llvm::Expected<std::vector<LayerCoverage>>
measureCoverage(const CoverageInput &Input, const std::vector<ValidationLayer> &Layers) {
  std::vector<LayerCoverage> Coverage;
  for (const ValidationLayer &Layer : Layers) {
    LayerCoverage &C = Coverage.emplace_back();
    C.Id = Layer.Id;
    C.Title = Layer.Title;
    C.Spec = Layer.Spec;
    C.Required = Input.Spec.empty() || llvm::is_contained(Layer.RequiredBy, Input.Spec);
    C.ProvedByValidate = Layer.ProvedByValidate;
  }
  std::vector<std::string> Files = findTargetFiles(Input.Target, "", Input.Exclude, isTestFile);
  if (Files.empty())
    return Coverage;
  llvm::Expected<std::vector<TestRecord>> Tests = readTests(Input.Target, Files);
  if (!Tests)
    return Tests.takeError();
  GlobSet OpCalls({"{op}", "*.{op}"}, Input.Ops);
  std::set<std::string> DomainFiles;
  for (const TestRecord &Test : *Tests)
    if (exercisesDomain(Test, Input, OpCalls))
      DomainFiles.insert(Test.File);
  std::deque<LayerMatcher> Matchers;
  for (const ValidationLayer &Layer : Layers)
    Matchers.emplace_back(Layer, Input.Ops);
  for (const TestRecord &Test : *Tests) {
    if (!DomainFiles.count(Test.File))
      continue;
    for (size_t I = 0; I < Layers.size(); ++I)
      if (Matchers[I].covers(Test))
        (Test.Placeholder ? Coverage[I].Placeholders : Coverage[I].Tests).push_back(Test.Name);
  }
  return Coverage;
}

} // namespace opmig::audit
