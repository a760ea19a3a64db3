//===- OpHarness.h - One layer's cases of one op, in child processes -*- C++ -*-===//
//
// python/op_harness.py, compiled in, runs a layer's cases (OpRequests.h) in a
// child process and reports each as it ends. A crash or a hang ends the
// child inside a case: that case fails, named as such (`crashed: Segmentation
// fault`, `the case hung: timed out after 120 s`), and the cases after it run in a new
// child, so one bad case never hides the others. A crash that goes away with
// the libstdc++ preload (HarnessSetup.h) is reported as the environment's.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_OPHARNESS_H
#define OPMIG_VALIDATE_OPHARNESS_H

#include "nlohmann/json.hpp"
#include "opmig/validate/ValidationReport.h"

#include <memory>
#include <string>
#include <vector>

namespace opmig::validate {

class HarnessServers;

/// How the harness' children run: the Python, and the environment they get
/// on top of this process' (LD_PRELOAD where HarnessEnvironment.h applies
/// it).
struct HarnessEnvironment {
  std::string Python;
  std::vector<std::string> Overrides;
  /// When set, a case whose child crashes runs once more with these (the
  /// libstdc++ preload the run was told not to apply): a case that then
  /// survives crashed for its environment, not for its kernel.
  std::vector<std::string> CrashRetry;
  /// The run's torch-importing servers the cases are forked from
  /// (lib/HarnessServer.h); without them each case starts its own Python.
  std::shared_ptr<HarnessServers> Servers;
};

/// Servers for HarnessEnvironment::Servers, none started yet.
std::shared_ptr<HarnessServers> makeHarnessServers();

struct CaseOutcome {
  std::string Name;
  Status State = Status::Skip;
  std::string Detail;
  nlohmann::ordered_json Figures = nlohmann::ordered_json::object();
};

struct OpHarnessRun {
  std::vector<CaseOutcome> Cases;
  /// Set when nothing ran: the domain did not load, or the child died
  /// before its first case.
  std::string Fatal;
};

/// Runs `Layer` over the request's cases (`CaseCount` of them; SIZE_MAX
/// when only the harness knows, as for `api`), each child limited to
/// `TimeoutSeconds`.
OpHarnessRun runOpHarness(const HarnessEnvironment &Env, const std::string &Layer,
                          nlohmann::json Request, size_t CaseCount, unsigned TimeoutSeconds);

} // namespace opmig::validate

#endif
