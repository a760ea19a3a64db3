//===- UpstreamTestCases.cpp - Cases from the upstream tree's tests -------===//

#include "opmig/validate/UpstreamTestCases.h"

#include "opmig/support/JsonText.h"
#include "opmig/support/PythonHelper.h"
#include "opmig/support/SpecExpression.h"
#include "opmig/validate/OpRequests.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <set>

namespace opmig::validate {

namespace {

using nlohmann::json;
using Dims = std::map<std::string, int64_t>;

const char *const UpstreamTestsScript =
#include "UpstreamTestsScript.inc"
    ;

/// Parsing every test file of a large tree takes seconds, not minutes.
constexpr unsigned HelperTimeoutSeconds = 300;

std::string plural(size_t N, const std::string &Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

/// The op's input a test's keyword names: by name, or up to a trailing
/// underscore (`bias` for `bias_`, as a wrapper names the op's optional).
const SpecInput *inputNamed(const SpecOp &Op, llvm::StringRef Name) {
  if (const SpecInput *In = Op.input(Name))
    return In;
  if (Name.ends_with("_"))
    return Op.input(Name.drop_back());
  return Op.input((Name + "_").str());
}

/// Binds `In`'s dims to the sizes a test gave it; why it does not fit, or
/// empty.
std::string bindShape(const SpecInput &In, const json &Shape, Dims &D) {
  bool Leading = hasLeadingDims(In.Shape.Value);
  size_t Named = In.Shape.Value.size() - (Leading ? 1 : 0);
  if (!Shape.is_array() || Shape.size() < Named || (!Leading && Shape.size() != Named))
    return In.Name + " has " + std::to_string(Shape.size()) + " dims, the spec says " +
           (Leading ? "at least " : "") + std::to_string(Named);
  for (const json &Size : Shape)
    if (!Size.is_number_integer() || Size.get<int64_t>() < 0)
      return In.Name + " has a size that is no count";
  size_t Extra = Shape.size() - Named;
  if (Extra > 0) {
    // A case gives leading dims one size: the rows they hold together.
    int64_t Rows = 1;
    for (size_t I = 0; I < Extra; ++I)
      Rows *= Shape[I].get<int64_t>();
    auto [It, New] = D.emplace(LeadingDims, Rows);
    if (!New && It->second != Rows)
      return In.Name + "'s leading dims hold " + std::to_string(Rows) + " rows, another's " +
             std::to_string(It->second);
  }
  for (size_t I = Extra; I < Shape.size(); ++I) {
    int64_t Size = Shape[I].get<int64_t>();
    const std::string &Dim = In.Shape.Value[I - Extra + (Leading ? 1 : 0)];
    if (isSizeDim(Dim)) {
      if (std::stoll(Dim) != Size)
        return In.Name + "'s dim " + std::to_string(I) + " is " + std::to_string(Size) +
               ", the code says " + Dim;
      continue;
    }
    auto [It, New] = D.emplace(Dim, Size);
    if (!New && It->second != Size)
      return Dim + " is " + std::to_string(It->second) + " and " + std::to_string(Size);
  }
  return "";
}

/// The dims the spec's known shapes use: those a case must size (a dim
/// only a constraint names sizes no tensor).
std::set<std::string> shapeDims(const SpecOp &Op) {
  std::set<std::string> Names;
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor && In.Shape.known())
      for (const std::string &Dim : In.Shape.Value)
        if (Dim != LeadingDims && !isSizeDim(Dim))
          Names.insert(Dim);
  return Names;
}

/// Whether `Constraint` names a dim `D` does not size.
bool namesUnsizedDim(llvm::StringRef Constraint, const Dims &D) {
  for (size_t I = 0; I < Constraint.size();) {
    if (!llvm::isAlpha(Constraint[I]) && Constraint[I] != '_') {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Constraint.size() && (llvm::isAlnum(Constraint[J]) || Constraint[J] == '_'))
      ++J;
    if (!D.count(Constraint.slice(I, J).str()))
      return true;
    I = J;
  }
  return false;
}

/// The first constraint `D` breaks, or empty; one naming a dim no known
/// shape uses cannot be checked and is not held against it.
std::string brokenConstraint(const SpecOp &Op, const Dims &D) {
  for (const Sourced<std::string> &C : Op.Constraints) {
    if (namesUnsizedDim(C.Value, D))
      continue;
    SpecOp One;
    One.Constraints = {C};
    if (!satisfiesConstraints(One, D))
      return C.Value;
  }
  return "";
}

class ReadingFit {
public:
  ReadingFit(const SpecOp &Op, const json &Reading) : Op(Op), Reading(Reading) {}

