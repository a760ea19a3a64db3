#include "opmig/support/Manifest.h"

#include "nlohmann/json.hpp"
#include "opmig/support/Hashing.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

Manifest sampleManifest() {
  Manifest M;
  M.ToolVersion = "0.1.0";
  M.Profile = "cache-dit";
  M.Spec = "cache-dit";
  M.Domain = "attn";
  M.Upstream = {"https://example.com/up.git", "0123abcd", true, "samples/upstream/"};
  M.Entries = {"merge_attn_states"};
  M.Ops = {{"merge_attn_states", "cache_dit::attn::merge_attn_states", "merge_attn_states",
            "(Tensor a) -> Tensor", true}};
  M.Renames = {{"sample_ops", "cache_dit::attn"}, {"svdq", "svdq"}};
  M.WrapGlobalInto = "cache_dit::attn";
  M.Files = {{"csrc/a.cu", "csrc/kernels/attn/a.cu", "11", "22", {}}};
  M.Generated = {
      {"csrc/kernels/attn/attn.cpp", "33", {}},
      {"src/cache_dit/kernels/__init__.py", "", {{"init-all", "44"}, {"init-reexport", "55"}}},
      {"csrc/kernels/attn/opmig-validation-spec.json", "66", {}, true}};
  M.Build = BuildRecord{20,
                        {"-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__"},
                        {"csrc/kernels", "csrc/third_party/spdlog/include"},
                        {"--expt-relaxed-constexpr"},
                        "sm_90a"};
  return M;
}

TEST(ManifestTest, RoundTripsEveryField) {
  Manifest M = sampleManifest();
  std::string Text = serializeManifest(M);
  llvm::Expected<Manifest> Parsed = parseManifest(Text, "m.json");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_EQ(serializeManifest(*Parsed), Text);
  EXPECT_EQ(Parsed->Upstream.PathPrefix, "samples/upstream/");
  EXPECT_TRUE(Parsed->Upstream.Dirty);
  ASSERT_EQ(Parsed->Generated.size(), 3u);
  EXPECT_EQ(Parsed->Generated[0].Sha256, "33");
  EXPECT_FALSE(Parsed->Generated[0].UserEditable);
  EXPECT_TRUE(Parsed->Generated[2].UserEditable);
  EXPECT_EQ(Parsed->Generated[1].Blocks.at("init-reexport"), "55");
  EXPECT_EQ(Parsed->Renames[1].To, "svdq");
  EXPECT_EQ(Parsed->Files[0].MigratedSha256, "22");
  EXPECT_EQ(Parsed->Spec, "cache-dit");
  ASSERT_TRUE(Parsed->Build.has_value());
  EXPECT_EQ(Parsed->Build->CxxStandard, 20u);
  EXPECT_EQ(Parsed->Build->IncludeDirs[1], "csrc/third_party/spdlog/include");
  EXPECT_EQ(Parsed->Build->NvccFlags, std::vector<std::string>{"--expt-relaxed-constexpr"});
  EXPECT_EQ(Parsed->Build->GpuArch, "sm_90a");
}

TEST(ManifestTest, AcceptsTheMathAndRegisterFlagsMigrateCarries) {
  nlohmann::json J = nlohmann::json::parse(serializeManifest(sampleManifest()));
  std::vector<std::string> Flags = {"--expt-extended-lambda", "--use_fast_math",   "--ftz=true",
                                    "--prec-div=false",       "--prec-sqrt=false", "--fmad=true",
                                    "--maxrregcount=128"};
  J["build"]["nvcc_flags"] = Flags;
  llvm::Expected<Manifest> Parsed = parseManifest(J.dump(), "m.json");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_EQ(Parsed->Build->NvccFlags, Flags);
}

