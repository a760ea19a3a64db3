//===- PreambleAttacher.h - The analysis' preambles for other parses -*- C++ -*-===//
//
// Steps after the analysis parse the same TUs with the same flags (migrate's
// rewrite parses). They get the same shared preambles (Preamble.h) the
// analysis chose, found in the same cache: the run of includes is chosen
// over every TU of the tree grouped by flags and folder, so a parse with
// the analysis' flags and folder names the analysis' PCH and reuses it
// instead of building it again.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_PREAMBLEATTACHER_H
#define OPMIG_ANALYZE_PREAMBLEATTACHER_H

#include "opmig/analyze/FactsCache.h"
#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUParser.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace opmig::analyze {

class SharedPreambles;

class PreambleAttacher {
public:
  /// `HostRequestFor` gives the host-side request of a TU of `Tree`
  /// (absolute path), with the flags and folder it is parsed with.
  PreambleAttacher(const SourceTree &Tree, FactsCache &Cache,
                   std::function<ParseRequest(const std::string &)> HostRequestFor, unsigned Jobs);
  ~PreambleAttacher();
  PreambleAttacher(const PreambleAttacher &) = delete;
  PreambleAttacher &operator=(const PreambleAttacher &) = delete;

  /// Sets `PreamblePch` (and its header and inputs) on the parses that can
  /// use one; see SharedPreambles::attach.
  void attach(std::vector<ParseRequest> &Parses);
  const std::vector<std::string> &notes() const;
  /// Why the preamble builds ran as many at once as they did (ParseBudget.h).
  const std::vector<std::string> &concurrency() const;
  unsigned parsesAttached() const;

private:
  std::unique_ptr<SharedPreambles> Shared;
};

/// The command line of a parse with its preamble, when it has one: the
/// same as parseCommandLine() plus `-include-pch`.
std::vector<std::string> commandLineWithPreamble(const ParseRequest &Request);

} // namespace opmig::analyze

#endif
