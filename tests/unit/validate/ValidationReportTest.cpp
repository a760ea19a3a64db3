#include "opmig/validate/ValidationReport.h"

#include "nlohmann/json.hpp"
#include "opmig/validate/ReportRenderers.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

ValidationReport sample() {
  ValidationReport R{"/t", "axpy", "cache-dit", "csrc/axpy/opmig-manifest.json", {}, {}};
  R.Layers.push_back(settleLayer(
      "build", {passed("build-compile", "3 sources compile"), passed("build-link", "linked")}));
  R.Layers.push_back(
      settleLayer("import", {passed("import-without-extension", "imports"),
                             failed("import-missing-symbol", "undefined symbol `f()`", "csrc/a.cu"),
                             skipped("import-load", "a symbol is missing")}));
  R.Layers.push_back(skippedLayer("api", "not implemented in this release"));
  return R;
}

TEST(ValidationReportTest, ALayerIsSettledByItsChecks) {
  ValidationReport R = sample();
  EXPECT_EQ(R.Layers[0].State, Status::Pass);
  EXPECT_EQ(R.Layers[0].Reason, "2 checks passed");
  EXPECT_EQ(R.Layers[1].State, Status::Fail);
  EXPECT_EQ(R.Layers[1].Reason, "1 check failed, 1 skipped");
  LayerResult AllSkipped = settleLayer("import", {skipped("import-load", "nothing was built")});
  EXPECT_EQ(AllSkipped.State, Status::Skip);
  EXPECT_EQ(AllSkipped.Reason, "nothing was built");
  EXPECT_FALSE(R.passed());
  R.Layers.erase(R.Layers.begin() + 1);
  EXPECT_TRUE(R.passed()) << "skips alone do not fail a run";
}

TEST(ValidationReportTest, AFailingCheckIsAFindingOfValidate) {
  std::vector<Finding> Findings = sample().findings();
  ASSERT_EQ(Findings.size(), 1u);
  EXPECT_EQ(Findings[0].Id, "import-missing-symbol");
  EXPECT_EQ(Findings[0].Producer, "validate");
  EXPECT_EQ(Findings[0].File, "csrc/a.cu");
}

TEST(ValidationReportTest, JsonListsLayersWithTheirChecks) {
  nlohmann::json Doc = nlohmann::json::parse(renderValidationJson(sample()));
  EXPECT_EQ(Doc["schema"], "opmig.validate/1");
  EXPECT_EQ(Doc["passed"], false);
  ASSERT_EQ(Doc["layers"].size(), 3u);
  const nlohmann::json &Import = Doc["layers"][1];
  EXPECT_EQ(Import["name"], "import");
  EXPECT_EQ(Import["status"], "fail");
  EXPECT_EQ(Import["checks"][1]["name"], "import-missing-symbol");
  EXPECT_EQ(Import["checks"][1]["status"], "fail");
  EXPECT_TRUE(Import["checks"][1]["figures"].is_object());
  EXPECT_EQ(Doc["layers"][2]["checks"].size(), 0u);
  ASSERT_EQ(Doc["findings"].size(), 1u);
  EXPECT_EQ(Doc["findings"][0]["rule"], "import-missing-symbol");
}

TEST(ValidationReportTest, JUnitHasASuitePerLayerWithFailuresAndSkips) {
  std::string Xml = renderValidationJUnit(sample());
  EXPECT_NE(Xml.find("<testsuites name=\"opmig validate axpy\" tests=\"6\" failures=\"1\" "
                     "errors=\"0\" skipped=\"2\">"),
            std::string::npos)
      << Xml;
  EXPECT_NE(Xml.find("<testsuite name=\"opmig validate axpy import\" tests=\"3\" failures=\"1\""),
            std::string::npos)
      << Xml;
  EXPECT_NE(Xml.find("csrc/a.cu: error: undefined symbol `f()` [import-missing-symbol]"),
            std::string::npos)
      << Xml;
  EXPECT_NE(Xml.find("name=\"api\">\n      <skipped message=\"not implemented in this release\"/>"),
            std::string::npos)
      << Xml;
}

TEST(ValidationReportTest, TextEndsWithTheVerdict) {
  std::string Text = renderValidationText(sample());
  EXPECT_NE(Text.find("csrc/a.cu: error: undefined symbol `f()` [import-missing-symbol]\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("validate: FAIL (1 layer passed, 1 layer failed, 1 layer skipped)\n"),
            std::string::npos)
      << Text;
}

} // namespace
} // namespace opmig::validate
