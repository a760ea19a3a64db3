//===- UpstreamTestCases.h - Cases from the upstream tree's tests -*- C++ -*-===//
//
// With `--source`, the upstream tree's pytest files are a source of real
// shapes: python/upstream_tests.py reads, with `ast`, the calls of each op
// (by its name and its upstream function's) and the literal shapes of the
// tensors passed to them; this maps each reading onto the spec's dims
// (ranks, shared dims and literal sizes must agree, every dim must get a
// size) and keeps those that satisfy the constraints, as cases marked
// `from upstream test <path>:<line>`. Like the cases generated from the
// code, they are used only when the spec gives none (OpRequests.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_UPSTREAMTESTCASES_H
#define OPMIG_VALIDATE_UPSTREAMTESTCASES_H

#include "nlohmann/json.hpp"
#include "opmig/support/ValidationSpec.h"
#include "opmig/validate/GeneratedCases.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::validate {

/// What the upstream tests say of one op: how many calls were seen, how
/// many gave shapes, and the readings (upstream_tests.py's `found`).
struct UpstreamTestCalls {
  unsigned Calls = 0;
  unsigned WithShapes = 0;
  nlohmann::json Found = nlohmann::json::array();
  /// The calls no shape was read from, each with why
  /// (`{"path", "line", "why"}`).
  nlohmann::json Unread = nlohmann::json::array();
};

struct UpstreamTests {
  unsigned Files = 0; ///< Test files that name one of the ops.
  std::map<std::string, UpstreamTestCalls> Ops;
};

/// Reads the tests under `Root` for each op of `NamesOf` (op -> the names
/// it is called by), with `Python`.
llvm::Expected<UpstreamTests>
readUpstreamTests(const std::string &Python, const std::string &Root,
                  const std::map<std::string, std::vector<std::string>> &NamesOf);

/// upstream_tests.py's answer, parsed.
llvm::Expected<UpstreamTests> parseUpstreamTestsAnswer(llvm::StringRef Answer);

struct CasesFromTests {
  std::vector<SourcedCase> Cases;
  /// `4 calls of rms_norm seen in 2 test files, 3 gave shapes: 2 cases
  /// kept (1 breaks `hidden % 8 == 0`)`.
  std::string Summary;
};

/// The readings of `Calls` that fit `Op`'s shapes and constraints, as
/// cases (at most MaxTestCases, the first dtype each).
CasesFromTests casesFromTests(const SpecOp &Op, const UpstreamTestCalls &Calls, unsigned Files);

inline constexpr unsigned MaxTestCases = 8;

} // namespace opmig::validate

#endif
