#include "opmig/analyze/PreambleAttacher.h"

#include "SharedPreambles.h"

namespace opmig::analyze {

PreambleAttacher::PreambleAttacher(const SourceTree &Tree, FactsCache &Cache,
                                   std::function<ParseRequest(const std::string &)> HostRequestFor,
                                   unsigned Jobs)
    : Shared(std::make_unique<SharedPreambles>(Tree, Cache, std::move(HostRequestFor), Jobs)) {}

PreambleAttacher::~PreambleAttacher() = default;

void PreambleAttacher::attach(std::vector<ParseRequest> &Parses) { Shared->attach(Parses); }

const std::vector<std::string> &PreambleAttacher::notes() const { return Shared->notes(); }

const std::vector<std::string> &PreambleAttacher::concurrency() const {
  return Shared->concurrency();
}

unsigned PreambleAttacher::parsesAttached() const { return Shared->parsesAttached(); }

std::vector<std::string> commandLineWithPreamble(const ParseRequest &Request) {
  std::vector<std::string> Args = parseCommandLine(Request);
  // Before the input, as TUParser.cpp passes it.
  if (!Request.PreamblePch.empty())
    Args.insert(Args.end() - 1, {"-include-pch", Request.PreamblePch});
  return Args;
}

} // namespace opmig::analyze
