//===- AuditRulesetTest.cpp - The built-in rules on their mini repositories -===//
//
// Every built-in rule passes its own fixtures (`opmig rules test`). Then the
// hand-written mini repositories of tests/fixtures/audit/: the clean one of
// each convention gives no finding at all, and the violations one gives
// exactly what is planted in it, no more: one finding per `ruleid: <id>`
// annotation (in a comment on the line itself, or alone on the line before)
// and per `ruleid: <id> <path>` line of its EXPECT file, and every rule of
// the profile is planted at least once. The fixture targets that `opmig
// migrate` writes into, and what it writes there, follow the same rules.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <tuple>

namespace opmig::test {
namespace {

/// Where a finding is: rule id, repository-relative file, line (0 for a
/// path).
using Site = std::tuple<std::string, std::string, unsigned>;

std::string describe(const Site &S) {
  return std::get<1>(S) + ":" + std::to_string(std::get<2>(S)) + ": " + std::get<0>(S);
}

std::string trim(const std::string &Text) {
  size_t Begin = Text.find_first_not_of(" \t\r");
  size_t End = Text.find_last_not_of(" \t\r");
  return Begin == std::string::npos ? "" : Text.substr(Begin, End - Begin + 1);
}

/// The rule ids of a `ruleid:` annotation in a comment of `Line` (several
/// may be comma-separated), and whether the comment is alone on its line.
std::vector<std::string> annotatedIds(const std::string &Line, bool &OwnLine) {
  for (const char *Opener : {"//", "#", "<!--", "/*"}) {
    for (size_t At = Line.find(Opener); At != std::string::npos; At = Line.find(Opener, At + 1)) {
      std::string Rest = trim(Line.substr(At + std::string(Opener).size()));
      if (Rest.rfind("ruleid:", 0) != 0)
        continue;
      Rest = Rest.substr(std::string("ruleid:").size());
      for (const char *Closer : {"-->", "*/"})
        if (size_t End = Rest.rfind(Closer); End != std::string::npos)
          Rest = Rest.substr(0, End);
      std::vector<std::string> Ids;
      std::stringstream Items(Rest);
      for (std::string Id; std::getline(Items, Id, ',');)
        if (!trim(Id).empty())
          Ids.push_back(trim(Id));
      OwnLine = trim(Line.substr(0, At)).empty();
      return Ids;
    }
  }
  return {};
}

/// Every planted finding of the mini repository `Files`.
std::set<Site> plantedSites(const Tree &Files) {
  std::set<Site> Sites;
  for (const auto &[Path, Text] : Files) {
    std::stringstream Lines(Text);
    if (Path == "EXPECT") {
      std::string Kind, Id, Where;
      while (Lines >> Kind >> Id >> Where) {
        EXPECT_EQ(Kind, "ruleid:") << "EXPECT of a violations repository lists findings only";
        Sites.insert({Id, Where, 0});
      }
      continue;
    }
    std::vector<std::string> Pending; // Ids of annotations alone on their line.
    unsigned LineNo = 0;
    for (std::string Line; std::getline(Lines, Line);) {
      ++LineNo;
      bool OwnLine = false;
      std::vector<std::string> Ids = annotatedIds(Line, OwnLine);
      if (OwnLine) {
        Pending.insert(Pending.end(), Ids.begin(), Ids.end());
        continue;
      }
      Ids.insert(Ids.end(), Pending.begin(), Pending.end());
      Pending.clear();
      for (const std::string &Id : Ids)
        Sites.insert({Id, Path, LineNo});
    }
  }
  return Sites;
}

struct AuditOutcome {
  int ExitCode = -1;
  std::set<Site> Sites;
  std::set<std::string> RulesRun;
  std::string Output;
};

AuditOutcome audit(const std::string &Root, const std::string &Profile) {
  ToolResult R = runOpmig({"audit", Root, "--profile", Profile, "--format", "json"});
  AuditOutcome Outcome;
  Outcome.ExitCode = R.ExitCode;
  Outcome.Output = R.Stdout + R.Stderr;
  nlohmann::json Report = R.json();
  for (const nlohmann::json &Rule : Report.value("rules", nlohmann::json::array()))
    Outcome.RulesRun.insert(Rule["id"].get<std::string>());
  for (const nlohmann::json &F : Report.value("findings", nlohmann::json::array())) {
    EXPECT_EQ(F["state"], "new") << F.dump();
    Outcome.Sites.insert(
        {F["rule"].get<std::string>(), F["file"].get<std::string>(), F["line"].get<unsigned>()});
  }
  return Outcome;
}

/// The sites of `A` that are not in `B`, one per line.
std::string missingFrom(const std::set<Site> &A, const std::set<Site> &B) {
  std::string Listed;
  for (const Site &S : A)
    if (!B.count(S))
      Listed += "  " + describe(S) + "\n";
  return Listed;
}

TEST(AuditRulesetTest, EveryBuiltinRulePassesItsFixtures) {
  ToolResult R = runOpmig({"rules", "test"});
  EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_EQ(R.Stdout.find("FAIL "), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find(" passed, 0 failed\n"), std::string::npos) << R.Stdout;
}

struct Convention {
  std::string Name, Profile, Clean, Violations, Target;
};

/// gtest names a case by what this prints: its name, the same in every build.
void PrintTo(const Convention &C, std::ostream *Out) { *Out << C.Name; }

class AuditRulesetConventionTest : public ::testing::TestWithParam<Convention> {};

TEST_P(AuditRulesetConventionTest, CleanRepositoryHasNoFinding) {
  AuditOutcome Outcome = audit(fixture("audit/" + GetParam().Clean), GetParam().Profile);
  EXPECT_EQ(Outcome.ExitCode, 0) << Outcome.Output;
  EXPECT_EQ(missingFrom(Outcome.Sites, {}), "") << "findings in a clean repository";
  EXPECT_FALSE(Outcome.RulesRun.empty()) << Outcome.Output;
}

TEST_P(AuditRulesetConventionTest, ViolationsRepositoryHasExactlyThePlantedFindings) {
  std::set<Site> Planted = plantedSites(
      snapshotTree(std::string(OPMIG_FIXTURES_DIR) + "/audit/" + GetParam().Violations));
  AuditOutcome Outcome = audit(fixture("audit/" + GetParam().Violations), GetParam().Profile);
  EXPECT_EQ(Outcome.ExitCode, 1) << Outcome.Output;
  EXPECT_EQ(missingFrom(Planted, Outcome.Sites), "") << "planted but not reported";
  EXPECT_EQ(missingFrom(Outcome.Sites, Planted), "") << "reported but not planted";

  std::set<std::string> PlantedRules;
  for (const Site &S : Planted)
    PlantedRules.insert(std::get<0>(S));
  // These read a file that the tree plants missing (VeOmni's kernel selection
  // doc, cache-dit's dispatch guard test); the rules' own fixtures prove them.
  const std::set<std::string> PlantedElsewhere = {"veomni-kernel-selection-row",
                                                  "veomni-kernel-selection-mechanism",
                                                  "cache-dit-dispatch-guard-asserts-removed"};
  for (const std::string &Rule : Outcome.RulesRun)
    EXPECT_TRUE(PlantedRules.count(Rule) || PlantedElsewhere.count(Rule))
        << Rule << " is planted nowhere";
}

TEST_P(AuditRulesetConventionTest, MigrationTargetFixtureHasNoFinding) {
  AuditOutcome Outcome = audit(fixture("targets/" + GetParam().Target), GetParam().Profile);
  EXPECT_EQ(Outcome.ExitCode, 0) << Outcome.Output;
  EXPECT_EQ(missingFrom(Outcome.Sites, {}), "") << "findings in a migration target";
}

INSTANTIATE_TEST_SUITE_P(Builtin, AuditRulesetConventionTest,
                         ::testing::Values(Convention{"CacheDit", "cache-dit", "cache_dit_clean",
                                                      "cache_dit_violations", "cache_dit_like"},
                                           Convention{"VeOmni", "veomni", "veomni_clean",
                                                      "veomni_violations", "veomni_like"}),
                         [](const ::testing::TestParamInfo<Convention> &Info) {
                           return Info.param.Name;
                         });

// What `opmig migrate` writes follows the rules of its profile.
TEST(AuditRulesetTest, MigratedSampleFollowsTheVeOmniRules) {
  MigrationCase C{"sample_veomni", "samples/upstream",
                  {"rms_norm"},    "tests/fixtures/targets/veomni_like",
                  "veomni",        "cuda_rms_norm"};
  MigrationSandbox Box(C);
  ToolResult Migrated = runOpmig(migrateArgs(C, Box));
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  AuditOutcome Outcome = audit(Box.Target, "veomni");
  EXPECT_EQ(Outcome.ExitCode, 0) << Outcome.Output;
  EXPECT_EQ(missingFrom(Outcome.Sites, {}), "") << "findings in a migrated tree";
}

// The migrated instantiation files instantiate
// `cache_dit::attn::launch_merge_attn_states<T>` through a macro of a header
// under the include root (`SAMPLE_INSTANTIATE_MERGE(__nv_bfloat16)`): the
// namespace check reads that header, so they are no global variables.
TEST(AuditRulesetTest, MigratedSampleFollowsTheCacheDitRules) {
  MigrationCase C = sampleIntoCacheDit();
  MigrationSandbox Box(C);
  ToolResult Migrated = runOpmig(migrateArgs(C, Box));
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  AuditOutcome Outcome = audit(Box.Target, "cache-dit");
  EXPECT_EQ(missingFrom(Outcome.Sites, {}), "") << "findings in a migrated tree";
}

} // namespace
} // namespace opmig::test
