//===- ValidateReport.h - What opmig validate proved, as review reads it -*- C++ -*-===//
//
// `opmig validate --format json` writes `opmig.validate/1`; `opmig review`
// (and the gate's review) takes a layer that report says passed as evidence
// for the review layer it proves (`proved-by-validate` in
// rules/review/validation-layers.yaml). The report is read here as JSON:
// the audit library depends on no part of the validation library
// (tests/lint/check_layering.py), only on the report's documented format
// (docs/user-guide.md, "opmig validate", Output).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_VALIDATEREPORT_H
#define OPMIG_AUDIT_VALIDATEREPORT_H

#include "opmig/support/Errors.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// The schema of the reports read here.
inline constexpr const char *ValidateReportSchema = "opmig.validate/1";

/// The layers of `opmig validate`, in run order: the values
/// `proved-by-validate` may take. A copy of validate's own list (its
/// Layers.h, which this library may not include); a unit test keeps the two
/// equal.
llvm::ArrayRef<llvm::StringRef> validateLayerNames();

/// One layer of a report: `pass`, `fail` or `skip`, and why.
struct ValidateLayerStatus {
  std::string Name;   ///< `parity`
  std::string Status; ///< `pass`, `fail`, `skip`
  std::string Reason; ///< `1 check failed`, `no CUDA device here`
};

struct ValidateReport {
  std::string Path; ///< The file read.
  std::string Domain, Profile;
  /// The target validate ran in: a path of the machine it ran on (a GPU
  /// machine, often), so it is shown, never compared.
  std::string Target;
  std::vector<ValidateLayerStatus> Layers; ///< As the report lists them.

  /// The layer called `Name`, or null when the report has none.
  const ValidateLayerStatus *layer(llvm::StringRef Name) const;
};

/// The input of a review that names validate reports (see InputName).
namespace inputs {
inline constexpr InputName ValidationReports{"audit.ReviewOptions.ValidationReports"};
} // namespace inputs

/// Parses `Text`, the report at `Path`. InputError naming the report when it
/// is not JSON, its `schema` is not ValidateReportSchema, `domain` is not a
/// non-empty string, or a layer has no name or a status other than pass,
/// fail or skip. Layers validate may add later are kept (they prove
/// nothing until a review layer names them).
llvm::Expected<ValidateReport> parseValidateReport(llvm::StringRef Text, const std::string &Path);

/// Reads and parses the report at `Path` (InputError when unreadable).
llvm::Expected<ValidateReport> readValidateReport(const std::string &Path);

} // namespace opmig::audit

#endif
