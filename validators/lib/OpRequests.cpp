//===- OpRequests.cpp - A spec's op as concrete cases for the harness -----===//

#include "opmig/validate/OpRequests.h"

#include "opmig/support/SpecExpression.h"
#include "opmig/validate/GeneratedCases.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstddef>
#include <optional>
#include <set>

namespace opmig::validate {

namespace {

using Dims = std::map<std::string, int64_t>;
using nlohmann::json;

/// Dtypes a bad case tries, in order, for an input that accepts others.
constexpr const char *ForeignDtypes[] = {"float64", "float32", "float16", "bfloat16", "int32"};

const DtypeSet *ownDtypes(const SpecInput &In) {
  return In.Dtypes.known() && In.Dtypes.Value.SameAs.empty() && !In.Dtypes.Value.Names.empty()
             ? &In.Dtypes.Value
             : nullptr;
}

/// Each tensor input's dtype when the case runs for `Dtype`.
json dtypesFor(const SpecOp &Op, const std::string &Dtype) {
  json Chosen = json::object();
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor) {
      const DtypeSet *Own = ownDtypes(In);
      Chosen[In.Name] = !Own || llvm::is_contained(Own->Names, Dtype) ? Dtype : Own->Names.front();
    }
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor && In.Dtypes.known() && !In.Dtypes.Value.SameAs.empty() &&
        Chosen.contains(In.Dtypes.Value.SameAs))
      Chosen[In.Name] = Chosen[In.Dtypes.Value.SameAs];
  return Chosen;
}

/// A scalar's value as its schema type takes it: torch refuses 1.0 for an
/// `int` and 0 for a `bool`.
json typedScalar(const SpecInput &In, double Value) {
  llvm::StringRef Type = llvm::StringRef(In.Type).rtrim("?");
  if (Type == "bool")
    return Value != 0;
  if (Type == "int" || Type == "SymInt")
    return static_cast<int64_t>(Value);
  return Value;
}

json scalarsFor(const SpecOp &Op, const SpecCase &Case) {
  json Scalars = json::object();
  for (const SpecInput &In : Op.Inputs) {
    if (In.IsTensor)
      continue;
    if (auto It = Case.Scalars.find(In.Name); It != Case.Scalars.end())
      Scalars[In.Name] = typedScalar(In, It->second);
    else if (In.Range.known())
      Scalars[In.Name] = typedScalar(In, In.Range.Value.Low);
  }
  return Scalars;
}

json caseJson(const std::string &Name, const Dims &D, json Dtypes, json Scalars) {
  return {
      {"name", Name}, {"dims", D}, {"dtypes", std::move(Dtypes)}, {"scalars", std::move(Scalars)}};
}

/// The first case's dims with each even dim made odd (so no multiple of a
/// warp) where the constraints allow; nullopt when a dim already is odd or
/// none could change.
std::optional<Dims> oddTwin(const SpecOp &Op, const Dims &Base) {
  if (llvm::any_of(Base, [](const auto &Dim) { return Dim.second % 2 == 1; }))
    return std::nullopt;
  Dims Odd = Base;
  bool Changed = false;
  for (auto &[Name, Size] : Odd) {
    int64_t Old = Size;
    Size = Old + 1; // odd, so no multiple of 32 either
    if (satisfiesConstraints(Op, Odd))
      Changed = true;
    else
      Size = Old;
  }
  return Changed ? std::optional<Dims>(Odd) : std::nullopt;
}

/// The tensor input's shape for dims `D`; nullopt without a shape. Leading
/// dims are one dim of `D`'s size for them, or none.
std::optional<std::vector<int64_t>> concreteShape(const SpecInput &In, const Dims &D) {
  if (!In.Shape.known())
    return std::nullopt;
  std::vector<int64_t> Shape;
  for (const std::string &Dim : In.Shape.Value) {
    if (Dim == LeadingDims) {
      if (auto It = D.find(Dim); It != D.end())
        Shape.push_back(It->second);
      continue;
    }
    if (isSizeDim(Dim)) {
      Shape.push_back(std::stoll(Dim));
      continue;
    }
    auto It = D.find(Dim);
    if (It == D.end())
      return std::nullopt;
    Shape.push_back(It->second);
  }
  return Shape;
}

