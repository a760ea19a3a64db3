//===- GeneratedCases.cpp - Cases from the code when the spec has none ----===//

#include "opmig/validate/GeneratedCases.h"

#include "opmig/support/SpecExpression.h"
#include "opmig/validate/OpRequests.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>
#include <sstream>

namespace opmig::validate {

namespace {

using Dims = std::map<std::string, int64_t>;

/// The base case's size for every dim: a warp, small enough for any rank.
constexpr int64_t BaseSize = 32;
/// The row count of `many-rows`, tried first.
constexpr int64_t ManyRows = 4096;
/// No generated tensor holds more elements (64 MiB in float32), so a CPU
/// fake and a GPU smoke stay quick.
constexpr int64_t ElementBudget = int64_t(1) << 24;

/// How many constraints `D` breaks; one that cannot be evaluated counts.
unsigned violations(const SpecOp &Op, const Dims &D) {
  unsigned Count = 0;
  for (const Sourced<std::string> &C : Op.Constraints) {
    llvm::Expected<SpecExpression> E = SpecExpression::parse(C.Value);
    if (!E) {
      llvm::consumeError(E.takeError());
      continue;
    }
    llvm::Expected<bool> Holds = E->holds(D);
    if (!Holds) {
      llvm::consumeError(Holds.takeError());
      ++Count;
    } else if (!*Holds) {
      ++Count;
    }
  }
  return Count;
}

/// The most elements any tensor input has for `D`.
int64_t largestTensor(const SpecOp &Op, const Dims &D) {
  int64_t Largest = 0;
  for (const SpecInput &In : Op.Inputs) {
    if (!In.IsTensor || !In.Shape.known())
      continue;
    int64_t Elements = 1;
    for (const std::string &Dim : In.Shape.Value) {
      int64_t Size = isSizeDim(Dim) ? std::stoll(Dim) : D.count(Dim) ? D.at(Dim) : 1;
      Elements = Size > 0 && Elements > ElementBudget / Size ? ElementBudget + 1 : Elements * Size;
    }
    Largest = std::max(Largest, Elements);
  }
  return Largest;
}

bool acceptable(const SpecOp &Op, const Dims &D) {
  return violations(Op, D) == 0 && largestTensor(Op, D) <= ElementBudget;
}

/// Sizes a dim of the base case tries, most wanted first: powers of two,
/// those tied to the other dims (`a == 2 * b`), then every size up to 2048
/// (`hidden % 48 == 0`).
std::vector<int64_t> baseCandidates(const Dims &D) {
  std::vector<int64_t> Out = {32, 64, 16, 8, 128, 256, 4, 2, 1, 512, 1024, 2048};
  for (const auto &[Name, Size] : D)
    for (int64_t Tied : {Size, Size * 2, Size / 2, Size + 1, Size - 1})
      if (Tied >= 1)
        Out.push_back(Tied);
  for (int64_t Size = 3; Size <= 2048; ++Size)
    Out.push_back(Size);
  return Out;
}

/// Every dim at BaseSize, then moved dim by dim, a few rounds, to whichever
/// size breaks fewer constraints; nullopt when some constraint still breaks.
std::optional<Dims> baseDims(const SpecOp &Op) {
  Dims D;
  for (const std::string &Name : Op.dimNames())
    D[Name] = BaseSize;
  // Leading dims get one dim, so that they hold rows.
  if (llvm::any_of(Op.Inputs, [](const SpecInput &In) { return hasLeadingDims(In.Shape.Value); }))
    D[LeadingDims] = BaseSize;
  for (unsigned Round = 0; Round < 6 && !acceptable(Op, D); ++Round)
    for (auto &[Name, Size] : D) {
      unsigned Best = violations(Op, D);
      int64_t Chosen = Size;
      for (int64_t Candidate : baseCandidates(D)) {
        Size = Candidate;
        if (unsigned V = violations(Op, D); V < Best) {
          Best = V;
          Chosen = Candidate;
        }
      }
      Size = Chosen;
    }
  return acceptable(Op, D) ? std::optional<Dims>(D) : std::nullopt;
}

/// The base case with each dim made odd, else no multiple of 32, the
/// nearest size the constraints allow; nullopt when none changed.
std::optional<Dims> oddDims(const SpecOp &Op, const Dims &Base) {
  Dims D = Base;
  bool Changed = false;
  for (auto &[Name, Size] : D) {
    int64_t Old = Size;
    bool Found = false;
    for (bool WantOdd : {true, false}) {
      for (int64_t Distance = 1; Distance <= Old * 3 + 64 && !Found; ++Distance)
        for (int64_t Candidate : {Old + Distance, Old - Distance}) {
          if (Candidate < 1 || Candidate % 32 == 0 || (WantOdd && Candidate % 2 == 0))
            continue;
          Size = Candidate;
          if ((Found = acceptable(Op, D)))
            break;
        }
      if (Found)
        break;
    }
    if (Found)
      Changed = true;
    else
      Size = Old;
  }
  return Changed ? std::optional<Dims>(D) : std::nullopt;
}

/// The leading dim of the first tensor of rank 2 or more, when it is a name
/// (or leading dims, which a case gives one size).
std::string rowsDim(const SpecOp &Op) {
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor && In.Shape.known() && In.Shape.Value.size() >= 2)
      return isSizeDim(In.Shape.Value.front()) ? "" : In.Shape.Value.front();
  return "";
}

std::optional<Dims> withRows(const SpecOp &Op, const Dims &Base, const std::string &Rows,
                             std::initializer_list<int64_t> Tried) {
  for (int64_t Size : Tried) {
    Dims D = Base;
    D[Rows] = Size;
    if (acceptable(Op, D))
      return D;
  }
  return std::nullopt;
}

bool isOptional(const SpecInput &In) { return llvm::StringRef(In.Type).ends_with("?"); }

/// The required tensor inputs without a shape, said as what to fill.
std::vector<std::string> shapelessInputs(const SpecOp &Op) {
  std::vector<std::string> Out;
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor && !In.Shape.known() && !isOptional(In))
      Out.push_back(In.Name + ".shape (the code tells no rank)");
  return Out;
}

} // namespace

