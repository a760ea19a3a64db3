//===- FileLayoutTest.cpp - Where closure files land, with --flatten ------===//
//
// The layout of closure files below the native folder: the shared folder
// stripped, `--flatten` prefixes (one, two, nested) placing their files as
// if each were that folder, and the inputs that fail: a prefix no ported file
// is under, two files landing on one path, malformed prefixes.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/FileLayout.h"

#include "opmig/support/Errors.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::migrate;

namespace {

using Layout = std::map<std::string, std::string>;

/// The nunchaku shape: kernels under src/kernels, torch-facing wrappers
/// under nunchaku/csrc, interop headers elsewhere under src.
const std::vector<std::string> Nunchaku = {"nunchaku/csrc/ops.h",
                                           "src/interop/torch.h",
                                           "src/kernels/zgemm/zgemm.h",
                                           "src/kernels/zgemm/x.cuh",
                                           "src/kernels/zgemm/x.cu",
                                           "src/kernels/awq/gemv.cu",
                                           "src/Tensor.h"};

Layout layout(const std::vector<std::string> &Files, const std::vector<std::string> &Flatten) {
  llvm::Expected<Layout> Result = layoutFiles(Files, Flatten);
  if (!Result) {
    ADD_FAILURE() << llvm::toString(Result.takeError());
    return {};
  }
  return *Result;
}

/// The InputError message that laying `Files` out fails with.
std::string layoutError(const std::vector<std::string> &Files,
                        const std::vector<std::string> &Flatten) {
  llvm::Expected<Layout> Result = layoutFiles(Files, Flatten);
  if (Result) {
    ADD_FAILURE() << "the layout did not fail";
    return "";
  }
  llvm::Error Err = Result.takeError();
  EXPECT_TRUE(Err.isA<InputError>());
  return llvm::toString(std::move(Err));
}

std::string prefixError(const std::string &Spec) {
  llvm::Expected<std::string> Prefix = parseFlattenPrefix(Spec);
  if (Prefix) {
    ADD_FAILURE() << "'" << Spec << "' was accepted as " << *Prefix;
    return "";
  }
  llvm::Error Err = Prefix.takeError();
  EXPECT_TRUE(Err.isA<InputError>());
  return llvm::toString(std::move(Err));
}

TEST(FileLayoutTest, CommonFolderIsTheDeepestSharedOne) {
  EXPECT_EQ(commonFolder({"csrc/a/x.cu", "csrc/a/y.h", "csrc/b/z.h"}), "csrc");
  EXPECT_EQ(commonFolder({"csrc/a/x.cu", "csrc/a/y.h"}), "csrc/a");
  EXPECT_EQ(commonFolder({"csrc/a/x.cu"}), "csrc/a");
  EXPECT_EQ(commonFolder({"csrc/x.cu", "src/y.h"}), "");
  EXPECT_EQ(commonFolder({"x.cu", "csrc/y.h"}), "");
  // A folder name that is a prefix of another's is no shared folder.
  EXPECT_EQ(commonFolder({"csrc/ab/x.cu", "csrc/a/y.h"}), "csrc");
  EXPECT_EQ(commonFolder({}), "");
}

TEST(FileLayoutTest, WithoutPrefixesFilesKeepTheirPathBelowTheSharedFolder) {
  EXPECT_EQ(layout({"csrc/attention/merge.cu", "csrc/common/checks.h"}, {}),
            (Layout{{"csrc/attention/merge.cu", "attention/merge.cu"},
                    {"csrc/common/checks.h", "common/checks.h"}}));
  EXPECT_EQ(layout(Nunchaku, {}).at("src/kernels/zgemm/x.cuh"), "src/kernels/zgemm/x.cuh");
}

TEST(FileLayoutTest, OnePrefixPlacesItsFilesAsIfItWereTheSharedFolder) {
  Layout L = layout(Nunchaku, {"src/kernels"});
  EXPECT_EQ(L.at("src/kernels/zgemm/x.cuh"), "zgemm/x.cuh");
  EXPECT_EQ(L.at("src/kernels/awq/gemv.cu"), "awq/gemv.cu");
  // The others keep their place below the closure's shared folder (none).
  EXPECT_EQ(L.at("nunchaku/csrc/ops.h"), "nunchaku/csrc/ops.h");
  EXPECT_EQ(L.at("src/interop/torch.h"), "src/interop/torch.h");
  EXPECT_EQ(L.size(), Nunchaku.size());
}

TEST(FileLayoutTest, TwoPrefixes) {
  Layout L = layout(Nunchaku, {"src/kernels", "nunchaku/csrc"});
  EXPECT_EQ(L.at("src/kernels/zgemm/x.cuh"), "zgemm/x.cuh");
  EXPECT_EQ(L.at("nunchaku/csrc/ops.h"), "ops.h");
  EXPECT_EQ(L.at("src/Tensor.h"), "src/Tensor.h");
}

TEST(FileLayoutTest, TheLongestOfNestedPrefixesWins) {
  for (const std::vector<std::string> &Flatten :
       {std::vector<std::string>{"src", "src/kernels"}, {"src/kernels", "src"}}) {
    Layout L = layout(Nunchaku, Flatten);
    EXPECT_EQ(L.at("src/kernels/zgemm/x.cuh"), "zgemm/x.cuh");
    EXPECT_EQ(L.at("src/interop/torch.h"), "interop/torch.h");
    EXPECT_EQ(L.at("src/Tensor.h"), "Tensor.h");
    EXPECT_EQ(L.at("nunchaku/csrc/ops.h"), "nunchaku/csrc/ops.h");
  }
  // A prefix can be the file's own folder, and above the shared folder.
  Layout Deep = layout({"csrc/a/b/x.h", "csrc/a/y.h"}, {"csrc/a/b", "csrc"});
  EXPECT_EQ(Deep.at("csrc/a/b/x.h"), "x.h");
  EXPECT_EQ(Deep.at("csrc/a/y.h"), "a/y.h");
}

TEST(FileLayoutTest, RepeatedPrefixIsAppliedOnce) {
  EXPECT_EQ(layout(Nunchaku, {"src/kernels", "src/kernels"}), layout(Nunchaku, {"src/kernels"}));
}

TEST(FileLayoutTest, PrefixThatNoPortedFileIsUnderIsAnInputError) {
  std::vector<std::string> Files = {"csrc/attention/merge.cu", "csrc/common/checks.h"};
  EXPECT_EQ(layoutError(Files, {"csrc/norm"}),
            "the folder to flatten csrc/norm: no file the migration ports is under it; the "
            "folders of the ported files: csrc, csrc/attention, csrc/common");
  // Not a folder but a partial name, and a file: neither is a folder of the closure.
  EXPECT_NE(layoutError(Files, {"csrc/atten"}).find("flatten csrc/atten: no file"),
            std::string::npos);
  EXPECT_NE(layoutError(Files, {"csrc/common/checks.h"}).find("flatten csrc/common/checks.h"),
            std::string::npos);
  // One good prefix does not excuse a bad one.
  EXPECT_NE(layoutError(Files, {"csrc/common", "lib"}).find("flatten lib: no file"),
            std::string::npos);
  EXPECT_EQ(layoutError({"x.cu"}, {"csrc"}),
            "the folder to flatten csrc: no file the migration ports is under it; the folders of "
            "the ported files: none (every file is at the top of the upstream tree)");
}

TEST(FileLayoutTest, ManyFoldersAreListedUpToALimit) {
  std::vector<std::string> Files;
  for (char C = 'a'; C <= 'p'; ++C)
    Files.push_back(std::string("d") + C + "/x.h");
  EXPECT_NE(layoutError(Files, {"e"}).find("dl and 4 more"), std::string::npos);
}

TEST(FileLayoutTest, TwoFilesLandingOnOnePathAreAnInputErrorNamingBoth) {
  EXPECT_EQ(
      layoutError({"src/kernels/ops.h", "nunchaku/csrc/ops.h"}, {"src/kernels", "nunchaku/csrc"}),
      "the folders to flatten place nunchaku/csrc/ops.h (flattened from nunchaku/csrc) and "
      "src/kernels/ops.h (flattened from src/kernels) both at ops.h; flatten fewer or deeper "
      "folders");
  // A flattened file onto one that keeps its place.
  EXPECT_EQ(layoutError({"csrc/x/csrc/a.h", "csrc/a.h", "lib/b.h"}, {"csrc/x"}),
            "the folders to flatten place csrc/a.h (not flattened) and csrc/x/csrc/a.h "
            "(flattened from csrc/x) both at csrc/a.h; flatten fewer or deeper folders");
  // Nested prefixes: the outer one's file onto the inner one's.
  EXPECT_NE(layoutError({"src/k/gemm.h", "src/gemm.h"}, {"src", "src/k"}).find("both at gemm.h"),
            std::string::npos);
}

TEST(FileLayoutTest, PrefixesAreNormalised) {
  for (const char *Spec : {"src/kernels", "src/kernels/", "./src/kernels", "././src/kernels//"}) {
    llvm::Expected<std::string> Prefix = parseFlattenPrefix(Spec);
    ASSERT_TRUE(bool(Prefix)) << Spec << ": " << llvm::toString(Prefix.takeError());
    EXPECT_EQ(*Prefix, "src/kernels") << Spec;
  }
}

TEST(FileLayoutTest, MalformedPrefixesAreInputErrorsNamingThem) {
  EXPECT_EQ(prefixError("/abs/src"),
            "invalid folder to flatten '/abs/src': it is an absolute path; name a folder of the "
            "upstream tree relative to its root, e.g. src/kernels");
  EXPECT_NE(prefixError("src/../lib").find("a `.` or `..` component"), std::string::npos);
  EXPECT_NE(prefixError("..").find("a `.` or `..` component"), std::string::npos);
  EXPECT_NE(prefixError("src/./k").find("a `.` or `..` component"), std::string::npos);
  EXPECT_NE(prefixError("src//k").find("an empty component"), std::string::npos);
  EXPECT_NE(prefixError("src\\k").find("a backslash"), std::string::npos);
  EXPECT_NE(prefixError("src/\nk").find("a control character"), std::string::npos);
  for (const char *Root : {"", ".", "./", "/"})
    EXPECT_NE(prefixError(Root).find(Root[0] == '/' ? "absolute" : "names the upstream root"),
              std::string::npos)
        << "'" << Root << "'";
}

} // namespace
