//===- SourceRewriterTest.cpp - Tests for the Clang-based rewrite ---------===//
//
// The fixture, the runner of the case tables (`RewriteCases*.cpp`) and the
// tests that do more than compare text: a failed read, a migrated tree that
// must compile, a flattened layout, `renamedQualifiedName`.
//
//===----------------------------------------------------------------------===//

#include "RewriteFixture.h"
#include "opmig/migrate/FileLayout.h"
#include "opmig/report/FindingText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <ostream>

namespace opmig::migrate::test {

std::string makeTempDir(llvm::StringRef Prefix) {
  llvm::SmallString<128> Created, Real;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(Prefix, Created));
  EXPECT_FALSE(llvm::sys::fs::real_path(Created, Real));
  return std::string(Real);
}

void writeFile(const std::string &Path, llvm::StringRef Text) {
  EXPECT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)));
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  EXPECT_FALSE(EC) << Path;
  OS << Text;
}

void SourceRewriterTest::SetUp() {
  Root = makeTempDir("opmig-rewrite");
  Outside = makeTempDir("opmig-rewrite-outside");
  writeFile(Outside + "/cuda_stub.h", "#pragma once\n"
                                      "#define __global__ __attribute__((global))\n"
                                      "#define __device__ __attribute__((device))\n"
                                      "#define __host__ __attribute__((host))\n");
}

void SourceRewriterTest::TearDown() {
  llvm::sys::fs::remove_directories(Root);
  llvm::sys::fs::remove_directories(Outside);
}

void SourceRewriterTest::write(llvm::StringRef Relative, llvm::StringRef Text) {
  writeFile(Root + "/" + Relative.str(), Text);
}

std::vector<std::string> SourceRewriterTest::flagsFor(llvm::StringRef TU) const {
  std::vector<std::string> Flags = {"-std=c++17", "-I" + Root};
  if (TU.ends_with(".cu"))
    Flags.insert(Flags.end(), {"-nocudainc", "-nocudalib", "-include", Outside + "/cuda_stub.h"});
  return Flags;
}

RewriteRequest SourceRewriterTest::request(std::map<std::string, std::string> Files) const {
  RewriteRequest Request;
  Request.SourceRoot = Root;
  Request.FileMap = std::move(Files);
  for (const auto &[Upstream, Target] : Request.FileMap)
    if (llvm::StringRef(Upstream).ends_with(".cpp") || llvm::StringRef(Upstream).ends_with(".cu"))
      Request.TUFlags[Upstream] = flagsFor(Upstream);
  return Request;
}

RewriteResult SourceRewriterTest::rewrite(const RewriteRequest &Request) {
  llvm::Expected<RewriteResult> Result = rewriteSources(Request);
  if (!Result) {
    ADD_FAILURE() << llvm::toString(Result.takeError());
    return {};
  }
  return std::move(*Result);
}

std::string SourceRewriterTest::contentOf(const RewriteResult &Result, llvm::StringRef Upstream) {
  for (const RewrittenFile &File : Result.Files)
    if (File.UpstreamPath == Upstream)
      return File.Content;
  ADD_FAILURE() << "no rewritten file " << Upstream.str();
  return "<none>";
}

std::string SourceRewriterTest::issuesOf(const RewriteResult &Result) {
  std::string Text;
  for (const Finding &Issue : Result.Issues)
    Text += report::findingLine(Issue) + "\n";
  return Text;
}

void PrintTo(const RewriteCase &Case, std::ostream *OS) { *OS << Case.Name; }

namespace {

/// `Text` with `$ROOT` and `$OUTSIDE` replaced.
std::string expand(llvm::StringRef Text, llvm::StringRef Root, llvm::StringRef Outside) {
  std::string Out;
  while (!Text.empty()) {
    if (Text.consume_front("$ROOT"))
      Out += Root;
    else if (Text.consume_front("$OUTSIDE"))
      Out += Outside;
    else {
      Out += Text.front();
      Text = Text.drop_front();
    }
  }
  return Out;
}

} // namespace

//===----------------------------------------------------------------------===//
// The case tables
//===----------------------------------------------------------------------===//

