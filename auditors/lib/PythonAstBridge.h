//===- PythonAstBridge.h - One python3 run for all python rules -*- C++ -*-===//
//
// The `python` rules read CPython's own parse tree through a helper script
// (auditors/python/checks.py, compiled into the binary). One audit starts
// python3 once: the request names every file and every (rule, check,
// parameters, files) task, each file is parsed once whatever the number of
// rules reading it, and the answer lists records per task plus the files
// that do not parse.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_PYTHONASTBRIDGE_H
#define OPMIG_AUDIT_PYTHONASTBRIDGE_H

#include "nlohmann/json.hpp"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::audit {

struct PythonTask {
  std::string RuleId;
  std::string Check;
  nlohmann::json Params;     ///< What the helper reads of the rule's `match`.
  std::vector<size_t> Files; ///< Indices into the request's files.
};

/// What the helper found: a finding, or for checks whose rule holds a regex
/// a candidate the checker filters.
struct PythonRecord {
  size_t File = 0;
  unsigned Line = 0, Column = 0; ///< 1-based; the column in UTF-8 bytes.
  std::map<std::string, std::string> Captures;
  std::vector<std::string> Keys; ///< section-order: what the order regexes match.
};

struct PythonUnparsable {
  size_t File = 0;
  unsigned Line = 0, Column = 0;
  std::string Message;
};

struct PythonAnswer {
  std::vector<std::vector<PythonRecord>> Records; ///< One list per task, in order.
  std::vector<PythonUnparsable> Unparsable;
};

/// Runs the helper once over `Files` (absolute paths). An InputError when
/// python3 is not on PATH; an internal error when the helper fails.
llvm::Expected<PythonAnswer> runPythonChecks(const std::vector<std::string> &Files,
                                             const std::vector<PythonTask> &Tasks);

} // namespace opmig::audit

#endif
