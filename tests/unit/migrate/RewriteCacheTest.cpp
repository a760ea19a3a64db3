//===- RewriteCacheTest.cpp - The rewrite parses' cache -------------------===//
//
// A re-run of an unchanged rewrite parses nothing and gives the same text
// and issues; a change of any input the parses read (a ported header, a
// rename, a TU's flags) parses again.
//
//===----------------------------------------------------------------------===//

#include "RewriteFixture.h"

#include "llvm/Support/FileSystem.h"

namespace opmig::migrate::test {
namespace {

class RewriteCacheTest : public SourceRewriterTest {
protected:
  void SetUp() override {
    SourceRewriterTest::SetUp();
    Cache = makeTempDir("opmig-rewrite-cache");
    write("ops.h", "#pragma once\nnamespace sample_ops {\nint twice(int x);\n}\n");
    write("twice.cpp", "#include \"ops.h\"\nint sample_ops::twice(int x) { return 2 * x; }\n");
    write("entry.cpp", "#include \"ops.h\"\nnamespace sample_ops {\n"
                       "int entry(int x) { return twice(x) + 1; }\n}\n");
    // No TU includes it: parsed through a probe.
    write("alone.h", "#pragma once\nnamespace sample_ops {\ninline int one() { return 1; }\n}\n");
  }
  void TearDown() override {
    llvm::sys::fs::remove_directories(Cache);
    SourceRewriterTest::TearDown();
  }

  RewriteRequest cachedRequest() const {
    RewriteRequest Request = request({{"ops.h", "attn/ops.h"},
                                      {"twice.cpp", "attn/twice.cpp"},
                                      {"entry.cpp", "attn/entry.cpp"},
                                      {"alone.h", "attn/alone.h"}});
    Request.Renames = SampleOpsToAttn;
    Request.CacheDir = Cache;
    return Request;
  }

  static std::string textOf(const RewriteResult &Result) {
    std::string Text;
    for (const RewrittenFile &File : Result.Files)
      Text += "== " + File.TargetPath + "\n" + File.Content;
    return Text + "== issues\n" + issuesOf(Result);
  }

  std::string Cache;
};

TEST_F(RewriteCacheTest, AWarmRerunParsesNothingAndGivesTheSameText) {
  RewriteResult Cold = rewrite(cachedRequest());
  // Two TUs (host C++: one side each) and the probe of alone.h.
  EXPECT_EQ(Cold.Stats.ParsesRun, 3u);
  EXPECT_EQ(Cold.Stats.ParsesCached, 0u);
  EXPECT_NE(contentOf(Cold, "ops.h").find("namespace cache_dit::attn"), std::string::npos);

  RewriteResult Warm = rewrite(cachedRequest());
  EXPECT_EQ(Warm.Stats.ParsesRun, 0u);
  EXPECT_EQ(Warm.Stats.ParsesCached, 3u);
  EXPECT_EQ(textOf(Warm), textOf(Cold));
}

TEST_F(RewriteCacheTest, WithoutACacheFolderEveryParseRuns) {
  RewriteRequest Request = cachedRequest();
  Request.CacheDir.clear();
  rewrite(Request);
  RewriteResult Again = rewrite(Request);
  EXPECT_EQ(Again.Stats.ParsesRun, 3u);
  EXPECT_EQ(Again.Stats.ParsesCached, 0u);
}

TEST_F(RewriteCacheTest, TouchingAPortedHeaderParsesItsIncludersAgain) {
  rewrite(cachedRequest());
  write("ops.h",
        "#pragma once\nnamespace sample_ops {\nint twice(int x);\nint thrice(int x);\n}\n");
  RewriteResult Touched = rewrite(cachedRequest());
  // Both TUs include ops.h; alone.h's probe does not.
  EXPECT_EQ(Touched.Stats.ParsesRun, 2u);
  EXPECT_EQ(Touched.Stats.ParsesCached, 1u);
  EXPECT_NE(contentOf(Touched, "ops.h").find("int thrice(int x);"), std::string::npos);

  // The same text without a cache: what was read back merges as a parse.
  RewriteRequest Plain = cachedRequest();
  Plain.CacheDir.clear();
  EXPECT_EQ(textOf(Touched), textOf(rewrite(Plain)));
}

TEST_F(RewriteCacheTest, AnotherTargetNamespaceParsesEverythingAgain) {
  rewrite(cachedRequest());
  RewriteRequest Renamed = cachedRequest();
  Renamed.Renames = {{"sample_ops", "svdq::ops"}};
  RewriteResult Result = rewrite(Renamed);
  EXPECT_EQ(Result.Stats.ParsesRun, 3u);
  EXPECT_EQ(Result.Stats.ParsesCached, 0u);
  EXPECT_NE(contentOf(Result, "ops.h").find("namespace svdq::ops"), std::string::npos);
}

TEST_F(RewriteCacheTest, ChangedFlagsParseThatTUAgain) {
  rewrite(cachedRequest());
  RewriteRequest Flagged = cachedRequest();
  Flagged.TUFlags["twice.cpp"].push_back("-DOPMIG_TEST_FLAG=1");
  RewriteResult Result = rewrite(Flagged);
  EXPECT_EQ(Result.Stats.ParsesRun, 1u);
  EXPECT_EQ(Result.Stats.ParsesCached, 2u);

  // The probe of alone.h borrows the first ported TU's flags: it follows them.
  Flagged.TUFlags["entry.cpp"].push_back("-DOPMIG_TEST_FLAG=2");
  Result = rewrite(Flagged);
  EXPECT_EQ(Result.Stats.ParsesRun, 2u);
  EXPECT_EQ(Result.Stats.ParsesCached, 1u);
}

TEST_F(RewriteCacheTest, ADamagedEntryIsAMiss) {
  RewriteResult Cold = rewrite(cachedRequest());
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Cache, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".json"))
      writeFile(It->path(), "{\"stamps\": [], \"rewrite-parse/1\": {\"tu\": 3}}");
  RewriteResult Again = rewrite(cachedRequest());
  EXPECT_EQ(Again.Stats.ParsesRun, 3u);
  EXPECT_EQ(textOf(Again), textOf(Cold));
}

} // namespace
} // namespace opmig::migrate::test
