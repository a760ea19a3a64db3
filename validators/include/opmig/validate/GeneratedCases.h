//===- GeneratedCases.h - Cases from the code when the spec has none -*- C++ -*-===//
//
// A freshly migrated op's spec has its shapes, shared dims, literal sizes,
// constraints and dtypes from the code, but `cases: TODO`. That is enough to
// choose sizes: this generates a base case and widened ones, each
// satisfying every constraint,
//
//   base        every dim near 32 (searched where a constraint rules it out);
//   odd         each dim made odd, else no multiple of 32 (`D % 8 == 0`
//               gives 40), where the constraints allow;
//   one-row     the leading dim of the first tensor of rank 2 or more is 1;
//   many-rows   that dim 4096 (or the largest power of two the constraints
//               and an element budget allow);
//
// with a value for each scalar: the low end of its range, else a default
// said in a note. An op with a tensor whose rank the code does not tell
// gets no case, and `Missing` says what to fill instead of a guess.
//
// Generated cases are only used when the spec gives none (OpRequests.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_GENERATEDCASES_H
#define OPMIG_VALIDATE_GENERATEDCASES_H

#include "opmig/support/ValidationSpec.h"

#include <string>
#include <vector>

namespace opmig::validate {

/// What every generated case's `origin` says.
inline constexpr const char *GeneratedOrigin = "generated from the code";

/// A case the spec did not give, and where it came from (`generated from
/// the code`, `from upstream test tests/test_norm.py:12`).
struct SourcedCase {
  SpecCase Case;
  std::string Origin;
  /// Literal shapes of inputs the spec gives no shape (an upstream test's),
  /// sent as the case's shape overrides.
  std::map<std::string, std::vector<int64_t>> Shapes;
};

struct GeneratedCases {
  std::vector<SourcedCase> Cases;
  /// Why there are none: the spec fields to fill (`x.shape (the code tells
  /// no rank)`); empty when there are cases.
  std::string Missing;
  /// Values chosen without the spec saying (`eps = 1e-06: opmig's
  /// default, the spec gives no range`).
  std::vector<std::string> Notes;
};

GeneratedCases generateCases(const SpecOp &Op);

/// The scalars of a case that are not in the spec's cases: each number or
/// bool input's value from its range, else a default, noted in `Notes`;
/// `Missing` gets the inputs no value can be chosen for (`str`, lists).
std::map<std::string, double> defaultScalars(const SpecOp &Op, std::vector<std::string> &Notes,
                                             std::vector<std::string> &Missing);

/// Whether `Dims` satisfies every constraint of `Op` (one that does not
/// parse is not held against it; one that cannot be evaluated is).
bool satisfiesConstraints(const SpecOp &Op, const std::map<std::string, int64_t> &Dims);

} // namespace opmig::validate

#endif
