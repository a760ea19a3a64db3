//===- FindingTextTest.cpp - Findings as text lines and JSON objects ------===//

#include "opmig/report/FindingText.h"

#include "SampleFindings.h"
#include "opmig/report/FindingJson.h"

#include <gtest/gtest.h>

namespace opmig::report {
namespace {

TEST(FindingTextTest, LineIsFileLineColumnSeverityMessageAndId) {
  EXPECT_EQ(findingLine(sampleFindings()[0]),
            "docs/my guide.md:3:5: error: machine-local path /home/a [demo-abs-path]");
}

TEST(FindingTextTest, UnknownLineAndColumnAreLeftOut) {
  Finding F = sampleFindings()[0];
  F.Column = 0;
  EXPECT_EQ(findingLine(F),
            "docs/my guide.md:3: error: machine-local path /home/a [demo-abs-path]");
  F.Line = 0;
  F.Column = 7; // A column without a line says nothing.
  EXPECT_EQ(findingLine(F), "docs/my guide.md: error: machine-local path /home/a [demo-abs-path]");
}

TEST(FindingTextTest, ListSkipsSuppressedMarksBaselinedAndGivesFixHints) {
  EXPECT_EQ(renderFindingsText(sampleFindings()),
            "docs/my guide.md:3:5: error: machine-local path /home/a [demo-abs-path]\n"
            "  fix: use a repository-relative path\n"
            "docs/my guide.md:7:5: error: machine-local path /home/a [demo-abs-path] "
            "(baselined)\n"
            "  fix: use a repository-relative path\n"
            "src/a.py: warning: suppression of x matches no finding on this line or the next "
            "[opmig-unused-suppression]\n");
}

TEST(FindingTextTest, CountsByState) {
  std::vector<Finding> Findings = sampleFindings();
  EXPECT_EQ(countInState(Findings, FindingState::New), 2u);
  EXPECT_EQ(countInState(Findings, FindingState::Baselined), 1u);
  EXPECT_EQ(countInState(Findings, FindingState::Suppressed), 1u);
}

TEST(FindingJsonTest, ObjectHasEveryFieldAndTheReasonOfASuppression) {
  std::vector<Finding> Findings = sampleFindings();
  EXPECT_EQ(findingJson(Findings[0]),
            nlohmann::ordered_json::parse(R"({"rule": "demo-abs-path", "severity": "error",
              "file": "docs/my guide.md", "line": 3, "column": 5,
              "message": "machine-local path /home/a", "fix": "use a repository-relative path",
              "fingerprint": "aaaaaaaaaaaaaaaa", "state": "new"})"));
  EXPECT_FALSE(findingJson(Findings[1]).contains("reason"));
  EXPECT_EQ(findingJson(Findings[2])["reason"], "quoted log");
}

} // namespace
} // namespace opmig::report
