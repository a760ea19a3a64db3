//===- RuleCatalog.h - What the reports say about each finding id -*- C++ -*-===//
//
// SARIF lists every rule a run used (`tool.driver.rules`) and JUnit makes a
// testcase of each; both need a description beside the findings' ids. A
// producer lists the rules it ran (an audit's rule files, the review's
// kinds) and the ones it reports without running them (the audit's own
// suppression checks); an id that neither names still gets a row, built
// from the finding.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_REPORT_RULECATALOG_H
#define OPMIG_REPORT_RULECATALOG_H

#include "opmig/support/Finding.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::report {

struct RuleInfo {
  std::string Id;
  std::string Summary;     ///< One line (SARIF's shortDescription).
  std::string Description; ///< What the rule asks for (fullDescription).
  std::string Help;        ///< How to fix a finding; empty: the description.
  Severity Level = Severity::Error;
  std::vector<std::string> Tags;
};

class RuleCatalog {
public:
  /// Every rule of `Ran`; then, for each id of `Findings` not among them,
  /// its row in `Known`, or one made of the finding (its id as summary and
  /// description, its fix as help). Sorted by id; the first row of an id
  /// wins.
  RuleCatalog(std::vector<RuleInfo> Ran, llvm::ArrayRef<RuleInfo> Known,
              const std::vector<Finding> &Findings);

  const std::vector<RuleInfo> &rules() const { return Rules; }

  /// The position of `Id` in rules(); every id of the findings has one.
  size_t indexOf(const std::string &Id) const { return IndexOf.at(Id); }

private:
  void add(RuleInfo Info);

  std::vector<RuleInfo> Rules;
  std::map<std::string, size_t> IndexOf;
};

} // namespace opmig::report

#endif
