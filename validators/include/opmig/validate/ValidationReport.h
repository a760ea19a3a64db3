//===- ValidationReport.h - What `opmig validate` proved, layer by layer -*- C++ -*-===//
//
// A validation is a list of layers (build, import, api, fake, smoke, parity,
// boundary), each made of checks. Every layer and every check says pass,
// fail or skip, with a reason, so a reader knows exactly what is proven and
// what is not:
//
//   layer import: fail
//     import-without-extension  pass  the package imports with cache_dit._C_attn hidden
//     import-missing-symbol     fail  undefined symbol `attn::launch<float>(...)` ...
//
// A failing check also carries its problems as `opmig::Finding`s (Producer
// `validate`, Id = the check's name), so SARIF and JUnit come from
// `opmig_reporting` like every other report's.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_VALIDATIONREPORT_H
#define OPMIG_VALIDATE_VALIDATIONREPORT_H

#include "nlohmann/json.hpp"
#include "opmig/support/Finding.h"

#include <string>
#include <vector>

namespace opmig::validate {

enum class Status { Pass, Fail, Skip };

/// `pass`, `fail`, `skip`.
const char *toString(Status S);

struct CheckResult {
  std::string Name; ///< Kebab-case, prefixed by its layer: `import-missing-symbol`.
  Status State = Status::Skip;
  /// What was shown when it passed; what went wrong, or why it did not run.
  std::string Reason;
  /// Measured figures (seconds, counts, the library built), for JSON.
  nlohmann::ordered_json Figures = nlohmann::ordered_json::object();
  /// One per problem when it failed; each has Id == Name.
  std::vector<Finding> Findings;
};

/// A passing check.
CheckResult passed(std::string Name, std::string Reason);
/// A skipped check.
CheckResult skipped(std::string Name, std::string Reason);
/// A failing check with one finding on `File` (target-relative, may be
/// empty) saying `Message`.
CheckResult failed(std::string Name, std::string Message, std::string File = "");

struct LayerResult {
  std::string Name;
  Status State = Status::Skip;
  std::string Reason;
  std::vector<CheckResult> Checks;
};

/// A layer settled from its checks: fail when one failed, pass when at least
/// one ran and none failed, skip when none ran. `Reason` summarises.
LayerResult settleLayer(std::string Name, std::vector<CheckResult> Checks);

/// A layer that did not run at all.
LayerResult skippedLayer(std::string Name, std::string Reason);

struct ValidationReport {
  std::string Target; ///< As given.
  std::string Domain;
  std::string Profile;
  std::string Manifest;            ///< The domain's, target-relative.
  std::vector<LayerResult> Layers; ///< In the order of allLayers().
  /// What the run did to its environment that a reader should know.
  std::vector<std::string> Notes;

  /// No layer failed: skips only count when the run asked for the layer
  /// (they are then failures already).
  bool passed() const;

  /// The findings of every failing check, in layer and check order.
  std::vector<Finding> findings() const;
};

} // namespace opmig::validate

#endif