class BadCases {
public:
  BadCases(const SpecOp &Op, const json &Base) : Op(Op), Base(Base) {
    for (auto &[Name, Size] : Base["dims"].items())
      BaseDims[Name] = Size.get<int64_t>();
  }

  json make() {
    for (const SpecInput &In : Op.Inputs)
      if (In.IsTensor)
        forInput(In);
    mismatches();
    emptyTensors();
    constraintBreakers();
    return Cases;
  }

private:
  const SpecOp &Op;
  const json &Base;
  Dims BaseDims;
  json Cases = json::array();

  json &add(const char *Kind, const std::string &Name, const std::string &What,
            const char *Expect = "raise") {
    json Case = Base;
    Case["name"] = Name;
    Case["kind"] = Kind;
    Case["what"] = What;
    Case["expect"] = Expect;
    // A shape the case gives an input the spec leaves without one stays.
    json Kept = json::object();
    if (Base.contains("overrides"))
      for (auto &[Input, Override] : Base["overrides"].items())
        if (Override.contains("shape"))
          Kept[Input]["shape"] = Override["shape"];
    Case["overrides"] = std::move(Kept);
    Cases.push_back(std::move(Case));
    return Cases.back();
  }

  size_t tensorCount() const {
    return llvm::count_if(Op.Inputs, [](const SpecInput &In) { return In.IsTensor; });
  }

  void forInput(const SpecInput &In) {
    if (const DtypeSet *Own = ownDtypes(In))
      for (const char *Dtype : ForeignDtypes)
        if (!llvm::is_contained(Own->Names, Dtype)) {
          json &Case =
              add("dtype", In.Name + "-" + Dtype,
                  In.Name + " as " + Dtype + " (it accepts " + llvm::join(Own->Names, ", ") + ")");
          for (const SpecInput &Other : Op.Inputs)
            if (&Other == &In || (Other.Dtypes.known() && Other.Dtypes.Value.SameAs == In.Name))
              Case["overrides"][Other.Name]["dtype"] = Dtype;
          break;
        }
    std::optional<std::vector<int64_t>> Shape = concreteShape(In, BaseDims);
    // Only a rank the code checks is one the op must enforce: a shape the
    // user wrote may be one example of several (rms_norm takes any rank).
    if (Shape && In.Shape.Source == ValueSource::Code)
      wrongRank(In, *Shape);
    if (Shape && !Shape->empty() && Shape->back() >= 2 && In.Contiguous.known() &&
        In.Contiguous.Value)
      add("layout", In.Name + "-non-contiguous",
          "a non-contiguous " + In.Name)["overrides"][In.Name]["contiguous"] = false;
    if (In.Device.known() && In.Device.Value == "cuda")
      add("device", In.Name + "-on-cpu",
          tensorCount() > 1 ? In.Name + " on the CPU, the others on CUDA"
                            : In.Name + " on the CPU")["overrides"][In.Name]["device"] = "cpu";
  }

  /// One dim more than the code's rank, or one fewer than its least rank
  /// (behind leading dims, any more is right).
  void wrongRank(const SpecInput &In, const std::vector<int64_t> &Shape) {
    std::vector<int64_t> Ranked = Shape;
    std::string Instead = std::to_string(Shape.size());
    if (hasLeadingDims(In.Shape.Value)) {
      size_t Least = In.Shape.Value.size() - 1;
      if (Least == 0)
        return;
      Ranked.erase(Ranked.begin(), Ranked.end() - static_cast<std::ptrdiff_t>(Least - 1));
      Instead = "at least " + std::to_string(Least);
    } else {
      Ranked.insert(Ranked.begin(), 2);
    }
    add("rank", In.Name + "-rank-" + std::to_string(Ranked.size()),
        In.Name + " with " + std::to_string(Ranked.size()) + " dims instead of " +
            Instead)["overrides"][In.Name]["shape"] = Ranked;
  }