TEST_P(RewriteTest, Rewrites) {
  const RewriteCase &Case = GetParam();
  auto Expand = [&](llvm::StringRef Text) { return expand(Text, Root, Outside); };
  for (const auto &[Path, Text] : Case.Files) {
    if (llvm::StringRef(Path).starts_with("$"))
      writeFile(Expand(Path), Text);
    else
      write(Path, Text);
  }

  std::map<std::string, std::string> Files;
  for (llvm::StringRef Port : Case.Port) {
    auto [Upstream, Target] = Port.split(" -> ");
    Files[Upstream.str()] = (Target.empty() ? Upstream : Target).str();
  }
  RewriteRequest Request = request(Files);
  Request.Renames = Case.Renames;
  Request.WrapGlobalInto = Case.WrapGlobalInto;
  Request.IncludeRoot = Case.IncludeRoot;
  Request.Includes = Case.Includes;
  Request.ExternalDirs = Case.ExternalDirs;
  for (const std::string &Arg : Case.ExtraArgs)
    Request.ExtraArgs.push_back(Expand(Arg));
  for (const auto &[TU, Flags] : Case.TUFlags) {
    ASSERT_TRUE(Request.TUFlags.count(TU)) << TU << " is not a ported TU";
    for (const std::string &Flag : Flags)
      Request.TUFlags[TU].push_back(Expand(Flag));
  }
  for (const DroppedSibling &Drop : Case.DropDefinitions)
    Request.DropDefinitions[Drop.File].push_back({Drop.Name, {Drop.File, Drop.Line}, 0, 0, {}, {}});
  Request.DropIncludeLines = Case.DropIncludeLines;
  Request.Headers = Case.Headers;

  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(Result.Files.size(), Files.size());
  for (const auto &[Upstream, Text] : Case.Expect)
    EXPECT_EQ(contentOf(Result, Upstream), Text) << Upstream;
  EXPECT_EQ(issuesOf(Result), Case.Issues);
  for (const auto &[Upstream, Names] : Case.Dropped) {
    auto File = llvm::find_if(Result.Files,
                              [&](const RewrittenFile &F) { return F.UpstreamPath == Upstream; });
    ASSERT_NE(File, Result.Files.end()) << "no rewritten file " << Upstream;
    EXPECT_EQ(File->DroppedDefinitions, Names) << Upstream;
  }
}

namespace {

std::optional<std::string> findClang() {
  llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName("clang++-22");
  if (!Path)
    return std::nullopt;
  return *Path;
}

/// Runs `Args` and returns its stderr, or why it could not run.
std::string runQuietly(const std::vector<std::string> &Args) {
  llvm::SmallString<128> Errors;
  if (llvm::sys::fs::createTemporaryFile("opmig-rewrite-clang", "txt", Errors))
    return "cannot create a temporary file";
  std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                llvm::StringRef(Errors)};
  std::string Why;
  int Code = llvm::sys::ExecuteAndWait(Args.front(), Argv, std::nullopt, Redirects, 0, 0, &Why);
  auto Text = llvm::MemoryBuffer::getFile(Errors);
  std::string Output = Text ? (*Text)->getBuffer().str() : std::string();
  llvm::sys::fs::remove(Errors);
  if (Code != 0 && Output.empty())
    Output = "exit " + std::to_string(Code) + " " + Why;
  // Clang warns that the toolkit is newer than it knows; only errors count.
  return Code == 0 ? std::string() : Output;
}

//===----------------------------------------------------------------------===//
// Tests of their own
//===----------------------------------------------------------------------===//

TEST_F(SourceRewriterTest, UnreadableFileFails) {
  RewriteRequest Request = request({{"missing.h", "missing.h"}});
  llvm::Expected<RewriteResult> Result = rewriteSources(Request);
  ASSERT_FALSE(bool(Result));
  EXPECT_EQ(llvm::toString(Result.takeError()).rfind("cannot read " + Root + "/missing.h: ", 0),
            0u);
}