  /// Why the reading gives no case of `Op`; empty when `D` and `Scalars`
  /// are that case's.
  std::string fit() {
    const json &Args = Reading["args"];
    for (size_t I = 0; I < Args.size() && I < Op.Inputs.size(); ++I)
      if (std::string Why = take(Op.Inputs[I], Args[I]); !Why.empty())
        return Why;
    for (auto &[Name, Arg] : Reading["kwargs"].items()) {
      const SpecInput *In = inputNamed(Op, Name);
      if (!In)
        return "its keyword `" + Name + "` is no parameter of " + Op.Name;
      if (std::string Why = take(*In, Arg); !Why.empty())
        return Why;
    }
    for (const SpecInput &In : Op.Inputs)
      if (In.IsTensor && !In.Shape.known() && !Shapes.count(In.Name) &&
          !llvm::StringRef(In.Type).ends_with("?"))
        return In.Name + " has no shape in the spec and none was read";
    for (const std::string &Dim : shapeDims(Op))
      if (!D.count(Dim))
        return "it leaves " + Dim + " without a size";
    if (std::string Broken = brokenConstraint(Op, D); !Broken.empty())
      return "it breaks `" + Broken + "`";
    return "";
  }

  Dims D;
  std::map<std::string, double> Scalars;
  /// Shapes read for inputs the spec gives no shape: used as they are.
  std::map<std::string, std::vector<int64_t>> Shapes;

private:
  const SpecOp &Op;
  const json &Reading;