// Manifests of older opmig versions have neither: a review then says what it
// cannot judge instead of refusing them.
TEST(ManifestTest, SpecAndBuildAreOptionalOnRead) {
  Manifest M = sampleManifest();
  M.Spec.clear();
  M.Build.reset();
  nlohmann::json J = nlohmann::json::parse(serializeManifest(M));
  J.erase("spec");
  ASSERT_FALSE(J.contains("build"));
  llvm::Expected<Manifest> Parsed = parseManifest(J.dump(), "m.json");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_EQ(Parsed->Spec, "");
  EXPECT_FALSE(Parsed->Build.has_value());
}

// The build record becomes an nvcc command line in a review: what migrate
// never records is refused, naming the manifest.
TEST(ManifestTest, RejectsBuildFlagsAMigratedBuildDoesNotCarry) {
  struct Case {
    const char *Key;
    nlohmann::json Value;
    const char *Message;
  };
  const Case Cases[] = {
      {"nvcc_flags", {"-ccbin=/tmp/evil"}, "build.nvcc_flags '-ccbin=/tmp/evil' is not one of"},
      {"nvcc_flags", {"-o"}, "build.nvcc_flags '-o' is not one of"},
      {"nvcc_flags", {"--ftz=yes"}, "build.nvcc_flags '--ftz=yes' is not one of"},
      {"nvcc_flags", {"--maxrregcount=64;rm"}, "build.nvcc_flags '--maxrregcount=64;rm' is not"},
      {"nvcc_flags", {"-use_fast_math"}, "build.nvcc_flags '-use_fast_math' is not one of"},
      {"nvcc_flags", {"-Xptxas=-O0"}, "build.nvcc_flags '-Xptxas=-O0' is not one of"},
      {"defines", {"-o/etc/x"}, "build.defines '-o/etc/x' is not a -DNAME[=VALUE] or -UNAME"},
      {"defines", {"-D"}, "build.defines '-D' is not"},
      {"gpu_arch", "sm_90 -ccbin=x", "build.gpu_arch 'sm_90 -ccbin=x' is not an NVIDIA"},
      {"include_dirs", {"../../etc"}, "build.include_dirs '../../etc' is not a relative path"},
      {"include_dirs", {"/usr/include"}, "build.include_dirs '/usr/include' is not a relative"},
  };
  for (const Case &C : Cases) {
    nlohmann::json J = nlohmann::json::parse(serializeManifest(sampleManifest()));
    J["build"][C.Key] = C.Value;
    llvm::Expected<Manifest> M = parseManifest(J.dump(), "dir/m.json");
    ASSERT_FALSE(bool(M)) << C.Key;
    std::string Message = llvm::toString(M.takeError());
    EXPECT_NE(Message.find(std::string("dir/m.json: ") + C.Message), std::string::npos) << Message;
  }
}

Manifest withLeftOut() {
  Manifest M = sampleManifest();
  LeftOutRange Defs;
  Defs.FirstLine = 12;
  Defs.LastLine = 30;
  Defs.Begin = 200;
  Defs.End = 640;
  Defs.Definitions = {"sample_ops::fwd", "PYBIND11_MODULE"};
  LeftOutRange Include;
  Include.FirstLine = Include.LastLine = 3;
  Include.Begin = 40;
  Include.End = 62;
  Include.Include = "\"fused/fwd.h\"";
  M.Files[0].LeftOut = {Include, Defs};
  return M;
}

TEST(ManifestTest, RoundTripsWhatMigrateLeftOut) {
  std::string Text = serializeManifest(withLeftOut());
  llvm::Expected<Manifest> Parsed = parseManifest(Text, "m.json");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_EQ(serializeManifest(*Parsed), Text);
  const std::vector<LeftOutRange> &LeftOut = Parsed->Files[0].LeftOut;
  ASSERT_EQ(LeftOut.size(), 2u);
  EXPECT_EQ(LeftOut[0].Include, "\"fused/fwd.h\"");
  EXPECT_TRUE(LeftOut[0].Definitions.empty());
  EXPECT_EQ(LeftOut[1].FirstLine, 12u);
  EXPECT_EQ(LeftOut[1].LastLine, 30u);
  EXPECT_EQ(LeftOut[1].Begin, 200u);
  EXPECT_EQ(LeftOut[1].End, 640u);
  EXPECT_EQ(LeftOut[1].Definitions,
            (std::vector<std::string>{"sample_ops::fwd", "PYBIND11_MODULE"}));
}