  /// A dim two inputs share, one larger for the last of them.
  void mismatches() {
    std::set<std::string> Done;
    for (const std::string &Dim : Op.dimNames()) {
      const SpecInput *Last = nullptr;
      unsigned Users = 0;
      for (const SpecInput &In : Op.Inputs)
        if (In.IsTensor && In.Shape.known() && llvm::is_contained(In.Shape.Value, Dim)) {
          ++Users;
          Last = &In;
        }
      if (Users < 2 || !BaseDims.count(Dim))
        continue;
      Dims Changed = BaseDims;
      ++Changed[Dim];
      std::optional<std::vector<int64_t>> Shape = concreteShape(*Last, Changed);
      if (!Shape)
        continue;
      add("mismatch", Last->Name + "-" + Dim + "-mismatch",
          Last->Name + " with " + Dim + " = " + std::to_string(Changed[Dim]) +
              " where the other inputs have " +
              std::to_string(BaseDims[Dim]))["overrides"][Last->Name]["shape"] = *Shape;
    }
  }

  void emptyTensors() {
    for (const SpecInput &In : Op.Inputs)
      if (In.IsTensor && In.Shape.known())
        for (const std::string &Dim : In.Shape.Value)
          if (!isSizeDim(Dim) && Dim != LeadingDims && BaseDims.count(Dim)) {
            json &Case =
                add("empty", "empty-" + Dim, "empty tensors (" + Dim + " = 0)", "raise-or-return");
            Case["dims"][Dim] = 0;
            return;
          }
  }

  void constraintBreakers() {
    for (const Sourced<std::string> &C : Op.Constraints) {
      llvm::Expected<SpecExpression> E = SpecExpression::parse(C.Value);
      if (!E) {
        llvm::consumeError(E.takeError());
        continue;
      }
      if (std::optional<Dims> Broken = breaking(*E)) {
        json &Case = add("constraint", "breaks-" + std::to_string(&C - Op.Constraints.data() + 1),
                         describe(*Broken) + " breaks `" + C.Value + "`");
        Case["dims"] = *Broken;
      }
    }
  }

  /// Dims near the base case's for which `E` is false.
  std::optional<Dims> breaking(const SpecExpression &E) const {
    for (const std::string &Name : E.names()) {
      auto It = BaseDims.find(Name);
      if (It == BaseDims.end())
        continue;
      int64_t V = It->second;
      for (int64_t Candidate : {V + 1, V - 1, V + 2, V * 2 + 1, int64_t(1), V * 4 + 3}) {
        if (Candidate < 1)
          continue;
        Dims Try = BaseDims;
        Try[Name] = Candidate;
        llvm::Expected<bool> Holds = E.holds(Try);
        if (!Holds) {
          llvm::consumeError(Holds.takeError());
          continue;
        }
        if (!*Holds)
          return Try;
      }
    }
    return std::nullopt;
  }

  std::string describe(const Dims &D) const {
    std::vector<std::string> Changed;
    for (const auto &[Name, Size] : D)
      if (BaseDims.at(Name) != Size)
        Changed.push_back(Name + " = " + std::to_string(Size));
    return llvm::join(Changed, ", ");
  }
};

json inputJson(const SpecInput &In) {
  json J = {{"name", In.Name}, {"type", In.Type}, {"tensor", In.IsTensor}};
  J["shape"] = nullptr;
  if (In.Shape.known()) {
    J["shape"] = json::array();
    for (const std::string &Dim : In.Shape.Value)
      J["shape"].push_back(isSizeDim(Dim) ? json(std::stoll(Dim)) : json(Dim));
  }
  J["contiguous"] = In.Contiguous.known() && In.Contiguous.Value;
  J["range"] = In.Range.known() ? json{In.Range.Value.Low, In.Range.Value.High} : json(nullptr);
  return J;
}

json outputJson(const SpecOutput &Out) {
  if (Out.Result)
    return {{"result", *Out.Result}};
  return {{"argument", Out.Argument}, {"in_place", Out.InPlace.known() && Out.InPlace.Value}};
}

bool specGivesCases(const SpecOp &Op) { return Op.Cases.known() && !Op.Cases.Value.empty(); }

