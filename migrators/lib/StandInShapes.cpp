//===- StandInShapes.cpp - Tensor shapes that pass a fake's checks --------===//

#include "StandInShapes.h"

#include "opmig/support/SpecExpression.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig::migrate {

namespace {

/// The constraints the code told, parsed; one that does not parse checks
/// nothing in the fake either.
std::vector<SpecExpression> codeConstraints(const SpecOp &Op) {
  std::vector<SpecExpression> Parsed;
  for (const Sourced<std::string> &Constraint : Op.Constraints) {
    if (Constraint.Source != ValueSource::Code)
      continue;
    if (llvm::Expected<SpecExpression> E = SpecExpression::parse(Constraint.Value))
      Parsed.push_back(std::move(*E));
    else
      llvm::consumeError(E.takeError());
  }
  return Parsed;
}

/// Whether each constraint holds with every name at `Size`; one that cannot
/// be evaluated (an overflow) is not held against it.
bool holdAt(const std::vector<SpecExpression> &Constraints, int64_t Size) {
  for (const SpecExpression &Constraint : Constraints) {
    std::map<std::string, int64_t> Dims;
    for (const std::string &Name : Constraint.names())
      Dims[Name] = Size;
    llvm::Expected<bool> Holds = Constraint.holds(Dims);
    if (!Holds) {
      llvm::consumeError(Holds.takeError());
      continue;
    }
    if (!*Holds)
      return false;
  }
  return true;
}

std::vector<int64_t> shapeOf(const SpecInput &In, int64_t NamedSize) {
  if (In.Shape.Source != ValueSource::Code)
    return {2, 3, 4, 5};
  std::vector<int64_t> Shape;
  for (const std::string &Dim : In.Shape.Value) {
    int64_t Literal = 0;
    Shape.push_back(isSizeDim(Dim) && !llvm::StringRef(Dim).getAsInteger(10, Literal) ? Literal
                                                                                      : NamedSize);
  }
  return Shape;
}

} // namespace

std::optional<std::map<std::string, std::vector<int64_t>>> standInShapes(const SpecOp &Op) {
  std::vector<SpecExpression> Constraints = codeConstraints(Op);
  for (int64_t Size = 4; Size <= 256; Size *= 2) {
    if (!holdAt(Constraints, Size))
      continue;
    std::map<std::string, std::vector<int64_t>> Shapes;
    for (const SpecInput &In : Op.Inputs)
      if (In.IsTensor)
        Shapes[In.Name] = shapeOf(In, Size);
    return Shapes;
  }
  return std::nullopt;
}

} // namespace opmig::migrate
