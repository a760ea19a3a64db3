//===- ReviewReport.h - A review's result as text, JSON, SARIF, JUnit -*- C++ -*-===//
//
// The review's documents around its findings, which `opmig_reporting`
// renders as it renders every producer's. Text: one line per finding,
//
//   csrc/rope/rope.cu: error: uses `launch<float>`, which ... [does-not-link]
//
// then the build check's line, the coverage matrix, the verdict and its
// reasons. JSON: `opmig.review/1`. SARIF 2.1.0 and JUnit: the findings,
// with every review kind as a rule (ReviewKinds.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_REVIEWREPORT_H
#define OPMIG_AUDIT_REVIEWREPORT_H

#include "opmig/audit/Review.h"

#include <string>

namespace opmig::audit {

/// One line per finding (`<path>[:<line>]: <severity>: <message> [<kind>]`),
/// the build check's line, the coverage matrix, then the verdict and its
/// reasons.
std::string renderReviewText(const ReviewResult &Result);

/// `opmig.review/1`: domain, manifest, profile, spec, findings, build
/// check, coverage, verdict and reasons.
std::string renderReviewJson(const ReviewResult &Result);

/// A SARIF 2.1.0 log of the findings with a rule per review kind; the run's
/// properties name the domain, the manifest and the verdict.
std::string renderReviewSarif(const ReviewResult &Result, const std::string &ToolVersion);

/// JUnit XML: a testsuite `opmig review <domain>` with a testcase per
/// review kind, failing with its findings: every finding keeps the verdict
/// from `thoughtful`, warnings included.
std::string renderReviewJUnit(const ReviewResult &Result);

} // namespace opmig::audit

#endif
