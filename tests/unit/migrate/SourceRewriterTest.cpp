//===- SourceRewriterTest.cpp - Tests for the Clang-based rewrite ---------===//
//
// Each test writes a small upstream tree into a fresh temporary directory,
// rewrites it and compares the exact output text. Host C++ (`.cpp`, `.h`)
// keeps parses in the tens of milliseconds; CUDA cases parse `.cu` files
// hermetically (`-nocudainc` plus a stub header outside the tree).
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/SourceRewriter.h"

#include "opmig/migrate/FileLayout.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::migrate;

namespace {

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

class SourceRewriterTest : public ::testing::Test {
protected:
  void SetUp() override {
    Root = makeTempDir("opmig-rewrite");
    Outside = makeTempDir("opmig-rewrite-outside");
    writeFile(Outside + "/cuda_stub.h", "#pragma once\n"
                                        "#define __global__ __attribute__((global))\n"
                                        "#define __device__ __attribute__((device))\n"
                                        "#define __host__ __attribute__((host))\n");
  }
  void TearDown() override {
    llvm::sys::fs::remove_directories(Root);
    llvm::sys::fs::remove_directories(Outside);
  }

  void write(llvm::StringRef Relative, llvm::StringRef Text) {
    writeFile(Root + "/" + Relative.str(), Text);
  }

  /// Flags of a TU: host C++, or hermetic CUDA.
  std::vector<std::string> flagsFor(llvm::StringRef TU) const {
    std::vector<std::string> Flags = {"-std=c++17", "-I" + Root};
    if (TU.ends_with(".cu"))
      Flags.insert(Flags.end(), {"-nocudainc", "-nocudalib", "-include", Outside + "/cuda_stub.h"});
    return Flags;
  }

  /// Ports `Files` (upstream -> target); `.cpp`/`.cu` files are TUs.
  RewriteRequest request(std::map<std::string, std::string> Files) const {
    RewriteRequest Request;
    Request.SourceRoot = Root;
    Request.FileMap = std::move(Files);
    for (const auto &[Upstream, Target] : Request.FileMap)
      if (llvm::StringRef(Upstream).ends_with(".cpp") || llvm::StringRef(Upstream).ends_with(".cu"))
        Request.TUFlags[Upstream] = flagsFor(Upstream);
    return Request;
  }
  /// Ports `Files` in place, renaming `sample_ops` to `cache_dit::attn`.
  RewriteRequest renaming(std::vector<std::string> Files) const {
    std::map<std::string, std::string> Map;
    for (const std::string &File : Files)
      Map[File] = File;
    RewriteRequest Request = request(Map);
    Request.Renames = {{"sample_ops", "cache_dit::attn"}};
    return Request;
  }

  static RewriteResult rewrite(const RewriteRequest &Request) {
    llvm::Expected<RewriteResult> Result = rewriteSources(Request);
    if (!Result) {
      ADD_FAILURE() << llvm::toString(Result.takeError());
      return {};
    }
    return std::move(*Result);
  }

  static std::string contentOf(const RewriteResult &Result, llvm::StringRef Upstream) {
    for (const RewrittenFile &File : Result.Files)
      if (File.UpstreamPath == Upstream)
        return File.Content;
    ADD_FAILURE() << "no rewritten file " << Upstream.str();
    return "<none>";
  }

  /// `file:line: blocking|note: message`, one per line.
  static std::string issuesOf(const RewriteResult &Result) {
    std::string Text;
    for (const RewriteIssue &Issue : Result.Issues)
      Text += Issue.Loc.File + ":" + std::to_string(Issue.Loc.Line) + ": " +
              (Issue.Blocking ? "blocking" : "note") + ": " + Issue.Message + "\n";
    return Text;
  }

