#include "opmig/migrate/Manifest.h"

#include <gtest/gtest.h>

namespace opmig::migrate {
namespace {

Manifest sampleManifest() {
  Manifest M;
  M.ToolVersion = "0.1.0";
  M.Profile = "cache-dit";
  M.Domain = "attn";
  M.Upstream = {"https://example.com/up.git", "0123abcd", true, "samples/upstream/"};
  M.Entries = {"merge_attn_states"};
  M.Ops = {{"merge_attn_states", "cache_dit::attn::merge_attn_states", "merge_attn_states",
            "(Tensor a) -> Tensor", true}};
  M.Renames = {{"sample_ops", "cache_dit::attn"}, {"svdq", "svdq"}};
  M.WrapGlobalInto = "cache_dit::attn";
  M.Files = {{"csrc/a.cu", "csrc/kernels/attn/a.cu", "11", "22"}};
  M.Generated = {
      {"csrc/kernels/attn/attn.cpp", "33", {}},
      {"src/cache_dit/kernels/__init__.py", "", {{"init-all", "44"}, {"init-reexport", "55"}}}};
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
  ASSERT_EQ(Parsed->Generated.size(), 2u);
  EXPECT_EQ(Parsed->Generated[0].Sha256, "33");
  EXPECT_EQ(Parsed->Generated[1].Blocks.at("init-reexport"), "55");
  EXPECT_EQ(Parsed->Renames[1].To, "svdq");
  EXPECT_EQ(Parsed->Files[0].MigratedSha256, "22");
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
} // namespace opmig::migrate
