//===- FindingFingerprintsTest.cpp - Identities that survive edits --------===//

#include "opmig/support/FindingFingerprints.h"

#include "opmig/support/Hashing.h"

#include <gtest/gtest.h>
#include <set>

namespace opmig {
namespace {

Finding at(std::string Id, std::string File, unsigned Line, std::string Message) {
  Finding F;
  F.Id = std::move(Id);
  F.File = std::move(File);
  F.Line = Line;
  F.Message = std::move(Message);
  return F;
}

TEST(FindingFingerprintsTest, HashOfIdFileAnchorAndOccurrence) {
  std::vector<Finding> Findings = {at("r", "a.py", 3, "m")};
  assignFingerprints(Findings, messageAnchor);
  EXPECT_EQ(Findings[0].Fingerprint, sha256Hex(std::string("r\0a.py\0m\0"
                                                           "0",
                                                           10))
                                         .substr(0, 16));
}

TEST(FindingFingerprintsTest, TheLineDoesNotCountTheOccurrenceDoes) {
  std::vector<Finding> Before = {at("r", "a.py", 3, "m"), at("r", "a.py", 9, "m")};
  std::vector<Finding> After = {at("r", "a.py", 20, "m"), at("r", "a.py", 5, "m")};
  assignFingerprints(Before, messageAnchor);
  assignFingerprints(After, messageAnchor);
  EXPECT_NE(Before[0].Fingerprint, Before[1].Fingerprint);
  // Occurrences are counted in line order, whatever order the list has.
  EXPECT_EQ(Before[0].Fingerprint, After[1].Fingerprint);
  EXPECT_EQ(Before[1].Fingerprint, After[0].Fingerprint);
}

TEST(FindingFingerprintsTest, IdFileAndAnchorEachChangeIt) {
  std::vector<Finding> Findings = {at("r", "a.py", 1, "m"), at("s", "a.py", 1, "m"),
                                   at("r", "b.py", 1, "m"), at("r", "a.py", 1, "n")};
  assignFingerprints(Findings, messageAnchor);
  std::set<std::string> Distinct;
  for (const Finding &F : Findings)
    Distinct.insert(F.Fingerprint);
  EXPECT_EQ(Distinct.size(), 4u);
}

} // namespace
} // namespace opmig
