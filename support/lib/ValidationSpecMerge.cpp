//===- ValidationSpecMerge.cpp - A re-run keeps what the user filled ------===//
//
// The derived spec is the code's view now; the previous one holds the
// user's work. Only values marked `user` survive from it: a code-derived
// value the code no longer supports must go, and a TODO the code can now
// answer is answered.
//
//===----------------------------------------------------------------------===//

#include "opmig/support/ValidationSpec.h"

#include "llvm/ADT/STLExtras.h"

namespace opmig {

namespace {

template <typename T> void keepUser(Sourced<T> &Field, const Sourced<T> &Previous) {
  if (Previous.Source == ValueSource::User)
    Field = Previous;
}

void mergeInput(SpecInput &In, const SpecInput &Previous) {
  keepUser(In.Range, Previous.Range);
  // A tensor that became a scalar keeps nothing only tensors have.
  if (!In.IsTensor || !Previous.IsTensor)
    return;
  keepUser(In.Shape, Previous.Shape);
  keepUser(In.Dtypes, Previous.Dtypes);
  keepUser(In.Contiguous, Previous.Contiguous);
  keepUser(In.Device, Previous.Device);
}

void mergeOutputs(std::vector<SpecOutput> &Outputs, const std::vector<SpecOutput> &Previous) {
  for (SpecOutput &Output : Outputs) {
    if (Output.Result)
      continue;
    for (const SpecOutput &Before : Previous)
      if (!Before.Result && Before.Argument == Output.Argument)
        keepUser(Output.InPlace, Before.InPlace);
  }
}

void mergeOp(SpecOp &Op, const SpecOp &Previous) {
  for (SpecInput &In : Op.Inputs)
    if (const SpecInput *Before = Previous.input(In.Name))
      mergeInput(In, *Before);
  for (const Sourced<std::string> &Constraint : Previous.Constraints)
    if (Constraint.Source == ValueSource::User &&
        llvm::none_of(Op.Constraints,
                      [&](const Sourced<std::string> &C) { return C.Value == Constraint.Value; }))
      Op.Constraints.push_back(Constraint);
  mergeOutputs(Op.Outputs, Previous.Outputs);
  keepUser(Op.Reference, Previous.Reference);
  keepUser(Op.Tolerances, Previous.Tolerances);
  keepUser(Op.Cases, Previous.Cases);
  keepUser(Op.UpstreamDiff, Previous.UpstreamDiff);
}

} // namespace

ValidationSpec mergeValidationSpecs(const ValidationSpec &Derived, const ValidationSpec &Previous) {
  ValidationSpec Merged = Derived;
  for (SpecOp &Op : Merged.Ops)
    if (const SpecOp *Before = Previous.op(Op.Name))
      mergeOp(Op, *Before);
  return Merged;
}

} // namespace opmig