  std::string Root, Outside;
};

//===----------------------------------------------------------------------===//
// Namespaces
//===----------------------------------------------------------------------===//

TEST_F(SourceRewriterTest, NamespaceDefinitionAndClosingComment) {
  write("ops.h", "#pragma once\n"
                 "namespace sample_ops {\n"
                 "void run();\n"
                 "} // namespace sample_ops\n");
  RewriteResult Result = rewrite(renaming({"ops.h"}));
  EXPECT_EQ(contentOf(Result, "ops.h"), "#pragma once\n"
                                        "namespace cache_dit::attn {\n"
                                        "void run();\n"
                                        "} // namespace cache_dit::attn\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, NestedNamespaceDefinitionEditsOnlyTheRenamedPart) {
  write("ops.h", "namespace sample_ops::detail {\n"
                 "int helper();\n"
                 "}\n");
  RewriteResult Result = rewrite(renaming({"ops.h"}));
  EXPECT_EQ(contentOf(Result, "ops.h"), "namespace cache_dit::attn::detail {\n"
                                        "int helper();\n"
                                        "}\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, QualifiedNamesInExpressionsAndTypes) {
  write("ops.h", "namespace sample_ops {\n"
                 "struct Config { int n; };\n"
                 "template <typename T> struct Box { T v; };\n"
                 "int run(Config c);\n"
                 "}\n");
  write("use.cpp", "#include \"ops.h\"\n"
                   "int use() {\n"
                   "  sample_ops::Config c{1};\n"
                   "  sample_ops::Box<sample_ops::Config> b{c};\n"
                   "  return sample_ops::run(b.v) + ::sample_ops::run(c);\n"
                   "}\n");
  RewriteResult Result = rewrite(renaming({"ops.h", "use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"), "#include \"ops.h\"\n"
                                          "int use() {\n"
                                          "  cache_dit::attn::Config c{1};\n"
                                          "  cache_dit::attn::Box<cache_dit::attn::Config> b{c};\n"
                                          "  return cache_dit::attn::run(b.v) + "
                                          "::cache_dit::attn::run(c);\n"
                                          "}\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, OutOfLineDefinition) {
  write("ops.h", "namespace sample_ops {\n"
                 "struct Config { int n; };\n"
                 "int run(Config c);\n"
                 "}\n");
  write("ops.cpp", "#include \"ops.h\"\n"
                   "int sample_ops::run(sample_ops::Config c) { return c.n; }\n");
  RewriteResult Result = rewrite(renaming({"ops.h", "ops.cpp"}));
  EXPECT_EQ(contentOf(Result, "ops.cpp"),
            "#include \"ops.h\"\n"
            "int cache_dit::attn::run(cache_dit::attn::Config c) { return c.n; }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, UsingDeclarationsAndDirectives) {
  write("ops.h", "namespace sample_ops {\n"
                 "int run();\n"
                 "namespace detail { int step(); }\n"
                 "}\n");
  write("use.cpp", "#include \"ops.h\"\n"
                   "using sample_ops::run;\n"
                   "using namespace sample_ops::detail;\n"
                   "int use() {\n"
                   "  using namespace sample_ops;\n"
                   "  return run() + step();\n"
                   "}\n");
  RewriteResult Result = rewrite(renaming({"ops.h", "use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"), "#include \"ops.h\"\n"
                                          "using cache_dit::attn::run;\n"
                                          "using namespace cache_dit::attn::detail;\n"
                                          "int use() {\n"
                                          "  using namespace cache_dit::attn;\n"
                                          "  return run() + step();\n"
                                          "}\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, NamespaceAliasTargetFollowsAndItsUsesStay) {
  write("use.cpp", "namespace sample_ops { int run(); }\n"
                   "namespace so = sample_ops;\n"
                   "int use() { return so::run(); }\n");
  RewriteResult Result = rewrite(renaming({"use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"), "namespace cache_dit::attn { int run(); }\n"
                                          "namespace so = cache_dit::attn;\n"
                                          "int use() { return so::run(); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, ExplicitSpecializationAndInstantiation) {
  write("traits.h", "namespace sample_ops {\n"
                    "template <typename T> struct Traits { static int size(); };\n"
                    "template <typename T> void fill(T *p) { *p = T(); }\n"
                    "}\n");
  write("traits.cpp", "#include \"traits.h\"\n"
                      "template <> struct sample_ops::Traits<int> { static int size(); };\n"
                      "template struct sample_ops::Traits<float>;\n"
                      "template void sample_ops::fill<int>(int *);\n");
  RewriteResult Result = rewrite(renaming({"traits.h", "traits.cpp"}));
  EXPECT_EQ(contentOf(Result, "traits.cpp"),
            "#include \"traits.h\"\n"
            "template <> struct cache_dit::attn::Traits<int> { static int size(); };\n"
            "template struct cache_dit::attn::Traits<float>;\n"
            "template void cache_dit::attn::fill<int>(int *);\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, FriendAndForwardDeclarations) {
  write("holder.h", "struct Holder;\n"
                    "namespace sample_ops { struct Impl; void touch(Holder &h); }\n"
                    "struct Holder {\n"
                    "  friend void sample_ops::touch(Holder &h);\n"
                    "  friend struct sample_ops::Impl;\n"
                    "private:\n"
                    "  int secret = 0;\n"
                    "};\n");
  RewriteResult Result = rewrite(renaming({"holder.h"}));
  EXPECT_EQ(contentOf(Result, "holder.h"),
            "struct Holder;\n"
            "namespace cache_dit::attn { struct Impl; void touch(Holder &h); }\n"
            "struct Holder {\n"
            "  friend void cache_dit::attn::touch(Holder &h);\n"
            "  friend struct cache_dit::attn::Impl;\n"
            "private:\n"
            "  int secret = 0;\n"
            "};\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, RelativeSpellingThatStillResolvesIsKept) {
  write("ops.h", "namespace sample_ops {\n"
                 "namespace detail { int step(); }\n"
                 "inline int run() { return detail::step(); }\n"
                 "}\n");
  RewriteResult Result = rewrite(renaming({"ops.h"}));
  EXPECT_EQ(contentOf(Result, "ops.h"), "namespace cache_dit::attn {\n"
                                        "namespace detail { int step(); }\n"
                                        "inline int run() { return detail::step(); }\n"
                                        "}\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, LongestRenameWins) {
  write("ops.h", "namespace sample_ops {\n"
                 "namespace detail { int step(); }\n"
                 "int run();\n"
                 "}\n"
                 "inline int use() { return sample_ops::run() + sample_ops::detail::step(); }\n");
  RewriteRequest Request = renaming({"ops.h"});
  Request.Renames = {{"sample_ops", "cache_dit::attn"}, {"sample_ops::detail", "cache_dit::impl"}};
  RewriteResult Result = rewrite(Request);
  // The inner namespace moves out of the outer one: its piecewise opening
  // cannot say so, which blocks.
  EXPECT_EQ(contentOf(Result, "ops.h"),
            "namespace cache_dit::attn {\n"
            "namespace detail { int step(); }\n"
            "int run();\n"
            "}\n"
            "inline int use() { return cache_dit::attn::run() + cache_dit::impl::step(); }\n");
  EXPECT_EQ(issuesOf(Result),
            "ops.h:2: blocking: namespace `sample_ops::detail` is opened inside `sample_ops`, "
            "which becomes `cache_dit::attn`: its rename to `cache_dit::impl` cannot be written "
            "here; open it as `namespace sample_ops::detail {` upstream or rename `sample_ops` "
            "too\n");
}

TEST_F(SourceRewriterTest, NamespaceOpenedInPiecesBlocks) {
  write("ab.h", "namespace a {\n"
                "namespace b {\n"
                "int f();\n"
                "}\n"
                "}\n");
  RewriteRequest Request = renaming({"ab.h"});
  Request.Renames = {{"a::b", "c::d"}};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "ab.h"), "namespace a {\n"
                                       "namespace b {\n"
                                       "int f();\n"
                                       "}\n"
                                       "}\n");
  EXPECT_EQ(issuesOf(Result),
            "ab.h:2: blocking: namespace `a::b` is opened inside `a`, which becomes `a`: its "
            "rename to `c::d` cannot be written here; open it as `namespace a::b {` upstream or "
            "rename `a` too\n");
}

//===----------------------------------------------------------------------===//
// Macros
//===----------------------------------------------------------------------===//

TEST_F(SourceRewriterTest, NameInMacroArgumentIsRewrittenWhereWritten) {
  write("use.cpp", "namespace sample_ops { bool ok(int x); }\n"
                   "#define CHECK(cond) ((cond) ? 0 : 1)\n"
                   "int use(int x) { return CHECK(sample_ops::ok(x)); }\n");
  RewriteResult Result = rewrite(renaming({"use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"),
            "namespace cache_dit::attn { bool ok(int x); }\n"
            "#define CHECK(cond) ((cond) ? 0 : 1)\n"
            "int use(int x) { return CHECK(cache_dit::attn::ok(x)); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, NameInMacroBodyIsRewrittenOnceInTheDefine) {
  write("use.cpp", "namespace sample_ops { int run(int x); }\n"
                   "#define CALL(x) sample_ops::run(x)\n"
                   "int a() { return CALL(1); }\n"
                   "int b() { return CALL(2); }\n");
  RewriteResult Result = rewrite(renaming({"use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"), "namespace cache_dit::attn { int run(int x); }\n"
                                          "#define CALL(x) cache_dit::attn::run(x)\n"
                                          "int a() { return CALL(1); }\n"
                                          "int b() { return CALL(2); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, NameMadeByTokenPastingBlocks) {
  write("use.cpp", "namespace sample_ops { int run(); }\n"
                   "#define NS(x) sample_##x\n"
                   "int use() {\n"
                   "  return NS(ops)::run();\n"
                   "}\n");
  RewriteResult Result = rewrite(renaming({"use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"), "namespace cache_dit::attn { int run(); }\n"
                                          "#define NS(x) sample_##x\n"
                                          "int use() {\n"
                                          "  return NS(ops)::run();\n"
                                          "}\n");
  EXPECT_EQ(issuesOf(Result), "use.cpp:4: blocking: a namespace name here is made by token "
                              "pasting (`##`) in a macro and cannot be rewritten\n");
}

TEST_F(SourceRewriterTest, StringizedNameBlocks) {
  write("use.cpp", "namespace sample_ops { int run(); }\n"
                   "#define NAME(x) #x\n"
                   "const char *name() { return NAME(sample_ops::run); }\n");
  RewriteResult Result = rewrite(renaming({"use.cpp"}));
  EXPECT_EQ(issuesOf(Result),
            "use.cpp:3: blocking: `sample_ops` is left as written: no reference Clang resolved "
            "covers it (a stringized or pasted macro argument, or a use the parses did not see "
            "as a namespace)\n");
}

TEST_F(SourceRewriterTest, NameInDisabledBranchIsReportedWithoutBlocking) {
  write("use.cpp", "namespace sample_ops { int run(); int legacy(); }\n"
                   "int use() {\n"
                   "#if USE_LEGACY\n"
                   "  return sample_ops::legacy();\n"
                   "#else\n"
                   "  return sample_ops::run();\n"
                   "#endif\n"
                   "}\n");
  RewriteResult Result = rewrite(renaming({"use.cpp"}));
  EXPECT_EQ(contentOf(Result, "use.cpp"), "namespace cache_dit::attn { int run(); int legacy(); }\n"
                                          "int use() {\n"
                                          "#if USE_LEGACY\n"
                                          "  return sample_ops::legacy();\n"
                                          "#else\n"
                                          "  return cache_dit::attn::run();\n"
                                          "#endif\n"
                                          "}\n");
  EXPECT_EQ(issuesOf(Result),
            "use.cpp:4: note: `sample_ops` is left as written: it is in an `#if` branch no parse "
            "entered; rewrite it by hand if that branch is built\n");
}

TEST_F(SourceRewriterTest, NameInUnexpandedMacroIsReportedWithoutBlocking) {
  write("use.h", "namespace sample_ops { int run(); }\n"
                 "#define UNUSED_CALL() sample_ops::run()\n");
  RewriteResult Result = rewrite(renaming({"use.h"}));
  EXPECT_EQ(issuesOf(Result),
            "use.h:2: note: `sample_ops` is left as written: it is in a macro no parse expanded; "
            "rewrite it by hand if the macro is used\n");
}

TEST_F(SourceRewriterTest, DeviceOnlyCodeIsRenamed) {
  write("k.cu", "namespace sample_ops {\n"
                "__device__ inline int lane() { return 0; }\n"
                "}\n"
                "__global__ void kernel(int *out) {\n"
                "#ifdef __CUDA_ARCH__\n"
                "  *out = sample_ops::lane();\n"
                "#endif\n"
                "}\n");
  RewriteResult Result = rewrite(renaming({"k.cu"}));
  EXPECT_EQ(contentOf(Result, "k.cu"), "namespace cache_dit::attn {\n"
                                       "__device__ inline int lane() { return 0; }\n"
                                       "}\n"
                                       "__global__ void kernel(int *out) {\n"
                                       "#ifdef __CUDA_ARCH__\n"
                                       "  *out = cache_dit::attn::lane();\n"
                                       "#endif\n"
                                       "}\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, ConflictingRewritesOfOneMacroBodyBlock) {
  write("use.cpp", "namespace a { namespace detail { int f(); } }\n"
                   "namespace b { namespace detail { int f(); } }\n"
                   "#define DETAIL_F() detail::f()\n"
                   "namespace a { int g() { return DETAIL_F(); } }\n"
                   "namespace b { int g() { return DETAIL_F(); } }\n");
  RewriteRequest Request = renaming({"use.cpp"});
  Request.Renames = {{"a::detail", "p"}, {"b::detail", "q"}};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "use.cpp"), "namespace a { namespace detail { int f(); } }\n"
                                          "namespace b { namespace detail { int f(); } }\n"
                                          "#define DETAIL_F() p::f()\n"
                                          "namespace a { int g() { return DETAIL_F(); } }\n"
                                          "namespace b { int g() { return DETAIL_F(); } }\n");
  EXPECT_EQ(issuesOf(Result),
            "use.cpp:1: blocking: namespace `a::detail` is opened inside `a`, which becomes `a`: "
            "its rename to `p` cannot be written here; open it as `namespace a::detail {` "
            "upstream or rename `a` too\n"
            "use.cpp:2: blocking: namespace `b::detail` is opened inside `b`, which becomes `b`: "
            "its rename to `q` cannot be written here; open it as `namespace b::detail {` "
            "upstream or rename `b` too\n"
            "use.cpp:3: blocking: conflicting edits of the same text: `p` (namespace rename) and "
            "`q` (namespace rename)\n");
}

TEST_F(SourceRewriterTest, NamespaceDefinitionMadeByTokenPastingBlocks) {
  write("use.h", "#define OPEN_NS(x) namespace sample_##x {\n"
                 "OPEN_NS(ops)\n"
                 "int run();\n"
                 "}\n");
  RewriteResult Result = rewrite(renaming({"use.h"}));
  EXPECT_EQ(issuesOf(Result), "use.h:2: blocking: a namespace name here is made by token pasting "
                              "(`##`) in a macro and cannot be rewritten\n");
}

TEST_F(SourceRewriterTest, LeftoverScanSkipsCommentsStringsMembersAndIncludeNames) {
  writeFile(Outside + "/include/sample_ops/api.h", "#pragma once\n");
  write("use.cpp", "#include <sample_ops/api.h>\n"
                   "namespace sample_ops { int run(); } // sample_ops\n"
                   "struct Names { const char *sample_ops = \"sample_ops::run\"; };\n"
                   "const char *name(Names n) { return n.sample_ops; }\n");
  RewriteRequest Request = renaming({"use.cpp"});
  Request.ExtraArgs = {"-isystem", Outside + "/include"};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "use.cpp"),
            "#include <sample_ops/api.h>\n"
            "namespace cache_dit::attn { int run(); } // cache_dit::attn\n"
            "struct Names { const char *sample_ops = \"sample_ops::run\"; };\n"
            "const char *name(Names n) { return n.sample_ops; }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

//===----------------------------------------------------------------------===//
// Global wrap
//===----------------------------------------------------------------------===//

TEST_F(SourceRewriterTest, GlobalDeclarationsAreWrappedAroundIncludesAndBlocks) {
  write("util.h", "#pragma once\n"
                  "int helper(int x);\n");
  write("ops.cpp", "// Header comment.\n"
                   "#include \"util.h\"\n"
                   "\n"
                   "#define TWICE(x) ((x) * 2)\n"
                   "\n"
                   "// Doubles.\n"
                   "int twice(int x) { return TWICE(x); }\n"
                   "int helper(int x) { return ::twice(x); }\n"
                   "\n"
                   "namespace other { int keep(); }\n"
                   "extern \"C\" int c_entry(int x) { return helper(x); }\n"
                   "int main() { return twice(1); }\n");
  RewriteRequest Request = request({{"util.h", "util.h"}, {"ops.cpp", "ops.cpp"}});
  Request.WrapGlobalInto = "cache_dit::attn";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "util.h"), "#pragma once\n"
                                         "namespace cache_dit::attn {\n"
                                         "int helper(int x);\n"
                                         "} // namespace cache_dit::attn\n");
  EXPECT_EQ(contentOf(Result, "ops.cpp"),
            "// Header comment.\n"
            "#include \"util.h\"\n"
            "\n"
            "#define TWICE(x) ((x) * 2)\n"
            "\n"
            "namespace cache_dit::attn {\n"
            "// Doubles.\n"
            "int twice(int x) { return TWICE(x); }\n"
            "int helper(int x) { return ::cache_dit::attn::twice(x); }\n"
            "} // namespace cache_dit::attn\n"
            "\n"
            "namespace other { int keep(); }\n"
            "extern \"C\" int c_entry(int x) { return cache_dit::attn::helper(x); }\n"
            "int main() { return cache_dit::attn::twice(1); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, WrapRunStopsAtIncludeAndConditional) {
  write("a.h", "#pragma once\nstruct A {};\n");
  write("b.h", "#pragma once\nstruct B {};\n");
  write("ab.cpp", "#include \"a.h\"\n"
                  "A make_a();\n"
                  "#include \"b.h\"\n"
                  "B make_b();\n"
                  "#ifdef EXTRA\n"
                  "int extra();\n"
                  "#endif\n");
  RewriteRequest Request = request({{"a.h", "a.h"}, {"b.h", "b.h"}, {"ab.cpp", "ab.cpp"}});
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "ab.cpp"), "#include \"a.h\"\n"
                                         "namespace w {\n"
                                         "A make_a();\n"
                                         "} // namespace w\n"
                                         "#include \"b.h\"\n"
                                         "namespace w {\n"
                                         "B make_b();\n"
                                         "} // namespace w\n"
                                         "#ifdef EXTRA\n"
                                         "int extra();\n"
                                         "#endif\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, WrappedEntityIsQualifiedFromOtherNamespaces) {
  write("mix.cpp", "constexpr int kBlock = 128;\n"
                   "namespace sample_ops { int blocks(int n) { return n / kBlock; } }\n"
                   "namespace other { int blocks(int n) { return n / kBlock; } }\n");
  RewriteRequest Request = renaming({"mix.cpp"});
  Request.WrapGlobalInto = "cache_dit::attn";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "mix.cpp"),
            "namespace cache_dit::attn {\n"
            "constexpr int kBlock = 128;\n"
            "} // namespace cache_dit::attn\n"
            "namespace cache_dit::attn { int blocks(int n) { return n / kBlock; } }\n"
            "namespace other { int blocks(int n) { return n / cache_dit::attn::kBlock; } }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, OperatorsOnOutsideTypesStayGlobalAndThoseOnWrappedTypesMove) {
  // `v2` stands for CUDA's global `float2`: its header is not ported.
  write("third_party/vec/vec.h", "struct v2 { float x, y; };\n");
  write("ops.h",
        "#include \"third_party/vec/vec.h\"\n"
        "inline v2 operator*(v2 a, v2 b) { return {a.x * b.x, a.y * b.y}; }\n"
        "template <typename T> T operator+(T a, const T *b) { return a; }\n"
        "constexpr unsigned long long operator\"\"_kb(unsigned long long n) { return n; }\n"
        "struct Acc { float s; };\n"
        "inline Acc operator+(Acc a, const v2 &b) { return {a.s + b.x}; }\n"
        "namespace k { inline v2 sq(v2 a) { return a * a; } }\n");
  RewriteRequest Request = request({{"ops.h", "ops.h"}});
  Request.ExternalDirs = {"third_party/vec"};
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "ops.h"),
            "#include \"third_party/vec/vec.h\"\n"
            "inline v2 operator*(v2 a, v2 b) { return {a.x * b.x, a.y * b.y}; }\n"
            "template <typename T> T operator+(T a, const T *b) { return a; }\n"
            "constexpr unsigned long long operator\"\"_kb(unsigned long long n) { return n; }\n"
            "namespace w {\n"
            "struct Acc { float s; };\n"
            "inline Acc operator+(Acc a, const v2 &b) { return {a.s + b.x}; }\n"
            "} // namespace w\n"
            "namespace k { inline v2 sq(v2 a) { return a * a; } }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, WrappedTypeIsQualifiedFromOtherNamespaces) {
  write("cfg.h", "struct Cfg { int n; };\n"
                 "namespace other { Cfg make(); }\n");
  RewriteRequest Request = request({{"cfg.h", "cfg.h"}});
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "cfg.h"), "namespace w {\n"
                                        "struct Cfg { int n; };\n"
                                        "} // namespace w\n"
                                        "namespace other { w::Cfg make(); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, ExplicitInstantiationOfWrappedTemplateMovesWithIt) {
  write("twice.cpp", "struct half { short bits; };\n"
                     "template <typename T> T twice(T x) { return x; }\n"
                     "template half twice<half>(half);\n"
                     "extern template int twice<int>(int);\n"
                     "#include <cstddef>\n"
                     "template long twice<long>(long);\n");
  RewriteRequest Request = request({{"twice.cpp", "twice.cpp"}});
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "twice.cpp"), "namespace w {\n"
                                            "struct half { short bits; };\n"
                                            "template <typename T> T twice(T x) { return x; }\n"
                                            "template half twice<half>(half);\n"
                                            "extern template int twice<int>(int);\n"
                                            "} // namespace w\n"
                                            "#include <cstddef>\n"
                                            "namespace w {\n"
                                            "template long twice<long>(long);\n"
                                            "} // namespace w\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, TopLevelNamespaceShadowedByTheWrapIsSpelledFromGlobal) {
  // Inside `cache_dit::svdq`, `svdq::scale` would name `cache_dit::svdq::scale`.
  write("scale.cpp", "namespace svdq { inline int scale(int x) { return 2 * x; } }\n"
                     "int run(int x) { return svdq::scale(x); }\n");
  RewriteRequest Request = request({{"scale.cpp", "scale.cpp"}});
  Request.WrapGlobalInto = "cache_dit::svdq";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "scale.cpp"),
            "namespace svdq { inline int scale(int x) { return 2 * x; } }\n"
            "namespace cache_dit::svdq {\n"
            "int run(int x) { return ::svdq::scale(x); }\n"
            "} // namespace cache_dit::svdq\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, TemplateParametersOfOutOfLineMembersAreNotWrappedNames) {
  write("rows.cpp",
        "template <typename T, int Block> struct Rows { static int width(); };\n"
        "template <typename T, int Block> int Rows<T, Block>::width() { return Block; }\n");
  RewriteRequest Request = request({{"rows.cpp", "rows.cpp"}});
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "rows.cpp"),
            "namespace w {\n"
            "template <typename T, int Block> struct Rows { static int width(); };\n"
            "template <typename T, int Block> int Rows<T, Block>::width() { return Block; }\n"
            "} // namespace w\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, ImplicitInstantiationsDoNotSplitTheWrap) {
  // dispatchBool<lambda> is instantiated for the call in run(); Sema hands
  // it over as a top-level declaration of its own.
  write("flag.h",
        "#pragma once\nnamespace tl {\n"
        "template <typename F> void dispatchBool(bool B, F &&Body) {\n"
        "  if (B) Body.template operator()<true>(); else Body.template operator()<false>();\n"
        "}\n}\n");
  write("run.cpp", "#include \"flag.h\"\n"
                   "int run(bool B) { int R = 0; tl::dispatchBool(B, [&]<bool K>() { R = K; }); "
                   "return R; }\n");
  RewriteRequest Request = request({{"flag.h", "flag.h"}, {"run.cpp", "run.cpp"}});
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "run.cpp"),
            "#include \"flag.h\"\n"
            "namespace w {\n"
            "int run(bool B) { int R = 0; tl::dispatchBool(B, [&]<bool K>() { R = K; }); "
            "return R; }\n"
            "} // namespace w\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, MacroOnlyHeaderIsNotWrapped) {
  write("macros.h", "#pragma once\n"
                    "#define KBLOCK 128\n");
  RewriteRequest Request = request({{"macros.h", "macros.h"}});
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "macros.h"), "#pragma once\n#define KBLOCK 128\n");
  EXPECT_EQ(issuesOf(Result), "");
}

//===----------------------------------------------------------------------===//
// Includes
//===----------------------------------------------------------------------===//

TEST_F(SourceRewriterTest, IncludeRespelledRelativeToRootFromIncludePathSpelling) {
  write("csrc/common/checks.h", "#pragma once\n");
  write("csrc/attention/merge.cpp", "#include \"common/checks.h\"\n");
  RewriteRequest Request = request({{"csrc/common/checks.h", "csrc/kernels/attn/common/checks.h"},
                                    {"csrc/attention/merge.cpp", "csrc/kernels/attn/merge.cpp"}});
  Request.TUFlags["csrc/attention/merge.cpp"].push_back("-I" + Root + "/csrc");
  Request.IncludeRoot = "csrc/kernels";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/attention/merge.cpp"), "#include \"attn/common/checks.h\"\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, IncludeRespelledRelativeToRootFromDotDotSpelling) {
  write("csrc/common/checks.h", "#pragma once\n");
  write("csrc/attention/merge.cpp", "#include <../common/checks.h>\n");
  RewriteRequest Request = request({{"csrc/common/checks.h", "csrc/kernels/attn/common/checks.h"},
                                    {"csrc/attention/merge.cpp", "csrc/kernels/attn/merge.cpp"}});
  Request.TUFlags["csrc/attention/merge.cpp"].push_back("-I" + Root + "/csrc/attention");
  Request.IncludeRoot = "csrc/kernels";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/attention/merge.cpp"), "#include \"attn/common/checks.h\"\n");
}

TEST_F(SourceRewriterTest, IncludeRespelledRelativeToFileFromBothSpellings) {
  write("csrc/common/checks.h", "#pragma once\n");
  write("csrc/common/dispatch.h", "#pragma once\n");
  write("csrc/attention/merge.cpp", "#include \"../common/checks.h\"\n"
                                    "#include \"common/dispatch.h\"\n");
  RewriteRequest Request = request({{"csrc/common/checks.h", "kernels/attn/common/checks.h"},
                                    {"csrc/common/dispatch.h", "kernels/attn/common/dispatch.h"},
                                    {"csrc/attention/merge.cpp", "kernels/attn/ops/merge.cpp"}});
  Request.TUFlags["csrc/attention/merge.cpp"].push_back("-I" + Root + "/csrc");
  Request.Includes = IncludeStyle::RelativeToFile;
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/attention/merge.cpp"), "#include \"../common/checks.h\"\n"
                                                           "#include \"../common/dispatch.h\"\n");
  EXPECT_EQ(issuesOf(Result), "");
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

TEST_F(SourceRewriterTest, ExternalIncludeKeptAndUnportedTreeIncludeBlocks) {
  writeFile(Outside + "/include/ext/api.h", "#pragma once\n");
  write("csrc/left.h", "#pragma once\n");
  write("csrc/op.cpp", "#include <ext/api.h>\n"
                       "#include \"left.h\"\n");
  RewriteRequest Request = request({{"csrc/op.cpp", "attn/op.cpp"}});
  Request.ExtraArgs = {"-isystem", Outside + "/include"};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/op.cpp"), "#include <ext/api.h>\n"
                                              "#include \"left.h\"\n");
  EXPECT_EQ(issuesOf(Result),
            "csrc/op.cpp:2: blocking: includes `csrc/left.h`, which is not ported\n");
}

TEST_F(SourceRewriterTest, IncludeOfASiblingsHeaderGoesWithTheSibling) {
  write("csrc/bwd.h", "#pragma once\n"
                      "int bwd_helper(int g);\n");
  write("csrc/op.cpp", "#include \"bwd.h\"\n"
                       "int fwd(int x) { return x; }\n"
                       "int bwd(int g) { return bwd_helper(g); }\n"
                       "#ifdef BWD_TWICE\n"
                       "#include \"bwd.h\"\n"
                       "#endif\n");
  RewriteRequest Request = request({{"csrc/op.cpp", "attn/op.cpp"}});
  Request.DropDefinitions["csrc/op.cpp"] = {{"bwd", {"csrc/op.cpp", 3}, 0, 0, {}, {}}};
  // Both directives, the one in a branch no parse entered too.
  Request.DropIncludeLines["csrc/op.cpp"] = {1, 5};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/op.cpp"), "int fwd(int x) { return x; }\n"
                                              "#ifdef BWD_TWICE\n"
                                              "#endif\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, OnlyTheListedIncludeLinesGo) {
  write("csrc/left.h", "#pragma once\n");
  write("csrc/op.cpp", "#include \"left.h\"\n"
                       "#include \"left.h\"\n");
  RewriteRequest Request = request({{"csrc/op.cpp", "attn/op.cpp"}});
  Request.DropIncludeLines["csrc/op.cpp"] = {1};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/op.cpp"), "#include \"left.h\"\n");
  EXPECT_EQ(issuesOf(Result),
            "csrc/op.cpp:2: blocking: includes `csrc/left.h`, which is not ported\n");
}

TEST_F(SourceRewriterTest, SubmoduleStaysExternal) {
  write("third_party/fastlib/fast.h", "#pragma once\n"
                                      "namespace sample_ops { int fast(); }\n");
  write("csrc/op.cpp", "#include \"../third_party/fastlib/fast.h\"\n"
                       "int op() { return sample_ops::fast(); }\n");
  RewriteRequest Request = renaming({"csrc/op.cpp"});
  Request.ExternalDirs = {"third_party/fastlib"};
  RewriteResult Result = rewrite(Request);
  // The namespace is only opened in the submodule: its members keep their
  // names, and the include stays as written.
  EXPECT_EQ(contentOf(Result, "csrc/op.cpp"), "#include \"../third_party/fastlib/fast.h\"\n"
                                              "int op() { return sample_ops::fast(); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, IncludeInDisabledBranchIsRespelled) {
  write("csrc/common/checks.h", "#pragma once\n");
  write("csrc/common/legacy.h", "#pragma once\n");
  write("csrc/op.cpp", "#ifdef LEGACY\n"
                       "#include \"common/legacy.h\"\n"
                       "#else\n"
                       "#include \"common/checks.h\"\n"
                       "#endif\n");
  RewriteRequest Request = request({{"csrc/common/checks.h", "attn/common/checks.h"},
                                    {"csrc/common/legacy.h", "attn/common/legacy.h"},
                                    {"csrc/op.cpp", "attn/op.cpp"}});
  Request.TUFlags["csrc/op.cpp"].push_back("-I" + Root + "/csrc");
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "csrc/op.cpp"), "#ifdef LEGACY\n"
                                              "#include \"attn/common/legacy.h\"\n"
                                              "#else\n"
                                              "#include \"attn/common/checks.h\"\n"
                                              "#endif\n");
  EXPECT_EQ(issuesOf(Result), "");
}

//===----------------------------------------------------------------------===//
// Slicing, registration, provenance
//===----------------------------------------------------------------------===//

TEST_F(SourceRewriterTest, SiblingDroppedWithItsCommentRestByteIdentical) {
  const char *Before = "// Forward and backward of the op.\n"
                       "#include \"ops.h\"\n"
                       "\n"
                       "// Forward: needed.\n"
                       "int fwd(int x) {\n"
                       "  return x  +  1; // odd spacing kept\n"
                       "}\n"
                       "\n"
                       "// Backward: a sibling.\n"
                       "// Two comment lines.\n"
                       "template <typename T>\n"
                       "T bwd(T g) { return g; }\n"
                       "\n"
                       "int tail() { return 2; }\n";
  write("ops.h", "#pragma once\n");
  write("binding.cpp", Before);
  RewriteRequest Request = request({{"ops.h", "ops.h"}, {"binding.cpp", "binding.cpp"}});
  Request.DropDefinitions["binding.cpp"] = {{"bwd", {"binding.cpp", 12}, 0, 0, {}, {}}};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "binding.cpp"), "// Forward and backward of the op.\n"
                                              "#include \"ops.h\"\n"
                                              "\n"
                                              "// Forward: needed.\n"
                                              "int fwd(int x) {\n"
                                              "  return x  +  1; // odd spacing kept\n"
                                              "}\n"
                                              "\n"
                                              "int tail() { return 2; }\n");
  ASSERT_EQ(Result.Files.size(), 2u);
  EXPECT_EQ(Result.Files[0].DroppedDefinitions, std::vector<std::string>{"bwd"});
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, MissingSiblingBlocks) {
  write("binding.cpp", "int fwd() { return 1; }\n");
  RewriteRequest Request = request({{"binding.cpp", "binding.cpp"}});
  Request.DropDefinitions["binding.cpp"] = {{"bwd", {"binding.cpp", 3}, 0, 0, {}, {}}};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(issuesOf(Result),
            "binding.cpp:3: blocking: definition `bwd` to leave out was found by no parse\n");
}