// A file copied whole has no `left_out`: manifests of older opmig versions
// read the same, and a whole copy writes what they wrote.
TEST(ManifestTest, LeftOutIsOptionalAndAbsentWhenNothingWasLeftOut) {
  nlohmann::json J = nlohmann::json::parse(serializeManifest(sampleManifest()));
  EXPECT_FALSE(J["files"][0].contains("left_out"));
  llvm::Expected<Manifest> Parsed = parseManifest(J.dump(), "m.json");
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  EXPECT_TRUE(Parsed->Files[0].LeftOut.empty());
}

// Validate blanks these ranges in a copy of the upstream file: a range
// edited to be empty, reversed or about nothing is refused, naming it.
TEST(ManifestTest, RejectsLeftOutRangesThatBlankNothingSensible) {
  struct Case {
    const char *Key;
    nlohmann::json Value;
    const char *Message;
  };
  const Case Cases[] = {
      {"first_line", 0, "its lines are not 1-based and in order"},
      {"last_line", 11, "its lines are not 1-based and in order"},
      {"end", 200, "its byte range is empty or reversed"},
      {"definitions", nlohmann::json::array(), "names neither definitions nor an include"},
      {"include", "\"x.h\"", "names neither definitions nor an include, or both"},
      {"begin", "200", "malformed manifest"},
  };
  for (const Case &C : Cases) {
    nlohmann::json J = nlohmann::json::parse(serializeManifest(withLeftOut()));
    J["files"][0]["left_out"][1][C.Key] = C.Value;
    llvm::Expected<Manifest> M = parseManifest(J.dump(), "dir/m.json");
    ASSERT_FALSE(bool(M)) << C.Key;
    std::string Message = llvm::toString(M.takeError());
    EXPECT_NE(Message.find(C.Message), std::string::npos) << Message;
    EXPECT_NE(Message.find("dir/m.json"), std::string::npos) << Message;
  }
}

TEST(ManifestTest, SerializationIsDeterministicAndEndsInNewline) {
  std::string A = serializeManifest(sampleManifest()), B = serializeManifest(sampleManifest());
  EXPECT_EQ(A, B);
  EXPECT_EQ(A.back(), '\n');
  EXPECT_NE(A.find("\"schema\": \"opmig.manifest/1\""), std::string::npos);
}

TEST(ManifestTest, RejectsAnotherSchemaNamingTheFile) {
  llvm::Expected<Manifest> M = parseManifest(R"({"schema": "opmig.manifest/0"})", "dir/m.json");
  ASSERT_FALSE(bool(M));
  std::string Message = llvm::toString(M.takeError());
  EXPECT_NE(Message.find("dir/m.json: not an opmig manifest"), std::string::npos) << Message;
}

TEST(ManifestTest, RejectsMalformedJsonNamingTheFile) {
  llvm::Expected<Manifest> M = parseManifest("{\"schema\": ", "dir/m.json");
  ASSERT_FALSE(bool(M));
  std::string Message = llvm::toString(M.takeError());
  EXPECT_NE(Message.find("dir/m.json: malformed manifest"), std::string::npos) << Message;
}

TEST(ManifestTest, RejectsMissingFields) {
  llvm::Expected<Manifest> M = parseManifest(R"({"schema": "opmig.manifest/1", "tool": {}})", "m");
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError()).find("malformed manifest"), std::string::npos);
}

TEST(ManifestTest, Sha256MatchesTheStandardVector) {
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

} // namespace
} // namespace opmig
