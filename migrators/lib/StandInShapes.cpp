//===- StandInShapes.cpp - Tensor shapes that pass a fake's checks --------===//

#include "StandInShapes.h"

#include "opmig/support/SpecExpression.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig::migrate {

namespace {

bool isSize(llvm::StringRef Dim) { return !Dim.empty() && llvm::all_of(Dim, llvm::isDigit); }

/// Whether every constraint the code told holds with each name at `Size`.
/// One that does not parse or evaluate checks nothing in the fake either.
bool constraintsHold(const SpecOp &Op, int64_t Size) {
  for (const Sourced<std::string> &Constraint : Op.Constraints) {
    if (Constraint.Source != ValueSource::Code)
      continue;
    llvm::Expected<SpecExpression> Parsed = SpecExpression::parse(Constraint.Value);
    if (!Parsed) {
      llvm::consumeError(Parsed.takeError());
      continue;
    }
    std::map<std::string, int64_t> Dims;
    for (const std::string &Name : Parsed->names())
      Dims[Name] = Size;
    llvm::Expected<bool> Holds = Parsed->holds(Dims);
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
    Shape.push_back(isSize(Dim) && !llvm::StringRef(Dim).getAsInteger(10, Literal) ? Literal
                                                                                   : NamedSize);
  }
  return Shape;
}

} // namespace

std::optional<std::map<std::string, std::vector<int64_t>>> standInShapes(const SpecOp &Op) {
  for (int64_t Size = 4; Size <= 256; Size *= 2) {
    if (!constraintsHold(Op, Size))
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
