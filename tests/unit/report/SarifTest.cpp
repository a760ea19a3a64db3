//===- SarifTest.cpp - Findings as a SARIF 2.1.0 log, and rule catalogs ---===//

#include "opmig/report/Sarif.h"

#include "SampleFindings.h"

#include <gtest/gtest.h>

namespace opmig::report {
namespace {

TEST(RuleCatalogTest, RulesThatRanThenKnownRowsThenRowsMadeOfFindings) {
  Finding Other;
  Other.Id = "a-first-by-name";
  Other.Level = Severity::Note;
  Other.Fix = "do this";
  std::vector<Finding> Findings = sampleFindings();
  Findings.push_back(Other);
  RuleInfo Known{"opmig-unused-suppression", "unused", "unused suppression", "",
                 Severity::Warning,          {"opmig"}};
  RuleInfo NotFired{"never-fired", "n", "n", "", Severity::Error, {}};
  RuleCatalog Catalog({sampleRule()}, {Known, NotFired}, Findings);
  ASSERT_EQ(Catalog.rules().size(), 3u);
  EXPECT_EQ(Catalog.rules()[0].Id, "a-first-by-name");
  EXPECT_EQ(Catalog.rules()[0].Help, "do this");
  EXPECT_EQ(Catalog.rules()[0].Level, Severity::Note);
  EXPECT_EQ(Catalog.rules()[1].Id, "demo-abs-path");
  EXPECT_EQ(Catalog.rules()[2].Summary, "unused");
  EXPECT_EQ(Catalog.indexOf("opmig-unused-suppression"), 2u);
}

TEST(SarifTest, CarriesRulesLocationsFingerprintsAndStates) {
  std::vector<Finding> Findings = sampleFindings();
  RuleCatalog Catalog({sampleRule()}, {}, Findings);
  nlohmann::json Log =
      nlohmann::json::parse(renderSarif(Findings, Catalog, "9.9.9", {{"profile", "demo"}}));
  EXPECT_EQ(Log["version"], "2.1.0");
  EXPECT_EQ(Log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_EQ(Log["runs"].size(), 1u);
  const nlohmann::json &Run = Log["runs"][0];
  const nlohmann::json &Driver = Run["tool"]["driver"];
  EXPECT_EQ(Driver["name"], "opmig");
  EXPECT_EQ(Driver["version"], "9.9.9");
  EXPECT_TRUE(Driver["informationUri"].get<std::string>().starts_with("https://"));
  ASSERT_EQ(Driver["rules"].size(), 2u);
  EXPECT_EQ(Driver["rules"][0]["id"], "demo-abs-path");
  EXPECT_EQ(Driver["rules"][0]["shortDescription"]["text"], "machine-local path");
  EXPECT_EQ(Driver["rules"][0]["fullDescription"]["text"],
            "do not write machine-local absolute paths");
  EXPECT_EQ(Driver["rules"][0]["help"]["text"], "use a repository-relative path");
  EXPECT_EQ(Driver["rules"][0]["defaultConfiguration"]["level"], "error");
  // A row made of the finding: its help is its fix, or the description.
  EXPECT_EQ(Driver["rules"][1]["id"], "opmig-unused-suppression");
  EXPECT_EQ(Driver["rules"][1]["help"]["text"], "opmig-unused-suppression");
  EXPECT_EQ(Driver["rules"][1]["defaultConfiguration"]["level"], "warning");
  const nlohmann::json &Results = Run["results"];
  ASSERT_EQ(Results.size(), 4u);
  const nlohmann::json &First = Results[0];
  EXPECT_EQ(First["ruleId"], "demo-abs-path");
  EXPECT_EQ(First["ruleIndex"], 0);
  EXPECT_EQ(First["level"], "error");
  EXPECT_EQ(First["message"]["text"],
            "machine-local path /home/a\nfix: use a repository-relative path");
  const nlohmann::json &Physical = First["locations"][0]["physicalLocation"];
  EXPECT_EQ(Physical["artifactLocation"]["uri"], "docs/my%20guide.md");
  EXPECT_EQ(Physical["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(Physical["region"]["startLine"], 3);
  EXPECT_EQ(Physical["region"]["startColumn"], 5);
  EXPECT_EQ(First["partialFingerprints"]["opmig/v1"], "aaaaaaaaaaaaaaaa");
  EXPECT_EQ(First["baselineState"], "new");
  EXPECT_FALSE(First.contains("suppressions"));
  EXPECT_EQ(Results[1]["baselineState"], "unchanged");
  EXPECT_EQ(Results[2]["suppressions"],
            nlohmann::json::parse(R"([{"kind": "inSource", "justification": "quoted log"}])"));
  EXPECT_EQ(Results[3]["ruleIndex"], 1);
  EXPECT_FALSE(Results[3]["locations"][0]["physicalLocation"].contains("region"));
  EXPECT_EQ(Run["properties"], nlohmann::json::parse(R"({"profile": "demo",
              "totalResults": 4, "truncated": false})"));
}

TEST(SarifTest, KeepsAtMostTheLimitNewFirst) {
  std::vector<Finding> Findings(SarifMaxResults, sampleFindings()[1]); // Baselined.
  Finding New = sampleFindings()[0];
  New.File = "zzz.md";
  Findings.push_back(New);
  RuleCatalog Catalog({sampleRule()}, {}, Findings);
  nlohmann::json Log = nlohmann::json::parse(renderSarif(Findings, Catalog, "1"));
  const nlohmann::json &Results = Log["runs"][0]["results"];
  EXPECT_EQ(Results.size(), SarifMaxResults);
  EXPECT_EQ(Results.back()["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "zzz.md");
  EXPECT_EQ(Log["runs"][0]["properties"]["totalResults"], SarifMaxResults + 1);
  EXPECT_EQ(Log["runs"][0]["properties"]["truncated"], true);
}

} // namespace
} // namespace opmig::report
