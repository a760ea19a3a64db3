//===- Checker.cpp - The registry of built-in checkers --------------------===//

#include "Checkers.h"

namespace opmig::audit {

std::vector<std::unique_ptr<Checker>> builtinCheckers() {
  // One explicit list, sorted by kind; a new kind is one more line here.
  std::vector<std::unique_ptr<Checker>> Checkers;
  Checkers.push_back(makeCppChecker());
  Checkers.push_back(makeDocReferenceChecker());
  Checkers.push_back(makePathChecker());
  Checkers.push_back(makePythonChecker());
  Checkers.push_back(makeTextChecker());
  return Checkers;
}

std::string fillPlaceholders(const std::string &Template,
                             const std::map<std::string, std::string> &Captures) {
  std::string Out;
  size_t Pos = 0;
  while (Pos < Template.size()) {
    size_t Open = Template.find('{', Pos);
    size_t Close = Open == std::string::npos ? std::string::npos : Template.find('}', Open);
    if (Close == std::string::npos) {
      Out.append(Template, Pos, std::string::npos);
      break;
    }
    Out.append(Template, Pos, Open - Pos);
    auto It = Captures.find(Template.substr(Open + 1, Close - Open - 1));
    if (It != Captures.end()) {
      Out += It->second;
      Pos = Close + 1;
    } else {
      // Not a capture (or `{` inside text): keep the `{` and look again
      // after it, so `{{x}` still fills `{x}`.
      Out += '{';
      Pos = Open + 1;
    }
  }
  return Out;
}

} // namespace opmig::audit
