//===- JUnit.cpp - Findings as JUnit XML ----------------------------------===//

#include "opmig/report/JUnit.h"

#include "opmig/report/FindingText.h"

#include "llvm/ADT/StringRef.h"

#include <map>

namespace opmig::report {

std::string xmlEscape(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      // XML 1.0 has no way to write other control characters.
      if (static_cast<unsigned char>(C) >= 0x20 || C == '\n' || C == '\t')
        Out += C;
    }
  }
  return Out;
}

namespace {

using FindingsById = std::map<std::string, std::vector<const Finding *>>;

std::string listed(const std::vector<const Finding *> &Findings) {
  std::string Text;
  for (const Finding *F : Findings)
    Text += findingLine(*F) + "\n";
  return xmlEscape(Text);
}

std::string testcase(const RuleInfo &Rule, const std::string &SuiteName,
                     const FindingsById &Failing, const FindingsById &Below) {
  std::string Case = "    <testcase classname=\"" + xmlEscape(SuiteName) + "\" name=\"" +
                     xmlEscape(Rule.Id) + "\"";
  auto Fail = Failing.find(Rule.Id);
  auto Other = Below.find(Rule.Id);
  if (Fail == Failing.end() && Other == Below.end())
    return Case + "/>\n";
  Case += ">\n";
  if (Fail != Failing.end())
    Case += "      <failure type=\"" + std::string(toString(Rule.Level)) + "\" message=\"" +
            std::to_string(Fail->second.size()) + " new finding(s)\">" + listed(Fail->second) +
            "</failure>\n";
  if (Other != Below.end())
    Case += "      <system-out>" + listed(Other->second) + "</system-out>\n";
  return Case + "    </testcase>\n";
}

} // namespace

std::string renderJUnit(const std::vector<Finding> &Findings, const RuleCatalog &Rules,
                        const std::string &SuiteName, Severity FailOn) {
  FindingsById Failing, Below;
  for (const Finding &F : Findings)
    if (F.State == FindingState::New)
      (F.Level >= FailOn ? Failing : Below)[F.Id].push_back(&F);
  std::string Cases;
  for (const RuleInfo &Rule : Rules.rules())
    Cases += testcase(Rule, SuiteName, Failing, Below);
  std::string Counts = "tests=\"" + std::to_string(Rules.rules().size()) + "\" failures=\"" +
                       std::to_string(Failing.size()) + "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + xmlEscape(SuiteName) +
         "\" " + Counts + ">\n  <testsuite name=\"" + xmlEscape(SuiteName) + "\" " + Counts +
         " errors=\"0\" skipped=\"0\">\n" + Cases + "  </testsuite>\n</testsuites>\n";
}

} // namespace opmig::report
