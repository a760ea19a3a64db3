//===- PreambleRunsTest.cpp - Which includes a preamble precompiles -------===//
//
// leadingExternalIncludes reads a TU's text up to its first directive that
// is not an external #include; sharedRun picks the run TUs share. The TUs
// live in a temporary tree on disk, since includes resolve through it.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/Preamble.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig::analyze;

namespace {

using Includes = std::vector<std::string>;

class LeadingIncludes : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Created, Real;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-preamble-runs", Created));
    ASSERT_FALSE(llvm::sys::fs::real_path(Created, Real));
    Root = std::string(Real);
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/csrc"));
    ASSERT_FALSE(llvm::sys::fs::create_directories(Root + "/include"));
    write(Root + "/csrc/local.h", "#pragma once\n");
    write(Root + "/include/lib.h", "#pragma once\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  static void write(const std::string &Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << Path;
    OS << Text;
  }

  /// The run of a TU at csrc/tu.cu with `Text`.
  Includes runOf(const std::string &Text, const std::vector<std::string> &Flags = {}) const {
    SourceFile TU;
    TU.Path = Root + "/csrc/tu.cu";
    TU.Content = Text;
    TU.IsTranslationUnit = true;
    return leadingExternalIncludes(TU, Flags, TreeScope{Root, {}});
  }

  std::string Root;
};

TEST_F(LeadingIncludes, CommentsAndBlankLinesMayPrecedeAndSeparate) {
  EXPECT_EQ(runOf("// Operator one.\n\n/* a block\n   comment */\n#include <torch/all.h>\n\n"
                  "// the stream\n#include \"cuda_fp16.h\" // why\nint x;\n"),
            (Includes{"<torch/all.h>", "\"cuda_fp16.h\""}));
}

TEST_F(LeadingIncludes, AMacroFirstMeansNoRun) {
  EXPECT_EQ(runOf("#define USE_ROCM 0\n#include <torch/all.h>\n"), Includes{});
  // A macro after the first include ends the run there.
  EXPECT_EQ(runOf("#include <torch/all.h>\n#define N 4\n#include <ATen/ATen.h>\n"),
            Includes{"<torch/all.h>"});
}

TEST_F(LeadingIncludes, ATreeHeaderEndsTheRun) {
  EXPECT_EQ(runOf("#include \"local.h\"\n#include <torch/all.h>\n"), Includes{});
  EXPECT_EQ(runOf("#include <torch/all.h>\n#include \"local.h\"\n#include <ATen/ATen.h>\n"),
            Includes{"<torch/all.h>"});
}

TEST_F(LeadingIncludes, QuotedAndAngledSearchDifferently) {
  // A quoted include looks beside the TU first; an angled one does not.
  EXPECT_EQ(runOf("#include <local.h>\n"), Includes{"<local.h>"});
  EXPECT_EQ(runOf("#include \"local.h\"\n"), Includes{});
  // Through -I, an angled include reaches a tree header too.
  EXPECT_EQ(runOf("#include <lib.h>\n", {"-I", Root + "/include"}), Includes{});
  EXPECT_EQ(runOf("#include <lib.h>\n", {"-I" + Root + "/include"}), Includes{});
  EXPECT_EQ(runOf("#include <lib.h>\n"), Includes{"<lib.h>"});
  // -iquote serves quoted includes only.
  EXPECT_EQ(runOf("#include \"lib.h\"\n", {"-iquote", Root + "/include"}), Includes{});
  EXPECT_EQ(runOf("#include <lib.h>\n", {"-iquote", Root + "/include"}), Includes{"<lib.h>"});
}

TEST_F(LeadingIncludes, PragmaOnceIsNotAnInclude) {
  EXPECT_EQ(runOf("#pragma once\n#include <torch/all.h>\n"), Includes{});
}

TEST_F(LeadingIncludes, IncludeNextIsNotAnInclude) {
  EXPECT_EQ(runOf("#include_next <torch/all.h>\n"), Includes{});
  EXPECT_EQ(runOf("#include <cuda.h>\n#include_next <torch/all.h>\n"), Includes{"<cuda.h>"});
}

TEST_F(LeadingIncludes, ATUWithoutIncludesHasNoRun) {
  EXPECT_EQ(runOf("int main() { return 0; }\n"), Includes{});
  EXPECT_EQ(runOf(""), Includes{});
  EXPECT_EQ(runOf("// only a comment\n"), Includes{});
}

TEST_F(LeadingIncludes, CodeEndsTheRun) {
  EXPECT_EQ(runOf("#include <torch/all.h>\nnamespace ops {}\n#include <ATen/ATen.h>\n"),
            Includes{"<torch/all.h>"});
}

TEST(SharedRun, FewerThanTwoTUsShareNothing) {
  EXPECT_EQ(sharedRun({}), Includes{});
  EXPECT_EQ(sharedRun({{"<a.h>", "<b.h>"}}), Includes{});
  EXPECT_EQ(sharedRun({{"<a.h>"}, {}, {}}), Includes{});
  EXPECT_EQ(sharedRun({{"<a.h>"}, {"<b.h>"}}), Includes{});
}

TEST(SharedRun, TheLongestCommonPrefix) {
  EXPECT_EQ(sharedRun({{"<a.h>", "<b.h>", "<c.h>"}, {"<a.h>", "<b.h>", "<d.h>"}}),
            (Includes{"<a.h>", "<b.h>"}));
  EXPECT_EQ(sharedRun({{"<a.h>", "<b.h>"}, {"<a.h>", "<b.h>", "<c.h>"}}),
            (Includes{"<a.h>", "<b.h>"}));
  EXPECT_EQ(sharedRun({{"<a.h>", "<b.h>"}, {"<a.h>", "<b.h>"}}), (Includes{"<a.h>", "<b.h>"}));
}

TEST(SharedRun, TheMostCommonFirstIncludeWins) {
  // Three TUs start with <a.h>: their prefix, though two others agree more.
  EXPECT_EQ(sharedRun({{"<x.h>", "<y.h>"},
                       {"<a.h>", "<b.h>"},
                       {"<a.h>", "<c.h>"},
                       {"<x.h>", "<y.h>"},
                       {"<a.h>", "<b.h>"}}),
            Includes{"<a.h>"});
}

TEST(SharedRun, TiesGoToTheFirstIncludeInOrderWhateverTheTUOrder) {
  Includes Expected = {"<a.h>", "<b.h>"};
  EXPECT_EQ(sharedRun({{"<c.h>"}, {"<a.h>", "<b.h>"}, {"<c.h>"}, {"<a.h>", "<b.h>"}}), Expected);
  EXPECT_EQ(sharedRun({{"<a.h>", "<b.h>"}, {"<c.h>"}, {"<a.h>", "<b.h>"}, {"<c.h>"}}), Expected);
}

TEST(SharedRun, StartsWithRun) {
  EXPECT_TRUE(startsWithRun({"<a.h>", "<b.h>"}, {"<a.h>"}));
  EXPECT_TRUE(startsWithRun({"<a.h>"}, {"<a.h>"}));
  EXPECT_FALSE(startsWithRun({"<a.h>"}, {"<a.h>", "<b.h>"}));
  EXPECT_FALSE(startsWithRun({"<a.h>"}, {}));
  EXPECT_FALSE(startsWithRun({"<b.h>", "<a.h>"}, {"<a.h>"}));
}

} // namespace
