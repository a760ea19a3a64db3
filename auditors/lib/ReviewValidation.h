//===- ReviewValidation.h - The validate reports a review takes -*- C++ -*-===//
//
// `opmig review --validation FILE`: each report is read (ValidateReport.h),
// must be of the reviewed domain, and is named relative to the target when
// it lies inside it. A report older than a file of the domain is still
// taken, with a note: validate's verdict may no longer hold, but a
// timestamp is no proof that it does not.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_LIB_REVIEWVALIDATION_H
#define OPMIG_AUDIT_LIB_REVIEWVALIDATION_H

#include "opmig/audit/Review.h"
#include "opmig/audit/ValidateReport.h"
#include "opmig/support/Manifest.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// The reports of `Options.ValidationReports`, each `Path` as the review
/// names it, and in `Uses` how each was taken. `ManifestPath` (relative to
/// the target) and `M` give the domain's files. InputError for a report that
/// cannot be read, is not `opmig.validate/1` or is of another domain.
llvm::Expected<std::vector<ValidateReport>>
readValidationReports(const ReviewOptions &Options, const std::string &ManifestPath,
                      const opmig::Manifest &M, std::vector<ValidationReportUse> &Uses);

} // namespace opmig::audit

#endif
