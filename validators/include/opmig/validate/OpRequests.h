//===- OpRequests.h - A spec's op as concrete cases for the harness -*- C++ -*-===//
//
// The layers after import run python/op_harness.py over concrete cases: a
// size for every dim, a dtype for every tensor input, a value for every
// scalar. This turns one op of the validation spec into that request, so the
// harness neither reads the spec nor evaluates a constraint:
//
//   cases      the spec's cases, one per dtype they run for, plus an
//              odd-sized twin of the first when no case has an odd dim;
//              when the spec gives none, those read from the upstream
//              tests and those generated from the code (GeneratedCases.h),
//              each with its `origin`;
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
#include "opmig/validate/GeneratedCases.h"

#include <string>

namespace opmig::validate {

/// The op's part of a harness request (op_harness.py's OP). `Missing` says
/// which parts the spec leaves `TODO` that the layers need (empty when none).
struct OpRequest {
  nlohmann::json Op;
  std::string Missing;
  /// Where the cases came from when the spec gives none (`the spec gives no
  /// cases: 2 from upstream tests, 4 generated from the code (eps = ...)`);
  /// empty when they are the spec's.
  std::string CasesFrom;
  /// What generating cases from the code needs that the spec lacks.
  std::string Generated;
  /// What the upstream tests gave (UpstreamTestCases.h's summary: which
  /// calls were read and why each gave no case); empty without them.
  std::string FromTests;
};

/// `FromTests`, the cases read from the upstream tests (UpstreamTestCases.h),
/// are used, with those generated from the code, only when the spec gives
/// no case: a case the user wrote always wins.
OpRequest opRequest(const SpecOp &Op, const std::vector<SourcedCase> &FromTests = {});

/// The dtypes a case runs for when it names none: those of the first input
/// with dtypes of its own, else float32.
std::vector<std::string> defaultCaseDtypes(const SpecOp &Op);

/// Whether a bad case of `Kind` is about shapes (rank, mismatch,
/// constraint): one a fake must reject where the kernel does.
bool isShapeKind(const std::string &Kind);

} // namespace opmig::validate

#endif
