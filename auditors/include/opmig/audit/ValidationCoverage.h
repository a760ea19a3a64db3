//===- ValidationCoverage.h - Which validation layers have tests -*- C++ -*-===//
//
// The specs ask for validation in layers (cache-dit: import safety, API
// surface, smoke, correctness, module, fake/compile, round-trip, boundary;
// VeOmni: correctness, precision, edge cases). The layers and what in a test
// shows that it covers one are data (rules/review/validation-layers.yaml);
// the tests are read on CPython's parse tree. A test that always skips is a
// placeholder: it is listed, and covers nothing. Which layers are required
// follows the spec convention a migration's profile names (its `spec` key),
// never the profile's name: a copied profile keeps its spec's layers. A
// layer of `opmig validate` that a validate report says passed proves the
// review layer that names it (`proved-by-validate`), as a test would.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_VALIDATIONCOVERAGE_H
#define OPMIG_AUDIT_VALIDATIONCOVERAGE_H

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/ValidateReport.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

struct ValidationLayer {
  std::string Id;    ///< `smoke`
  std::string Title; ///< `low-level smoke`
  std::string Spec;  ///< Where the spec asks for it.
  /// Globs over the dotted names a test uses and the strings it holds;
  /// every group must match. `{op}` stands for each op of the domain.
  std::vector<std::vector<std::string>> Requires;
  std::vector<std::string> Unless; ///< A match rules the test out.
  /// Globs over test names: a placeholder test (it always skips, so it
  /// uses nothing) that matches one is listed as the layer's placeholder.
  std::vector<std::string> TestNames;
  std::vector<std::string> RequiredBy; ///< Specs that require the layer.
  /// The layer of `opmig validate` whose pass proves this one
  /// (`proved-by-validate`: import, api, ...); empty: none does.
  std::string ProvedByValidate;
};

struct ValidationLayers {
  /// The spec conventions the file knows (`specs:`); every `required-by`
  /// names one of them, so a typo cannot make a layer optional.
  std::vector<std::string> Specs;
  std::vector<ValidationLayer> Layers;
};

/// Reads the layers file (through ConfigDocument). InputError
/// `<Path>:<line>:<col>: <problem>` for a file that does not parse, a
/// missing or unknown key, a bad glob or a `required-by` naming a spec that
/// `specs` does not list.
llvm::Expected<ValidationLayers> loadValidationLayers(const std::string &Path);

/// What one validate report says of the layer that proves a review layer.
struct ValidateEvidence {
  std::string Report; ///< The report, as the review names it.
  std::string Status; ///< `pass`, `fail` or `skip`.
  std::string Reason; ///< The report's reason for it.
};

/// `opmig validate (v.json) failed its parity layer` (passed, skipped).
std::string describe(const ValidateEvidence &E, llvm::StringRef ValidateLayer);

struct LayerCoverage {
  std::string Id, Title, Spec;           ///< The layer's.
  bool Required = false;                 ///< By the migration's spec.
  std::vector<std::string> Tests;        ///< `path::test`, relative to the target.
  std::vector<std::string> Placeholders; ///< Tests that would cover it but always skip.
  std::string ProvedByValidate;          ///< The layer's `proved-by-validate`.
  /// Per validate report that lists that layer, what it says, in the order
  /// the reports were given.
  std::vector<ValidateEvidence> Validate;

  /// Whether opmig validate proved the layer: a report passed it and none
  /// failed it (two runs that disagree prove nothing).
  bool provedByValidate() const;
  /// A test covers it, or opmig validate proved it.
  bool covered() const { return !Tests.empty() || provedByValidate(); }
};

struct CoverageInput {
  std::string Target; ///< Root of the target repository.
  std::string Domain;
  /// The spec whose layers are required; empty: every layer is (a spec
  /// nobody named, or one the layers file does not know, fails closed).
  std::string Spec;
  std::vector<std::string> Ops;
  std::vector<PathGlob> Exclude; ///< Paths whose tests are not read.
};

/// Per layer, the tests of the target that cover it, among the test files
/// that exercise the domain (a test calls one of its ops, or the file
/// imports its module or an op). Test files
/// that do not parse are skipped. InputError when python3 is missing.
llvm::Expected<std::vector<LayerCoverage>>
measureCoverage(const CoverageInput &Input, const std::vector<ValidationLayer> &Layers);

/// Adds to each layer of `Coverage` (measured against `Layers`, in the same
/// order) what each of `Reports` says of its `ProvedByValidate` layer; a
/// report is named by its `Path`.
void addValidateEvidence(std::vector<LayerCoverage> &Coverage,
                         const std::vector<ValidationLayer> &Layers,
                         const std::vector<ValidateReport> &Reports);

} // namespace opmig::audit

#endif