bool satisfiesConstraints(const SpecOp &Op, const Dims &D) { return violations(Op, D) == 0; }

std::map<std::string, double> defaultScalars(const SpecOp &Op, std::vector<std::string> &Notes,
                                             std::vector<std::string> &Missing) {
  std::map<std::string, double> Values;
  for (const SpecInput &In : Op.Inputs) {
    if (In.IsTensor)
      continue;
    llvm::StringRef Type = llvm::StringRef(In.Type).rtrim("?");
    if (In.Range.known()) {
      Values[In.Name] = In.Range.Value.Low;
      continue;
    }
    if (isOptional(In)) // the harness passes None
      continue;
    double Value = 0;
    if (Type == "bool") {
      Value = 0;
    } else if (Type == "float" || Type == "Scalar") {
      // Most float arguments of a kernel without a range are an epsilon
      // or a scale; 1e-6 and 1 keep either one harmless.
      Value = llvm::StringRef(In.Name).contains_insensitive("eps") ? 1e-6 : 1.0;
    } else if (Type == "int" || Type == "SymInt") {
      Value = 1;
    } else {
      Missing.push_back(In.Name + " (a " + In.Type + ": give its value in a case's scalars)");
      continue;
    }
    Values[In.Name] = Value;
    std::ostringstream Shown;
    if (Type == "bool")
      Shown << "false";
    else
      Shown << Value;
    Notes.push_back(In.Name + " = " + Shown.str() + ": opmig's default, the spec gives no range");
  }
  return Values;
}

GeneratedCases generateCases(const SpecOp &Op) {
  GeneratedCases G;
  std::vector<std::string> Missing = shapelessInputs(Op);
  std::map<std::string, double> Scalars = defaultScalars(Op, G.Notes, Missing);
  std::optional<Dims> Base;
  if (Missing.empty() && !(Base = baseDims(Op)))
    Missing.push_back("sizes that satisfy every constraint (none found near " +
                      std::to_string(BaseSize) + ")");
  if (!Missing.empty()) {
    G.Missing = llvm::join(Missing, ", ");
    G.Notes.clear();
    return G;
  }
  std::vector<std::string> Dtypes = defaultCaseDtypes(Op);
  if (llvm::none_of(Op.Inputs, [](const SpecInput &In) { return In.Dtypes.known(); }))
    G.Notes.push_back("dtypes: " + Dtypes.front() + ", opmig's default: the spec gives none");
  auto Add = [&](const std::string &Name, const Dims &D, bool AllDtypes) {
    for (const SourcedCase &Earlier : G.Cases)
      if (Earlier.Case.Dims == D)
        return;
    SourcedCase C;
    C.Case.Name = "generated-" + Name;
    C.Case.Dims = D;
    C.Case.Scalars = Scalars;
    C.Origin = GeneratedOrigin;
    // The widened cases run for the first dtype only: their sizes, not
    // their dtypes, are what they add.
    if (!AllDtypes)
      C.Case.Dtypes = {Dtypes.front()};
    G.Cases.push_back(std::move(C));
  };
  Add("base", *Base, true);
  if (std::optional<Dims> Odd = oddDims(Op, *Base))
    Add("odd", *Odd, false);
  if (std::string Rows = rowsDim(Op); !Rows.empty()) {
    if (std::optional<Dims> One = withRows(Op, *Base, Rows, {1}))
      Add("one-row", *One, false);
    if (std::optional<Dims> Many =
            withRows(Op, *Base, Rows, {ManyRows, ManyRows / 2, ManyRows / 4, ManyRows / 8}))
      if (Many->at(Rows) > Base->at(Rows))
        Add("many-rows", *Many, false);
  }
  return G;
}

} // namespace opmig::validate