TEST_F(SourceRewriterTest, TorchLibraryBlocksAreDropped) {
  write("ops.h", "#pragma once\nint fwd(int x);\n");
  write("bindings.cpp", "// Registers the ops.\n"
                        "#include <torch/library.h>\n"
                        "\n"
                        "#include \"ops.h\"\n"
                        "\n"
                        "TORCH_LIBRARY(sample_ops, m) {\n"
                        "  m.def(\"fwd(int x) -> int\");\n"
                        "}\n"
                        "\n"
                        "// CUDA kernels.\n"
                        "TORCH_LIBRARY_IMPL(sample_ops, CUDA, m) {\n"
                        "  m.impl(\"fwd\", &fwd);\n"
                        "}\n");
  RewriteRequest Request = request({{"ops.h", "ops.h"}, {"bindings.cpp", "bindings.cpp"}});
  Request.ExtraArgs = {"-isystem", OPMIG_FIXTURES_DIR "/stubs/include"};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "bindings.cpp"), "// Registers the ops.\n"
                                               "#include <torch/library.h>\n"
                                               "\n"
                                               "#include \"ops.h\"\n");
  EXPECT_EQ(Result.Files[0].DroppedDefinitions,
            (std::vector<std::string>{"TORCH_LIBRARY_init_sample_ops",
                                      "TORCH_LIBRARY_static_init_sample_ops",
                                      "TORCH_LIBRARY_IMPL_init_sample_ops_CUDA_0",
                                      "TORCH_LIBRARY_IMPL_static_init_sample_ops_CUDA_0"}));
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, ProvenanceHeaderGoesFirst) {
  write("ops.h", "#pragma once\nint fwd(int x);\n");
  RewriteRequest Request = request({{"ops.h", "ops.h"}});
  Request.Headers["ops.h"] = "// Migrated from upstream@abc123: ops.h";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "ops.h"),
            "// Migrated from upstream@abc123: ops.h\n#pragma once\nint fwd(int x);\n");
}