/// A nunchaku-shaped tree laid out with `--flatten src/kernels --flatten
/// nunchaku/csrc`: includes relative to the file, through `-I src`, across
/// the flattened and the kept folders, and in a branch no parse entered.
class FlattenedIncludesTest : public SourceRewriterTest {
protected:
  RewriteRequest flattened() {
    write("src/interop/torch.h", "#pragma once\n");
    write("src/kernels/zgemm/zgemm.h", "#pragma once\n"
                                       "#include \"../../interop/torch.h\"\n");
    write("src/kernels/zgemm/x.h", "#pragma once\n"
                                   "#include \"zgemm.h\"\n");
    write("nunchaku/csrc/ops.cpp", "#include \"kernels/zgemm/x.h\"\n"
                                   "#include \"interop/torch.h\"\n"
                                   "#ifdef NEVER_DEFINED\n"
                                   "#include \"kernels/zgemm/zgemm.h\"\n"
                                   "#endif\n");
    llvm::Expected<std::map<std::string, std::string>> Layout =
        layoutFiles({"src/interop/torch.h", "src/kernels/zgemm/zgemm.h", "src/kernels/zgemm/x.h",
                     "nunchaku/csrc/ops.cpp"},
                    {"src/kernels", "nunchaku/csrc"});
    EXPECT_TRUE(bool(Layout)) << llvm::toString(Layout.takeError());
    std::map<std::string, std::string> Files;
    if (Layout)
      for (const auto &[Up, Below] : *Layout)
        Files[Up] = "kernels/svdq/" + Below;
    EXPECT_EQ(Files.at("nunchaku/csrc/ops.cpp"), "kernels/svdq/ops.cpp");
    RewriteRequest Request = request(Files);
    Request.TUFlags["nunchaku/csrc/ops.cpp"].push_back("-I" + Root + "/src");
    return Request;
  }
};

TEST_F(FlattenedIncludesTest, RespelledRelativeToTheFile) {
  RewriteRequest Request = flattened();
  Request.Includes = IncludeStyle::RelativeToFile;
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "nunchaku/csrc/ops.cpp"), "#include \"zgemm/x.h\"\n"
                                                        "#include \"src/interop/torch.h\"\n"
                                                        "#ifdef NEVER_DEFINED\n"
                                                        "#include \"zgemm/zgemm.h\"\n"
                                                        "#endif\n");
  EXPECT_EQ(contentOf(Result, "src/kernels/zgemm/zgemm.h"),
            "#pragma once\n"
            "#include \"../src/interop/torch.h\"\n");
  EXPECT_EQ(contentOf(Result, "src/kernels/zgemm/x.h"), "#pragma once\n"
                                                        "#include \"zgemm.h\"\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(FlattenedIncludesTest, RespelledRelativeToTheIncludeRoot) {
  RewriteRequest Request = flattened();
  Request.IncludeRoot = "kernels";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "nunchaku/csrc/ops.cpp"), "#include \"svdq/zgemm/x.h\"\n"
                                                        "#include \"svdq/src/interop/torch.h\"\n"
                                                        "#ifdef NEVER_DEFINED\n"
                                                        "#include \"svdq/zgemm/zgemm.h\"\n"
                                                        "#endif\n");
  EXPECT_EQ(contentOf(Result, "src/kernels/zgemm/zgemm.h"),
            "#pragma once\n"
            "#include \"svdq/src/interop/torch.h\"\n");
  EXPECT_EQ(contentOf(Result, "src/kernels/zgemm/x.h"), "#pragma once\n"
                                                        "#include \"svdq/zgemm/zgemm.h\"\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, MigratedTreeCompiles) {
  write("csrc/common/math.h", "#pragma once\n"
                              "// Rounds up.\n"
                              "inline int ceil_div(int a, int b) { return (a + b - 1) / b; }\n"
                              "constexpr int kHalf = 2;\n"
                              "namespace sample_ops::detail {\n"
                              "template <typename T> struct Traits { static constexpr int kBytes = "
                              "sizeof(T); };\n"
                              "}\n");
  write("csrc/ops/launch.h", "#pragma once\n"
                             "#include \"../common/math.h\"\n"
                             "namespace sample_ops {\n"
                             "int blocks(int n);\n"
                             "template <typename T> int bytes(int n) { return n * "
                             "detail::Traits<T>::kBytes; }\n"
                             "} // namespace sample_ops\n"
                             "#define SAMPLE_BLOCKS(n) sample_ops::blocks(n)\n");
  write("csrc/ops/launch.cu", "#include \"common/math.h\"\n"
                              "#include \"ops/launch.h\"\n"
                              "__global__ void halve(int *p) { *p /= kHalf; }\n"
                              "int sample_ops::blocks(int n) { return ::ceil_div(n, 128); }\n"
                              "template int sample_ops::bytes<float>(int);\n");
  write("csrc/binding.cpp", "#include \"ops/launch.h\"\n"
                            "using namespace sample_ops;\n"
                            "int entry(int n) { return SAMPLE_BLOCKS(n) + bytes<double>(n); }\n"
                            "// Not needed.\n"
                            "int sibling(int n) { return sample_ops::blocks(n) * 2; }\n"
                            "namespace other { int use(int n) { return entry(n); } }\n");
  RewriteRequest Request = request({{"csrc/common/math.h", "kernels/attn/common/math.h"},
                                    {"csrc/ops/launch.h", "kernels/attn/launch.h"},
                                    {"csrc/ops/launch.cu", "kernels/attn/launch.cu"},
                                    {"csrc/binding.cpp", "kernels/attn/attn.cpp"}});
  for (auto &[TU, Flags] : Request.TUFlags)
    Flags.push_back("-I" + Root + "/csrc");
  Request.Renames = {{"sample_ops", "cache_dit::attn"}};
  Request.WrapGlobalInto = "cache_dit::attn";
  Request.IncludeRoot = "kernels";
  Request.DropDefinitions["csrc/binding.cpp"] = {
      {"sibling", {"csrc/binding.cpp", 5}, 0, 0, {}, {}}};
  RewriteResult Result = rewrite(Request);
  ASSERT_EQ(issuesOf(Result), "");
  EXPECT_EQ(contentOf(Result, "csrc/binding.cpp"),
            "#include \"attn/launch.h\"\n"
            "using namespace cache_dit::attn;\n"
            "namespace cache_dit::attn {\n"
            "int entry(int n) { return SAMPLE_BLOCKS(n) + bytes<double>(n); }\n"
            "} // namespace cache_dit::attn\n"
            "namespace other { int use(int n) { return cache_dit::attn::entry(n); } }\n");

  std::string Target = makeTempDir("opmig-rewrite-target");
  for (const RewrittenFile &File : Result.Files)
    writeFile(Target + "/" + File.TargetPath, File.Content);
  std::optional<std::string> Clang = findClang();
  ASSERT_TRUE(Clang) << "clang++-22 is not on PATH";
  std::vector<std::vector<std::string>> Compiles = {
      {"-x", "c++", Target + "/kernels/attn/attn.cpp"},
      {"-x", "cuda", "--cuda-host-only", Target + "/kernels/attn/launch.cu"},
      {"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
       Target + "/kernels/attn/launch.cu"}};
  for (const std::vector<std::string> &Input : Compiles) {
    std::vector<std::string> Args = {*Clang,
                                     "-fsyntax-only",
                                     "-std=c++17",
                                     "-nocudainc",
                                     "-nocudalib",
                                     "-include",
                                     Outside + "/cuda_stub.h",
                                     "-I" + Target + "/kernels"};
    Args.insert(Args.end(), Input.begin(), Input.end());
    EXPECT_EQ(runQuietly(Args), "") << Input.back();
  }
  llvm::sys::fs::remove_directories(Target);
}

