//===- ParseBudgetTest.cpp - How many parses run at once ------------------===//

#include "opmig/analyze/ParseBudget.h"

#include <gtest/gtest.h>

using namespace opmig::analyze;

namespace {

constexpr uint64_t GiB = uint64_t(1) << 30;

TEST(ParseBudget, EnoughMemoryLeavesTheJobs) {
  ConcurrencyCap Cap = capConcurrency(2, 22 * GiB, ParseWeight::Torch, "parse");
  EXPECT_EQ(Cap.AtOnce, 2u);
  EXPECT_EQ(Cap.Why, "2 parses at once (-j2): 22.0 GiB available, ~1.0 GiB per torch parse");
}

TEST(ParseBudget, MemoryCapsTheJobs) {
  // 3.5 GiB less a tenth holds three 1 GiB parses, not eight.
  EXPECT_EQ(capConcurrency(8, GiB * 7 / 2, ParseWeight::Torch, "parse").AtOnce, 3u);
  // A parse with the preamble is lighter: more of them fit.
  EXPECT_EQ(capConcurrency(8, GiB * 7 / 2, ParseWeight::TorchPreamble, "parse").AtOnce, 5u);
  // A preamble build is heavier.
  EXPECT_EQ(capConcurrency(8, GiB * 7 / 2, ParseWeight::TorchPreambleBuild, "build").AtOnce, 2u);
}

TEST(ParseBudget, TooLittleMemoryStillRunsOne) {
  ConcurrencyCap Cap = capConcurrency(2, GiB / 2, ParseWeight::Torch, "parse");
  EXPECT_EQ(Cap.AtOnce, 1u);
  EXPECT_EQ(Cap.Why, "1 parse at a time (-j2): 0.5 GiB available, ~1.0 GiB per torch parse "
                     "(more than is available)");
}

TEST(ParseBudget, ExactlyOneFits) {
  // 1.2 GiB less a tenth is 1.08 GiB: one torch parse, no more.
  ConcurrencyCap Cap = capConcurrency(4, GiB * 6 / 5, ParseWeight::Torch, "parse");
  EXPECT_EQ(Cap.AtOnce, 1u);
  EXPECT_EQ(Cap.Why.find("more than is available"), std::string::npos) << Cap.Why;
}

TEST(ParseBudget, UnknownMemoryLeavesTheJobs) {
  ConcurrencyCap Cap = capConcurrency(3, std::nullopt, ParseWeight::Torch, "parse");
  EXPECT_EQ(Cap.AtOnce, 3u);
  EXPECT_EQ(Cap.Why, "3 parses at once (-j3): available memory unknown, ~1.0 GiB per torch parse");
}

TEST(ParseBudget, ZeroJobsRunsOne) {
  EXPECT_EQ(capConcurrency(0, 64 * GiB, ParseWeight::Plain, "parse").AtOnce, 1u);
}

TEST(ParseBudget, TorchIsToldByItsIncludeDirectories) {
  EXPECT_TRUE(flagsReadTorch({"-isystem", "/site-packages/torch/include"}));
  EXPECT_TRUE(flagsReadTorch({"-I/site-packages/torch/include/torch/csrc/api/include/"}));
  EXPECT_FALSE(flagsReadTorch({"-isystem", "/stubs/torch_stubs", "-I/usr/local/cuda/include"}));
  EXPECT_FALSE(flagsReadTorch({}));
}

TEST(ParseBudget, AParseWeighsWhatItReads) {
  ParseRequest Request;
  Request.Flags = {"-isystem", "/opt/torch/include"};
  EXPECT_EQ(weightOfParse(Request), ParseWeight::Torch);
  EXPECT_EQ(weightOfPreambleBuild(Request), ParseWeight::TorchPreambleBuild);
  Request.PreamblePch = "/cache/preamble/abc.pch";
  EXPECT_EQ(weightOfParse(Request), ParseWeight::TorchPreamble);
  Request.Flags = {"-isystem", "/stubs"};
  EXPECT_EQ(weightOfParse(Request), ParseWeight::Plain);
  EXPECT_EQ(weightOfPreambleBuild(Request), ParseWeight::PreambleBuild);
}

TEST(ParseBudget, AWaveIsAsHeavyAsItsHeaviestParse) {
  EXPECT_EQ(heaviest({}), ParseWeight::Plain);
  EXPECT_EQ(heaviest({ParseWeight::TorchPreamble, ParseWeight::Torch, ParseWeight::Plain}),
            ParseWeight::Torch);
  EXPECT_LT(estimatedPeakBytes(ParseWeight::TorchPreamble), estimatedPeakBytes(ParseWeight::Torch));
  EXPECT_LT(estimatedPeakBytes(ParseWeight::Torch),
            estimatedPeakBytes(ParseWeight::TorchPreambleBuild));
}

TEST(ParseBudget, TheEnvironmentCanSetTheAvailableMemory) {
  setenv("OPMIG_MEMORY_AVAILABLE_MIB", "1536", 1);
  EXPECT_EQ(availableMemory(), uint64_t(1536) << 20);
  unsetenv("OPMIG_MEMORY_AVAILABLE_MIB");
  // Linux has /proc/meminfo: some memory is available.
  std::optional<uint64_t> Read = availableMemory();
  ASSERT_TRUE(Read.has_value());
  EXPECT_GT(*Read, 0u);
}

} // namespace
