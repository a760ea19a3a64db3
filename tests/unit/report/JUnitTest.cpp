//===- JUnitTest.cpp - Findings as JUnit XML ------------------------------===//

#include "opmig/report/JUnit.h"

#include "SampleFindings.h"

#include <gtest/gtest.h>

namespace opmig::report {
namespace {

TEST(JUnitTest, OneTestcasePerRuleFailingOnNewFindings) {
  std::vector<Finding> Findings = sampleFindings();
  RuleCatalog Catalog({sampleRule()}, {}, Findings);
  EXPECT_EQ(renderJUnit(Findings, Catalog, "opmig audit"),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"opmig audit\" tests=\"2\" failures=\"1\">\n"
            "  <testsuite name=\"opmig audit\" tests=\"2\" failures=\"1\" errors=\"0\" "
            "skipped=\"0\">\n"
            "    <testcase classname=\"opmig audit\" name=\"demo-abs-path\">\n"
            "      <failure type=\"error\" message=\"1 new finding(s)\">docs/my guide.md:3:5: "
            "error: machine-local path /home/a [demo-abs-path]\n</failure>\n"
            "    </testcase>\n"
            "    <testcase classname=\"opmig audit\" name=\"opmig-unused-suppression\">\n"
            "      <system-out>src/a.py: warning: suppression of x matches no finding on this "
            "line or the next [opmig-unused-suppression]\n</system-out>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "</testsuites>\n");
}

TEST(JUnitTest, FailOnWarningFailsWarningsAndARuleWithoutFindingsPasses) {
  std::vector<Finding> Findings = {sampleFindings()[3]};
  RuleCatalog Catalog({sampleRule()}, {}, Findings);
  std::string Xml = renderJUnit(Findings, Catalog, "s", Severity::Warning);
  EXPECT_NE(Xml.find("tests=\"2\" failures=\"1\""), std::string::npos);
  EXPECT_NE(Xml.find("<testcase classname=\"s\" name=\"demo-abs-path\"/>"), std::string::npos);
  EXPECT_NE(Xml.find("<failure type=\"warning\" message=\"1 new finding(s)\">src/a.py: warning: "),
            std::string::npos);
}

TEST(JUnitTest, EscapesMarkupAndDropsControlCharacters) {
  Finding F = sampleFindings()[0];
  F.Message = "<a href=\"x\">&\x01</a>";
  RuleCatalog Catalog({}, {}, {F});
  std::string Xml = renderJUnit({F}, Catalog, "s");
  EXPECT_NE(Xml.find("&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"), std::string::npos);
  EXPECT_EQ(Xml.find('\x01'), std::string::npos);
}

} // namespace
} // namespace opmig::report