//===----------------------------------------------------------------------===//
// renamedQualifiedName
//===----------------------------------------------------------------------===//

TEST(RenamedQualifiedNameTest, RenamesNamespacePrefix) {
  EXPECT_EQ(renamedQualifiedName("sample_ops::f", {{"sample_ops", "cache_dit::attn"}}, ""),
            "cache_dit::attn::f");
}

TEST(RenamedQualifiedNameTest, WrapsGlobalName) {
  EXPECT_EQ(renamedQualifiedName("f", {}, "cache_dit::attn"), "cache_dit::attn::f");
  EXPECT_EQ(renamedQualifiedName("::f", {}, "cache_dit::attn"), "cache_dit::attn::f");
  EXPECT_EQ(renamedQualifiedName("f", {}, ""), "f");
}

TEST(RenamedQualifiedNameTest, LongestRenameWins) {
  std::vector<NamespaceRename> Renames = {{"a", "x"}, {"a::b", "y::z"}};
  EXPECT_EQ(renamedQualifiedName("a::b::f", Renames, ""), "y::z::f");
  EXPECT_EQ(renamedQualifiedName("a::c::f", Renames, ""), "x::c::f");
}

TEST(RenamedQualifiedNameTest, MatchesWholeComponentsOnly) {
  EXPECT_EQ(renamedQualifiedName("sample_opsx::f", {{"sample_ops", "z"}}, "w"), "sample_opsx::f");
  EXPECT_EQ(renamedQualifiedName("other::f", {{"sample_ops", "z"}}, "w"), "other::f");
}

} // namespace
} // namespace opmig::migrate::test
