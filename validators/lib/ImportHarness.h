//===- ImportHarness.h - One case of the import layer, in a child -*- C++ -*-===//
//
// python/import_harness.py, compiled in, written to a private folder and run
// as `python3 SCRIPT CASE` (the user's environment: their torch, their
// PYTHONPATH) with the request on stdin, one child process per case.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_IMPORTHARNESS_H
#define OPMIG_VALIDATE_LIB_IMPORTHARNESS_H

#include "ChildProcess.h"
#include "nlohmann/json.hpp"

#include <string>
#include <vector>

namespace opmig::validate {

struct HarnessRun {
  ChildOutcome Run;
  /// The answer (the last line of stdout), null when the case did not give
  /// one: it crashed, hung, raised, or printed no JSON.
  nlohmann::json Answer;

  bool answered() const { return Answer.is_object(); }
  /// Why there is no answer: the outcome and stderr's last lines.
  std::string failure() const;
};

class HarnessServers;

/// `Overrides` (`NAME=VALUE`) are added to the child's environment; the
/// child is forked from one of `Servers` when it can be.
HarnessRun runHarnessCase(HarnessServers &Servers, const std::string &Python,
                          const std::string &Case, const nlohmann::json &Request,
                          unsigned TimeoutSeconds, const std::vector<std::string> &Overrides = {});

} // namespace opmig::validate

#endif