  std::string take(const SpecInput &In, const json &Arg) {
    if (!Arg.is_object())
      return "";
    if (In.IsTensor && Arg.contains("shape") && !In.Shape.known()) {
      for (const json &Size : Arg["shape"])
        if (!Size.is_number_integer() || Size.get<int64_t>() < 0)
          return In.Name + " has a size that is no count";
      Shapes[In.Name] = Arg["shape"].get<std::vector<int64_t>>();
      return "";
    }
    if (In.IsTensor && Arg.contains("shape"))
      return bindShape(In, Arg["shape"], D);
    if (!In.IsTensor && Arg.contains("value") && Arg["value"].is_number())
      Scalars[In.Name] = Arg["value"].get<double>();
    return "";
  }
};

std::string caseName(const json &Reading) {
  std::string Path = Reading.value("path", "");
  std::string Name = "upstream-" + llvm::sys::path::stem(Path).str() + "-" +
                     std::to_string(Reading.value("line", 0));
  if (int Variant = Reading.value("variant", 0); Variant > 0)
    Name += "-" + std::to_string(Variant);
  return Name;
}

} // namespace

llvm::Expected<UpstreamTests> parseUpstreamTestsAnswer(llvm::StringRef Answer) {
  llvm::Expected<json> Parsed = parseJsonText(Answer, "the answer of upstream_tests.py");
  if (!Parsed)
    return Parsed.takeError();
  if (!Parsed->is_object() || !Parsed->contains("ops") || !(*Parsed)["ops"].is_object())
    return llvm::createStringError("upstream_tests.py answered without `ops`");
  UpstreamTests Tests;
  Tests.Files = Parsed->value("files", 0u);
  for (auto &[Op, Read] : (*Parsed)["ops"].items()) {
    UpstreamTestCalls &Calls = Tests.Ops[Op];
    Calls.Calls = Read.value("calls", 0u);
    Calls.WithShapes = Read.value("with_shapes", 0u);
    if (Read.contains("found") && Read["found"].is_array())
      Calls.Found = Read["found"];
    if (Read.contains("unread") && Read["unread"].is_array())
      Calls.Unread = Read["unread"];
  }
  return Tests;
}

llvm::Expected<UpstreamTests>
readUpstreamTests(const std::string &Python, const std::string &Root,
                  const std::map<std::string, std::vector<std::string>> &NamesOf) {
  json Request = {{"root", Root}, {"ops", NamesOf}};
  llvm::Expected<std::string> Answer =
      runPythonHelper(Python, UpstreamTestsScript, {}, Request.dump(), HelperTimeoutSeconds,
                      "the reader of the upstream tests");
  if (!Answer)
    return Answer.takeError();
  return parseUpstreamTestsAnswer(*Answer);
}

namespace {

/// `tests/test_x.py:12`.
std::string callAt(const json &Reading) {
  return Reading.value("path", "") + ":" + std::to_string(Reading.value("line", 0));
}

/// Each call that gave no case, once, with why: the first reading's reason
/// for calls read, the reader's for calls not read (at most a few).
std::string unusableCalls(const std::vector<std::pair<std::string, std::string>> &Why,
                          const json &Unread) {
  std::vector<std::string> Parts;
  for (const auto &[At, Reason] : Why)
    Parts.push_back(At + ": " + Reason);
  for (const json &Call : Unread)
    Parts.push_back(callAt(Call) + ": " + Call.value("why", "no shape read"));
  constexpr size_t Shown = 4;
  std::string Out = llvm::join(llvm::ArrayRef(Parts).take_front(Shown), "; ");
  if (Parts.size() > Shown)
    Out += "; and " + std::to_string(Parts.size() - Shown) + " more";
  return Out;
}

} // namespace

CasesFromTests casesFromTests(const SpecOp &Op, const UpstreamTestCalls &Calls, unsigned Files) {
  CasesFromTests Out;
  std::vector<std::string> Notes, Missing;
  std::map<std::string, double> Defaults = defaultScalars(Op, Notes, Missing);
  std::vector<std::string> Dtypes = defaultCaseDtypes(Op);
  unsigned Unfit = 0, Duplicates = 0;
  std::vector<std::pair<std::string, std::string>> Why;
  std::set<std::string> Kept;
  for (const json &Reading : Calls.Found) {
    ReadingFit Fit(Op, Reading);
    if (std::string Reason = Fit.fit(); !Reason.empty()) {
      ++Unfit;
      if (llvm::none_of(Why, [&](const auto &W) { return W.first == callAt(Reading); }))
        Why.emplace_back(callAt(Reading), Reason);
      continue;
    }
    Kept.insert(callAt(Reading));
    SpecCase Case;
    Case.Name = caseName(Reading);
    Case.Dims = Fit.D;
    Case.Scalars = Defaults;
    for (const auto &[Name, Value] : Fit.Scalars)
      Case.Scalars[Name] = Value;
    Case.Dtypes = {Dtypes.front()};
    bool Seen = llvm::any_of(Out.Cases, [&](const SourcedCase &C) {
      return C.Case.Dims == Case.Dims && C.Case.Scalars == Case.Scalars && C.Shapes == Fit.Shapes;
    });
    if (Seen || Out.Cases.size() >= MaxTestCases) {
      ++Duplicates;
      continue;
    }
    SourcedCase Sourced;
    Sourced.Case = std::move(Case);
    Sourced.Origin = "from upstream test " + callAt(Reading);
    Sourced.Shapes = Fit.Shapes;
    Out.Cases.push_back(std::move(Sourced));
  }
  // A call some of whose readings fit is no unusable call.
  llvm::erase_if(Why, [&](const auto &W) { return Kept.count(W.first) > 0; });
  Out.Summary = plural(Calls.Calls, "call") + " of " + Op.Name + " seen in " +
                plural(Files, "upstream test file") + ", " + std::to_string(Calls.WithShapes) +
                " gave shapes: " + plural(Out.Cases.size(), "case") + " kept";
  if (Unfit)
    Out.Summary += ", " + std::to_string(Unfit) + " reading(s) did not fit the spec";
  if (Duplicates)
    Out.Summary +=
        ", " + std::to_string(Duplicates) + " repeated or over " + std::to_string(MaxTestCases);
  if (!Why.empty() || !Calls.Unread.empty())
    Out.Summary += " (" + unusableCalls(Why, Calls.Unread) + ")";
  return Out;
}

} // namespace opmig::validate