TEST_F(SourceRewriterTest, UnreadableFileFails) {
  RewriteRequest Request = request({{"missing.h", "missing.h"}});
  llvm::Expected<RewriteResult> Result = rewriteSources(Request);
  ASSERT_FALSE(bool(Result));
  EXPECT_EQ(llvm::toString(Result.takeError()).rfind("cannot read " + Root + "/missing.h: ", 0),
            0u);
}

TEST_F(SourceRewriterTest, TorchLibraryFragmentDroppedAndWrapSkipsIt) {
  write("ops.h", "#pragma once\nint fwd(int x);\n");
  write("bindings.cpp", "#include <torch/library.h>\n"
                        "\n"
                        "#include \"ops.h\"\n"
                        "\n"
                        "// Defined with the registration.\n"
                        "int fwd(int x) { return x; }\n"
                        "\n"
                        "TORCH_LIBRARY_FRAGMENT(sample_ops, m) {\n"
                        "  m.def(\"fwd(int x) -> int\");\n"
                        "}\n"
                        "\n"
                        "TORCH_LIBRARY_IMPL(sample_ops, CUDA, m) {\n"
                        "  m.impl(\"fwd\", &fwd);\n"
                        "}\n");
  RewriteRequest Request = request({{"ops.h", "ops.h"}, {"bindings.cpp", "bindings.cpp"}});
  Request.ExtraArgs = {"-isystem", OPMIG_FIXTURES_DIR "/stubs/include"};
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "bindings.cpp"), "#include <torch/library.h>\n"
                                               "\n"
                                               "#include \"ops.h\"\n"
                                               "\n"
                                               "namespace w {\n"
                                               "// Defined with the registration.\n"
                                               "int fwd(int x) { return x; }\n"
                                               "} // namespace w\n");
  EXPECT_EQ(Result.Files[0].DroppedDefinitions,
            (std::vector<std::string>{"TORCH_LIBRARY_FRAGMENT_init_sample_ops_0",
                                      "TORCH_LIBRARY_FRAGMENT_static_init_sample_ops_0",
                                      "TORCH_LIBRARY_IMPL_init_sample_ops_CUDA_1",
                                      "TORCH_LIBRARY_IMPL_static_init_sample_ops_CUDA_1"}));
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, SiblingInAnonymousNamespaceDropped) {
  write("table.cpp", "namespace sample_ops {\n"
                     "namespace {\n"
                     "int used() { return 1; }\n"
                     "\n"
                     "// Nothing reaches it.\n"
                     "int unused() { return 2; }\n"
                     "} // namespace\n"
                     "int entry() { return used(); }\n"
                     "} // namespace sample_ops\n");
  RewriteRequest Request = request({{"table.cpp", "table.cpp"}});
  Request.DropDefinitions["table.cpp"] = {
      {"sample_ops::(anonymous namespace)::unused", {"table.cpp", 6}, 0, 0, {}, {}}};
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "table.cpp"), "namespace sample_ops {\n"
                                            "namespace {\n"
                                            "int used() { return 1; }\n"
                                            "\n"
                                            "} // namespace\n"
                                            "int entry() { return used(); }\n"
                                            "} // namespace sample_ops\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, PybindModuleIsDropped) {
  write("ops.h", "#pragma once\nint fwd(int x);\n");
  write("module.cpp", "#include <pybind11/pybind11.h>\n"
                      "\n"
                      "#include \"ops.h\"\n"
                      "\n"
                      "int fwd(int x) { return x; }\n"
                      "\n"
                      "PYBIND11_MODULE(_C, m) {\n"
                      "  m.def(\"fwd\", &fwd);\n"
                      "}\n");
  RewriteRequest Request = request({{"ops.h", "ops.h"}, {"module.cpp", "module.cpp"}});
  Request.ExtraArgs = {"-isystem", OPMIG_FIXTURES_DIR "/stubs/include"};
  Request.WrapGlobalInto = "w";
  RewriteResult Result = rewrite(Request);
  EXPECT_EQ(contentOf(Result, "module.cpp"), "#include <pybind11/pybind11.h>\n"
                                             "\n"
                                             "#include \"ops.h\"\n"
                                             "\n"
                                             "namespace w {\n"
                                             "int fwd(int x) { return x; }\n"
                                             "} // namespace w\n");
  EXPECT_EQ(Result.Files[0].DroppedDefinitions,
            (std::vector<std::string>{"pybind11_init__C", "PyInit__C"}));
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, RegistrationNoParseExpandedBlocks) {
  write("bindings.cpp", "TORCH_LIBRARY(sample_ops, m) {\n"
                        "  m.def(\"fwd(int x) -> int\");\n"
                        "}\n");
  RewriteResult Result = rewrite(request({{"bindings.cpp", "bindings.cpp"}}));
  std::string Issues = issuesOf(Result);
  EXPECT_EQ(Issues.substr(0, Issues.find('\n') + 1),
            "bindings.cpp:0: note: the host parse reported errors (first: bindings.cpp:1: unknown "
            "type name 'sample_ops'); code Clang could not make sense of may be missed\n");
  EXPECT_EQ(Issues.substr(Issues.find('\n') + 1),
            "bindings.cpp:1: blocking: `TORCH_LIBRARY` block was expanded by no parse and stays "
            "in the copy\n");
}

TEST_F(SourceRewriterTest, HeaderNoTranslationUnitIncludesIsParsedOnItsOwn) {
  write("main.cpp", "int main() { return 0; }\n");
  write("lonely.h", "#pragma once\n"
                    "namespace sample_ops { int lonely(); }\n");
  RewriteResult Result = rewrite(renaming({"main.cpp", "lonely.h"}));
  EXPECT_EQ(contentOf(Result, "lonely.h"), "#pragma once\n"
                                           "namespace cache_dit::attn { int lonely(); }\n");
  EXPECT_EQ(issuesOf(Result), "");
}

TEST_F(SourceRewriterTest, UnportedIncludeInDisabledBranchDoesNotBlock) {
  write("csrc/legacy.h", "#pragma once\n");
  write("csrc/op.cpp", "#ifdef LEGACY\n"
                       "#include \"legacy.h\"\n"
                       "#endif\n");
  RewriteResult Result = rewrite(request({{"csrc/op.cpp", "attn/op.cpp"}}));
  EXPECT_EQ(issuesOf(Result), "csrc/op.cpp:2: note: includes `csrc/legacy.h`, which is not ported "
                              "(in a branch no parse entered)\n");
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
