//===- OpRequests.h - A spec's op as concrete cases for the harness -*- C++ -*-===//
//
// The layers after import run python/op_harness.py over concrete cases: a
// size for every dim, a dtype for every tensor input, a value for every
// scalar. This turns one op of the validation spec into that request, so the
// harness neither reads the spec nor evaluates a constraint:
//
//   cases      the spec's cases, one per dtype they run for, plus an
//              odd-sized twin of the first when no case has an odd dim;
//   bad_cases  inputs the op must reject, made from the first case: each
//              tensor with a dtype it does not accept, one more dim (where
//              the code checks the rank), a dim that disagrees with another
//              input's, a non-contiguous view, the CPU instead of CUDA,
//              empty tensors, and dims that break each constraint; each
//              with its `kind` (dtype, rank, mismatch, layout, device,
//              empty, constraint): the fake layer takes the shape kinds.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_OPREQUESTS_H
#define OPMIG_VALIDATE_OPREQUESTS_H

#include "nlohmann/json.hpp"
#include "opmig/support/ValidationSpec.h"

#include <string>

namespace opmig::validate {

/// The op's part of a harness request (op_harness.py's OP). `Missing` says
/// which parts the spec leaves `TODO` that the layers need (empty when none).
struct OpRequest {
  nlohmann::json Op;
  std::string Missing;
};

OpRequest opRequest(const SpecOp &Op);

/// Whether a bad case of `Kind` is about shapes (rank, mismatch,
/// constraint): one a fake must reject where the kernel does.
bool isShapeKind(const std::string &Kind);

} // namespace opmig::validate

#endif