/// The cases the layers run: the spec's; when it gives none, those of the
/// upstream tests, then those generated from the code. Says in `R` where
/// they came from, or what is missing.
std::vector<SourcedCase> chooseCases(const SpecOp &Op, const std::vector<SourcedCase> &FromTests,
                                     OpRequest &R) {
  std::vector<SourcedCase> Chosen;
  if (specGivesCases(Op)) {
    for (const SpecCase &Case : Op.Cases.Value) {
      SourcedCase &Sourced = Chosen.emplace_back();
      Sourced.Case = Case;
    }
    return Chosen;
  }
  Chosen = FromTests;
  GeneratedCases G = generateCases(Op);
  std::vector<std::string> Parts;
  if (!FromTests.empty())
    Parts.push_back(std::to_string(FromTests.size()) + " from upstream tests");
  if (!G.Cases.empty())
    Parts.push_back(std::to_string(G.Cases.size()) + " " + GeneratedOrigin);
  else
    Parts.push_back("none generated from the code (it needs " + G.Missing + ")");
  llvm::append_range(Chosen, G.Cases);
  R.Generated = G.Missing;
  R.CasesFrom = "the spec gives no cases: " + llvm::join(Parts, ", ");
  if (!G.Notes.empty())
    R.CasesFrom += " (" + llvm::join(G.Notes, "; ") + ")";
  return Chosen;
}

json casesJson(const SpecOp &Op, const std::vector<SourcedCase> &Chosen) {
  json Cases = json::array();
  for (const SourcedCase &C : Chosen)
    for (const std::string &Dtype : C.Case.Dtypes.empty() ? defaultCaseDtypes(Op) : C.Case.Dtypes) {
      json Case = caseJson(C.Case.Name + "/" + Dtype, C.Case.Dims, dtypesFor(Op, Dtype),
                           scalarsFor(Op, C.Case));
      if (!C.Origin.empty())
        Case["origin"] = C.Origin;
      for (const auto &[Input, Shape] : C.Shapes)
        Case["overrides"][Input]["shape"] = Shape;
      Cases.push_back(std::move(Case));
    }
  // Generated cases widen themselves; the twin is for the user's.
  if (!specGivesCases(Op))
    return Cases;
  const SpecCase &First = Op.Cases.Value.front();
  if (std::optional<Dims> Odd = oddTwin(Op, First.Dims)) {
    std::string Dtype = First.Dtypes.empty() ? defaultCaseDtypes(Op).front() : First.Dtypes.front();
    Cases.push_back(
        caseJson("odd-sizes/" + Dtype, *Odd, dtypesFor(Op, Dtype), scalarsFor(Op, First)));
  }
  return Cases;
}

std::string missingParts(const SpecOp &Op, const OpRequest &R) {
  std::vector<std::string> Missing;
  if (!specGivesCases(Op))
    Missing.push_back("cases");
  if (!R.Generated.empty()) {
    Missing.push_back(R.Generated);
    return llvm::join(Missing, ", ");
  }
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor && !In.Shape.known() && !llvm::StringRef(In.Type).ends_with("?"))
      Missing.push_back(In.Name + ".shape");
  return llvm::join(Missing, ", ");
}

} // namespace

std::vector<std::string> defaultCaseDtypes(const SpecOp &Op) {
  for (const SpecInput &In : Op.Inputs)
    if (const DtypeSet *Own = ownDtypes(In))
      return Own->Names;
  return {"float32"};
}

OpRequest opRequest(const SpecOp &Op, const std::vector<SourcedCase> &FromTests) {
  OpRequest R;
  json &J = R.Op;
  J = {{"name", Op.Name}, {"schema", Op.Schema}};
  J["inputs"] = json::array();
  for (const SpecInput &In : Op.Inputs)
    J["inputs"].push_back(inputJson(In));
  J["outputs"] = json::array();
  for (const SpecOutput &Out : Op.Outputs)
    J["outputs"].push_back(outputJson(Out));
  J["reference"] = Op.Reference.known() && !Op.Reference.Value.Python.empty()
                       ? json(Op.Reference.Value.Python)
                       : json(nullptr);
  J["tolerances"] = json::object();
  std::map<std::string, Tolerance> Tolerances =
      Op.Tolerances.known() ? Op.Tolerances.Value : defaultTolerances();
  for (const auto &[Dtype, T] : Tolerances)
    J["tolerances"][Dtype] = {{"atol", T.Atol}, {"rtol", T.Rtol}};
  J["cases"] = casesJson(Op, chooseCases(Op, FromTests, R));
  J["bad_cases"] = J["cases"].empty() ? json::array() : BadCases(Op, J["cases"].front()).make();
  R.Missing = missingParts(Op, R);
  return R;
}

bool isShapeKind(const std::string &Kind) {
  return Kind == "rank" || Kind == "mismatch" || Kind == "constraint";
}

} // namespace opmig::validate
